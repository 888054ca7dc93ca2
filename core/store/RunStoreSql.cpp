// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreSql: SQLite's failures in plain words and the stored time form (see
// RunStoreSql.h).
#include "core/store/RunStoreSql.h"

#include "core/store/StoreFile.h"
#include "core/store/StoreHealth.h"

#include <QSqlDriver>

#include <sqlite3.h>

namespace scalelab {

namespace {

sqlite3 *handleOf(const QSqlQuery &q)
{
    const QVariant handle = q.driver() ? q.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

}   // namespace

tl::unexpected<Error> RunStoreSql::error(const QString &what, const QSqlQuery &q)
{
    const QSqlError e = q.lastError();
    bool known = false;
    const int code = e.nativeErrorCode().toInt(&known);
    return sqliteError(handleOf(q), known ? code : SQLITE_ERROR, what, e.text());
}

tl::unexpected<Error> RunStoreSql::sqliteError(sqlite3 *db, int code, const QString &what, const QString &message)
{
    const char *name = db ? sqlite3_db_filename(db, "main") : nullptr;
    const QString file = name ? QString::fromUtf8(name) : QString();
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        if (!file.isEmpty())
            return busy(file);
        break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        if (!file.isEmpty()) {
            StoreHealth::markDamaged(file, message);
            return damaged(file, message);
        }
        break;
    default:
        break;
    }
    if (file.isEmpty())
        return error(what, message);
    return error(what, QStringLiteral("%1 (store file %2)").arg(message, file));
}

tl::unexpected<Error> RunStoreSql::busy(const QString &path)
{
    qCWarning(lcStore).noquote() << QStringLiteral("%1 is busy: another writer holds it").arg(path);
    return fail(ErrorCode::StoreBusy,
                QStringLiteral("run store %1 is busy: another ScaleLab (a window or a `scalelab` command) or another "
                               "program is writing to it and did not finish in time. Let it finish or close it, then "
                               "try again.")
                    .arg(path));
}

tl::unexpected<Error> RunStoreSql::damaged(const QString &path, const QString &why)
{
    return fail(ErrorCode::StoreDamaged, StoreFile::damageMessage(path, why));
}

QDateTime RunStoreSql::fromText(std::string_view s)
{
    // "2026-01-01T00:00:00.000Z": exactly what toText() writes.
    const auto digits = [&s](size_t at, size_t n, int &out) {
        out = 0;
        for (size_t i = at; i < at + n; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return false;
            out = out * 10 + (s[i] - '0');
        }
        return true;
    };
    int y, mo, d, h, mi, sec, ms;
    if (s.size() == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.'
        && s[23] == 'Z' && digits(0, 4, y) && digits(5, 2, mo) && digits(8, 2, d) && digits(11, 2, h)
        && digits(14, 2, mi) && digits(17, 2, sec) && digits(20, 3, ms)) {
        const QDate date(y, mo, d);
        const QTime time(h, mi, sec, ms);
        if (date.isValid() && time.isValid())
            return QDateTime(date, time, Qt::UTC);
    }
    // Anything else (older rows, edits by hand) through the general parser.
    return QDateTime::fromString(QString::fromUtf8(s.data(), qsizetype(s.size())), Qt::ISODateWithMs).toUTC();
}

}   // namespace scalelab
