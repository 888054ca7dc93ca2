// SPDX-License-Identifier: GPL-3.0-or-later
// RunStore: the bulk read behind the runs table (see RunTableRecords.h).
#include "core/store/RunStore.h"

#include "core/store/RunStoreSql.h"

namespace scalelab {

Result<RunTableRecords> RunStore::tableRecords(qint64 studyId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    // One read transaction: the four queries see the same snapshot even
    // while a connection worker records new metrics.
    if (!db.transaction())
        return RunStoreSql::error(QStringLiteral("BEGIN"), db.lastError());
    struct Rollback {
        QSqlDatabase &db;
        ~Rollback() { db.rollback(); }
    } rollback{db};

    RunTableRecords out;
    auto studies = this->studies();
    if (!studies.ok())
        return fail(studies.error());
    out.studies = std::move(*studies);

    const bool one = studyId > 0;
    const QVariantList binds = one ? QVariantList{studyId} : QVariantList{};
    const QString runFilter = one ? QStringLiteral(" WHERE study_id = ?") : QString();
    const QString joinFilter = one ? QStringLiteral(" JOIN runs r ON r.id = t.run_id WHERE r.study_id = ?") : QString();

    QSqlQuery q(db);
    q.setForwardOnly(true);
    // Scripts (kilobytes each) only for one study's runs; for every run the
    // column is selected as '' so the reader's column order holds.
    QString columns = QString::fromLatin1(RunStoreSql::runColumns());
    if (!one)
        columns.replace(QLatin1String(" script,"), QLatin1String(" '' AS script,"));
    if (auto e =
            RunStoreSql::exec(q, QStringLiteral("SELECT %1 FROM runs%2 ORDER BY id").arg(columns, runFilter), binds);
        !e)
        return fail(e.error());
    while (q.next())
        out.runs << RunStoreSql::readRun(q);

    if (auto e = RunStoreSql::exec(
            q,
            QStringLiteral("SELECT t.run_id, t.name, t.value, t.unit, t.source, t.file, t.line, t.rule,"
                           " t.formula FROM metrics t%1"
                           " ORDER BY t.run_id, t.name, t.source")
                .arg(joinFilter),
            binds);
        !e)
        return fail(e.error());
    while (q.next()) {
        const qint64 run = q.value(0).toLongLong();
        out.metrics[run] << MetricRecord{run,
                                         q.value(1).toString(),
                                         q.value(2).toDouble(),
                                         q.value(3).toString(),
                                         q.value(4).toString(),
                                         q.value(5).toString(),
                                         q.value(6).toLongLong(),
                                         q.value(7).toString(),
                                         q.value(8).toString()};
    }

    QString accountingColumns = QString::fromLatin1(RunStoreSql::accountingColumns());
    accountingColumns.replace(QLatin1String(", "), QLatin1String(", t."));
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT t.run_id, t.%1 FROM accounting t%2").arg(accountingColumns, joinFilter), binds);
        !e)
        return fail(e.error());
    while (q.next())
        out.accounting.insert(q.value(0).toLongLong(), RunStoreSql::readAccounting(q, 1));

    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT DISTINCT t.run_id FROM files t%1").arg(joinFilter), binds);
        !e)
        return fail(e.error());
    while (q.next())
        out.runsWithFiles.insert(q.value(0).toLongLong());
    return out;
}

}   // namespace scalelab
