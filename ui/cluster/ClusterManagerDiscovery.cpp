// SPDX-License-Identifier: GPL-3.0-or-later
// Discovery on a cluster's own connection (the drift banner and Refresh):
// the script runs as one more task on the alias's worker thread.
#include "ui/cluster/ClusterManager.h"

#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "core/ssh/ClusterConnection.h"

namespace scalelab {

bool ClusterManager::isConnected(const QString &alias) const
{
    const auto it = m_clusters.find(alias);
    return it != m_clusters.end() && it->second->connection
           && it->second->connection->state() == ClusterConnection::State::Connected;
}

bool ClusterManager::discoverProfile(const QString &alias, const ClusterProfile &site)
{
    if (alias.isEmpty() || m_destroying)
        return false;
    Cluster &c = cluster(alias);
    if (c.waitingForUser)
        return false;   // the researcher cancelled a login: do not ask again unprompted
    const QString sshConfig = AppSettings::sshConfigPath();
    enqueue(c, [alias, sshConfig, site, self = QPointer(this)](RemoteExecutor &ex) {
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
