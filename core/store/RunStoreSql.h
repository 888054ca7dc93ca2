// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Logging.h"
#include "core/base/Result.h"
#include "core/store/SqliteCursor.h"
#include "core/store/StoreConnections.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

struct sqlite3;

namespace scalelab {

// The schema's migrations in order (RunStoreMigrations.cpp).
const QList<QStringList> &runStoreMigrations();

// One row's columns as the record readers (RunStoreRuns::readRun,
// RunStoreRecords::readAccounting) take them: from a QSqlQuery,
// or from a SqliteCursor where texts that repeat across rows (`label`) share
// one string. The readers are written once over both.
struct QueryColumns {
    const QSqlQuery &q;
    QString text(int i) const { return q.value(i).toString(); }
    QString label(int i) const { return text(i); }
    QByteArray utf8(int i) const { return text(i).toUtf8(); }
    qint64 integer(int i) const { return q.value(i).toLongLong(); }
    bool isNull(int i) const { return q.value(i).isNull(); }
    QDateTime time(int i) const;
};
struct CursorColumns {
    const SqliteCursor &c;
    TextPool &pool;
    QString text(int i) const { return c.text(i); }
    QString label(int i) const { return c.pooled(i, pool); }
    QByteArray utf8(int i) const   // the stored bytes, not through a QString
    {
        const std::string_view v = c.utf8(i);
        return QByteArray(v.data(), qsizetype(v.size()));
    }
    qint64 integer(int i) const { return c.integer(i); }
    bool isNull(int i) const { return c.isNull(i); }
    QDateTime time(int i) const;
};

// Small SQL helpers shared by the store's query groups (internal): errors in
// plain words, statements with binds, the stored time form.
class RunStoreSql {
public:
    // How long a statement waits for another connection's write lock by default.
    static constexpr int kBusyTimeoutMs = StoreConnections::kBusyTimeoutMs;
    static tl::unexpected<Error> error(const QString &what, const QString &message)
    {
        // `what` is the statement's first words (no bound values).
        qCWarning(lcStore).noquote() << QStringLiteral("%1 failed: %2").arg(what, message);
        return fail(ErrorCode::StoreFailed, QStringLiteral("run store: %1 failed: %2").arg(what, message));
    }
    static tl::unexpected<Error> error(const QString &what, const QSqlError &e) { return error(what, e.text()); }
    // A failed statement of `q`, by SQLite's own code: "busy" names the other
    // writer, "corrupt" and "not a database" mark the file damaged
    // (StoreHealth: no more writes); both say what to do. Others name the file.
    static tl::unexpected<Error> error(const QString &what, const QSqlQuery &q);
    static tl::unexpected<Error> sqliteError(sqlite3 *db, int code, const QString &what, const QString &message);
    // The plain-words errors for the store file `path`.
    static tl::unexpected<Error> busy(const QString &path);
    static tl::unexpected<Error> damaged(const QString &path, const QString &why);
    // Prepares and runs `sql` with positional binds.
    static Result<void> exec(QSqlQuery &q, const QString &sql, const QVariantList &binds = {})
    {
        if (!q.prepare(sql))
            return error(sql.left(60), q);
        for (const QVariant &b : binds) {
            // A null QString would bind as SQL NULL; text columns hold "".
            if (b.typeId() == QMetaType::QString && b.toString().isNull())
                q.addBindValue(QStringLiteral(""));
            else
                q.addBindValue(b);
        }
        if (!q.exec())
            return error(sql.left(60), q);
        return success();
    }
    static Result<void> execPlain(QSqlDatabase &db, const QString &sql)
    {
        QSqlQuery q(db);
        if (!q.exec(sql))
            return error(sql.left(60), q);
        return success();
    }
    // An UPDATE/DELETE by id that matched nothing: the id is unknown.
    static Result<void> oneRowChanged(const QSqlQuery &q, const QString &what, qint64 id)
    {
        if (q.numRowsAffected() == 1)
            return success();
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no %1 with id %2").arg(what).arg(id));
    }

    static QString toText(const QDateTime &t)
    {
        return (t.isValid() ? t : QDateTime::currentDateTimeUtc()).toUTC().toString(Qt::ISODateWithMs);
    }
    // A stored time back to UTC: the form toText() writes without QDateTime's
    // general parser (two per run in the runs table), any other through it.
    static QDateTime fromText(std::string_view utf8);
    static QDateTime fromText(const QVariant &v)
    {
        const QByteArray utf8 = v.toString().toUtf8();
        return fromText(std::string_view(utf8.constData(), size_t(utf8.size())));
    }
};

inline QDateTime QueryColumns::time(int i) const
{
    return RunStoreSql::fromText(q.value(i));
}

inline QDateTime CursorColumns::time(int i) const
{
    return RunStoreSql::fromText(c.utf8(i));
}

}   // namespace scalelab
