// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"

#include <QString>

namespace scalelab {

class ClusterManager;

// ClusterManager's discovery flow (the drift banner and Refresh): the
// discovery script runs as one more task on the alias's worker thread, and
// its outcome comes back as the manager's profileDiscovered signal.
class ClusterDiscoveryFlow {
public:
    explicit ClusterDiscoveryFlow(ClusterManager &manager)
        : m_manager(manager)
    {}

    // ClusterService::discoverProfile: false when it was not started.
    bool discover(const QString &alias, const ClusterProfile &site);

private:
    ClusterManager &m_manager;
};

}   // namespace scalelab
