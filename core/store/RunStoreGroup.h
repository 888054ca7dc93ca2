// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/store/StoreConnections.h"

#include <QSqlDatabase>

namespace scalelab {

// What every query group of the store (RunStoreRuns, RunStoreAlerts, ...)
// stands on: the store's connections, of which it asks this thread's. A group
// holds nothing else, so RunStore makes one per call: `RunStoreAlerts(c).alerts()`.
class RunStoreGroup {
public:
    explicit RunStoreGroup(StoreConnections &connections)
        : m_connections(connections)
    {}

protected:
    // This thread's open connection (StoreConnections::connection).
    Result<void> connection(QSqlDatabase &db) { return m_connections.connection(db); }
    StoreConnections &connections() const { return m_connections; }

private:
    StoreConnections &m_connections;
};

}   // namespace scalelab
