// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreAlerts: the live alerts of running runs (run_alerts), one per run and rule.
#include "core/store/RunStoreAlerts.h"

#include "core/store/RunStoreSql.h"

namespace scalelab {

namespace {

const QString kColumns = QStringLiteral("id, run_id, rule, title, evidence, action, raised_at, notified");

QList<AlertRecord> readAlerts(QSqlQuery &q)
{
    QList<AlertRecord> out;
    while (q.next()) {
        AlertRecord a;
        a.id = q.value(0).toLongLong();
        a.runId = q.value(1).toLongLong();
        a.rule = q.value(2).toString();
        a.title = q.value(3).toString();
        a.evidence = q.value(4).toString();
        a.action = q.value(5).toString();
        a.raisedAt = QDateTime::fromString(q.value(6).toString(), Qt::ISODateWithMs).toUTC();
        a.notified = q.value(7).toInt() != 0;
        out << a;
    }
    return out;
}

}   // namespace

Result<bool> RunStoreAlerts::recordAlert(AlertRecord &alert)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q,
                                   QStringLiteral("INSERT OR IGNORE INTO run_alerts (run_id, rule, title, evidence,"
                                                  " action, raised_at, notified) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                                   {alert.runId, alert.rule, alert.title, alert.evidence, alert.action,
                                    alert.raisedAt.toUTC().toString(Qt::ISODateWithMs), alert.notified ? 1 : 0});
        !e)
        return fail(e.error());
    if (q.numRowsAffected() != 1)
        return false;
    alert.id = q.lastInsertId().toLongLong();
    return true;
}

Result<QList<AlertRecord>> RunStoreAlerts::alerts(const QList<qint64> &runIds)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QStringList ids;
    for (qint64 id : runIds)
        ids << QString::number(id);
    QSqlQuery q(db);
    const QString where = runIds.isEmpty() ? QString() : QStringLiteral(" WHERE run_id IN (%1)").arg(ids.join(u','));
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT %1 FROM run_alerts%2 ORDER BY id").arg(kColumns, where));
        !e)
        return fail(e.error());
    return readAlerts(q);
}

Result<QList<AlertRecord>> RunStoreAlerts::unnotifiedAlerts()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT %1 FROM run_alerts WHERE notified = 0 ORDER BY id").arg(kColumns));
        !e)
        return fail(e.error());
    return readAlerts(q);
}

Result<void> RunStoreAlerts::markAlertsNotified(const QList<qint64> &alertIds)
{
    if (alertIds.isEmpty())
        return success();
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QStringList ids;
    for (qint64 id : alertIds)
        ids << QString::number(id);
    QSqlQuery q(db);
    return RunStoreSql::exec(q,
                             QStringLiteral("UPDATE run_alerts SET notified = 1 WHERE id IN (%1)").arg(ids.join(u',')));
}

}   // namespace scalelab
