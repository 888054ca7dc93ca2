// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/store/RunStoreSql.h"

namespace scalelab {

// BEGIN IMMEDIATE ... COMMIT; rolls back when not committed.
class RunStoreTransaction {
public:
    explicit RunStoreTransaction(QSqlDatabase &db)
        : m_db(db)
    {}
    ~RunStoreTransaction()
    {
        if (m_open)
            (void)RunStoreSql::execPlain(m_db, QStringLiteral("ROLLBACK"));   // nothing more to do if it fails
    }
    Result<void> begin()
    {
        Result<void> r = RunStoreSql::execPlain(m_db, QStringLiteral("BEGIN IMMEDIATE"));
        m_open = r.ok();
        return r;
    }
    Result<void> commit()
    {
        Result<void> r = RunStoreSql::execPlain(m_db, QStringLiteral("COMMIT"));
        if (r.ok())
            m_open = false;
        return r;
    }

private:
    QSqlDatabase &m_db;
    bool m_open = false;
};

}   // namespace scalelab
