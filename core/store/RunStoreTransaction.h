// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/store/RunStoreSql.h"

namespace scalelab {

// BEGIN IMMEDIATE ... COMMIT; rolls back when not committed.
class RunStoreTransaction {
public:
    explicit RunStoreTransaction(QSqlDatabase &db) : m_db(db) {}
    ~RunStoreTransaction()
    {
        if (m_open)
            RunStoreSql::execPlain(m_db, QStringLiteral("ROLLBACK"));
    }
    QString begin()
    {
        const QString e = RunStoreSql::execPlain(m_db, QStringLiteral("BEGIN IMMEDIATE"));
        m_open = e.isEmpty();
        return e;
    }
    QString commit()
    {
        const QString e = RunStoreSql::execPlain(m_db, QStringLiteral("COMMIT"));
        if (e.isEmpty())
            m_open = false;
        return e;
    }

private:
    QSqlDatabase &m_db;
    bool m_open = false;
};

} // namespace scalelab
