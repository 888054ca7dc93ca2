// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/SqliteCursor.h"

#include "core/store/RunStoreSql.h"

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <sqlite3.h>

namespace scalelab {

QString TextPool::get(std::string_view utf8)
{
    if (utf8.size() > kMaxLength)
        return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    if (auto it = m_pool.find(utf8); it != m_pool.end())
        return it->second;
    QString s = QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    if (m_pool.size() < kMaxEntries)
        m_pool.emplace(std::string(utf8), s);
    return s;
}

namespace {

// The handle may only be used with the SQLite library it came from. Debian's
// Qt driver links the system libsqlite3, the one linked here; a Qt built with
// its own copy of SQLite would hand out a handle of another library. Asked
// once per process (one driver plugin): "" when the two are the same build.
QString driverUsesAnotherSqlite(QSqlDatabase &db)
{
    static const QString answer = [&db] {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("SELECT sqlite_source_id()")) || !q.next())
            return QStringLiteral("cannot ask Qt's SQLite driver for its SQLite build: %1").arg(q.lastError().text());
        const QString driver = q.value(0).toString();
        const QString linked = QString::fromUtf8(sqlite3_sourceid());
        if (driver == linked)
            return QString();
        return QStringLiteral("Qt's SQLite driver uses another SQLite build (%1) than ScaleLab (%2); build Qt's "
                              "QSQLITE driver against the system SQLite")
            .arg(driver, linked);
    }();
    return answer;
}

}   // namespace

SqliteCursor::SqliteCursor(sqlite3 *db, sqlite3_stmt *stmt, QString what)
    : m_db(db)
    , m_stmt(stmt)
    , m_what(std::move(what))
{}

SqliteCursor::SqliteCursor(SqliteCursor &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_what(std::move(other.m_what))
{}

SqliteCursor::~SqliteCursor()
{
    sqlite3_finalize(m_stmt);   // a no-op for null
}

Result<SqliteCursor> SqliteCursor::prepare(QSqlDatabase &db, const QByteArray &sql, const QList<qint64> &binds)
{
    const QString what = QString::fromUtf8(sql.left(60));
    // The QSQLITE driver hands out its sqlite3* as a QVariant of that type name.
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return RunStoreSql::error(what, QStringLiteral("the connection is not an SQLite one"));
    sqlite3 *h = *static_cast<sqlite3 *const *>(handle.constData());
    if (!h)
        return RunStoreSql::error(what, QStringLiteral("the connection is closed"));
    if (const QString other = driverUsesAnotherSqlite(db); !other.isEmpty())
        return RunStoreSql::error(what, other);
    sqlite3_stmt *stmt = nullptr;
    if (const int rc = sqlite3_prepare_v2(h, sql.constData(), int(sql.size()), &stmt, nullptr); rc != SQLITE_OK)
        return RunStoreSql::sqliteError(h, rc, what, QString::fromUtf8(sqlite3_errmsg(h)));
    SqliteCursor cursor(h, stmt, what);
    for (int i = 0; i < binds.size(); ++i)
        if (sqlite3_bind_int64(stmt, i + 1, binds[i]) != SQLITE_OK)
            return RunStoreSql::error(what, QString::fromUtf8(sqlite3_errmsg(h)));
    return cursor;
}

Result<bool> SqliteCursor::next()
{
    switch (const int rc = sqlite3_step(m_stmt)) {
    case SQLITE_ROW:
        return true;
    case SQLITE_DONE:
        return false;
    default:
        return RunStoreSql::sqliteError(m_db, rc, m_what, QString::fromUtf8(sqlite3_errmsg(m_db)));
    }
}

bool SqliteCursor::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

qint64 SqliteCursor::integer(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteCursor::real(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::string_view SqliteCursor::utf8(int column) const
{
    // text() before bytes(): the pointer is to the UTF-8 form, and its length is then that form's.
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return p ? std::string_view(p, size_t(sqlite3_column_bytes(m_stmt, column))) : std::string_view();
}

QString SqliteCursor::text(int column) const
{
    const std::string_view s = utf8(column);
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}   // namespace scalelab
