// SPDX-License-Identifier: GPL-3.0-or-later
// Discovery on a cluster's own connection (the drift banner and Refresh):
// the script runs as one more task on the alias's worker thread.
#include "ui/cluster/ClusterDiscoveryFlow.h"

#include "ui/cluster/ClusterManager.h"
#include "ui/common/AppSettings.h"
#include "ui/common/ClusterDiscovery.h"

namespace scalelab {

bool ClusterDiscoveryFlow::discover(const QString &alias, const ClusterProfile &site)
{
    if (alias.isEmpty() || m_manager.m_destroying)
        return false;
    ClusterManager::Cluster &c = m_manager.cluster(alias);
    if (c.waitingForUser)
        return false;   // the researcher cancelled a login: do not ask again unprompted
    const QString sshConfig = AppSettings::sshConfigPath();
    m_manager.enqueue(c, [alias, sshConfig, site, self = QPointer(&m_manager)](RemoteExecutor &ex) {
        const DiscoveryOutcome outcome = runDiscovery(ex, alias, sshConfig, site, {});
        QMetaObject::invokeMethod(
            self,
            [self, alias, outcome] {
                if (self)
                    Q_EMIT self->profileDiscovered(alias, outcome);
            },
            Qt::QueuedConnection);
    });
    return true;
}

}   // namespace scalelab
