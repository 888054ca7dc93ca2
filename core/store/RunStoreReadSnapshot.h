// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/store/RunStoreSql.h"

namespace scalelab {

// A deferred read transaction: the queries of one bulk read see the same
// snapshot even while a connection worker records new states or metrics.
// Never takes the write lock; always rolled back (nothing is written).
class RunStoreReadSnapshot {
public:
    explicit RunStoreReadSnapshot(QSqlDatabase &db)
        : m_db(db)
    {}
    ~RunStoreReadSnapshot()
    {
        if (m_open)
            m_db.rollback();
    }
    RunStoreReadSnapshot(const RunStoreReadSnapshot &) = delete;
    RunStoreReadSnapshot &operator=(const RunStoreReadSnapshot &) = delete;

    Result<void> begin()
    {
        if (!m_db.transaction())
            return RunStoreSql::error(QStringLiteral("BEGIN"), m_db.lastError());
        m_open = true;
        return {};
    }

private:
    QSqlDatabase &m_db;
    bool m_open = false;
};

}   // namespace scalelab
