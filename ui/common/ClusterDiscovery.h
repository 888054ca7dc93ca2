// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/discovery/ProfileBuilder.h"
#include "core/discovery/ProfileCheck.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <functional>
#include <optional>

class QObject;

namespace scalelab {

class AppServices;
class RemoteExecutor;

// What one run of the discovery script on a cluster gave the window: the
// profile built from it (every value with its command and date), or why not.
struct DiscoveryOutcome {
    QString alias;
    QString slurmVersion;   // `sbatch --version` as the test step saw it ("" = not asked)
    QString error;   // transport error; "" when the script ran
    BuiltProfile built;
    bool ok() const { return error.isEmpty(); }
};

// The window's side of `scalelab discover`: the same read-only commands
// (DiscoveryScript, one round trip) and ProfileBuilder. Call on a worker
// thread only (it waits on the cluster). `site`: the profile whose site advice
// carries over (nullopt = a shipped one matched by cluster or host name from
// `known`). `sshConfig` resolves the alias into the login host written down.
DiscoveryOutcome runDiscovery(RemoteExecutor &ex, const QString &alias, const QString &sshConfig,
                              const std::optional<ClusterProfile> &site, const QList<ClusterProfile> &known);

// Writes `profile` as <user profile folder>/<id>.json (ProfileJson, atomic
// save) and returns that file; a failure names it.
Result<QString> saveUserProfile(const ClusterProfile &profile);

// The profile `Update` writes: the cluster's facts under the profile's own
// id and name (so the researcher's choice in Compose stays the same).
ClusterProfile refreshedProfile(const ClusterProfile &current, const ClusterProfile &fromCluster);

// Whether the window should offer "Add your cluster": no stored connection,
// no run in the store, no user or system profile, and no shipped site
// profile whose login alias is a Host of the researcher's SSH config (the
// generic profile's alias is only an example).
// whyClusterConfigured names the first thing found ("" = nothing);
// `storeHasRuns` is read off the GUI thread by askWhyClusterConfigured.
QString whyClusterConfigured(AppServices &services, bool storeHasRuns);
inline bool clusterConfigured(AppServices &services, bool storeHasRuns)
{
    return !whyClusterConfigured(services, storeHasRuns).isEmpty();
}
// Reads whether the store has a run on the pool (the window's
// StoreTaskQueue), then gives `done` the answer on the GUI thread while
// `context` exists.
void askWhyClusterConfigured(AppServices &services, QObject *context, std::function<void(const QString &why)> done);

}   // namespace scalelab

Q_DECLARE_METATYPE(scalelab::DiscoveryOutcome)
