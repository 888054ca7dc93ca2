// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Logging.h"
#include "core/base/Result.h"
#include "core/model/RunRecord.h"
#include "core/slurm/SacctRecord.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace scalelab {

// The schema's migrations in order (RunStoreMigrations.cpp).
const QList<QStringList> &runStoreMigrations();

// Small SQL helpers shared by the RunStore translation units (internal).
class RunStoreSql {
public:
    static tl::unexpected<Error> error(const QString &what, const QSqlError &e)
    {
        // `what` is the statement's first words (no bound values).
        qCWarning(lcStore).noquote() << QStringLiteral("%1 failed: %2").arg(what, e.text());
        return fail(ErrorCode::StoreFailed, QStringLiteral("run store: %1 failed: %2").arg(what, e.text()));
    }
    // Prepares and runs `sql` with positional binds.
    static Result<void> exec(QSqlQuery &q, const QString &sql, const QVariantList &binds = {})
    {
        if (!q.prepare(sql))
            return error(sql.left(60), q.lastError());
        for (const QVariant &b : binds) {
            // A null QString would bind as SQL NULL; text columns hold "".
            if (b.typeId() == QMetaType::QString && b.toString().isNull())
                q.addBindValue(QStringLiteral(""));
            else
                q.addBindValue(b);
        }
        if (!q.exec())
            return error(sql.left(60), q.lastError());
        return success();
    }
    static Result<void> execPlain(QSqlDatabase &db, const QString &sql)
    {
        QSqlQuery q(db);
        if (!q.exec(sql))
            return error(sql.left(60), q.lastError());
        return success();
    }
    // The runs and accounting tables' columns in the order the readers expect.
    static const char *runColumns();
    static RunRecord readRun(const QSqlQuery &q);
    static const char *accountingColumns();
    static SacctRecord readAccounting(const QSqlQuery &q, int first);

    static QString toText(const QDateTime &t)
    {
        return (t.isValid() ? t : QDateTime::currentDateTimeUtc()).toUTC().toString(Qt::ISODateWithMs);
    }
    static QDateTime fromText(const QVariant &v)
    {
        return QDateTime::fromString(v.toString(), Qt::ISODateWithMs).toUTC();
    }
};

}   // namespace scalelab
