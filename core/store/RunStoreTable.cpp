// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreTable: the bulk read behind the runs table (see RunTableRecords.h).
// Read through SqliteCursor, with repeated texts pooled: for 100,000 runs
// QSqlQuery's QVariant per value was most of the reload.
#include "core/store/RunStoreTable.h"

#include "core/store/RunStoreReadSnapshot.h"
#include "core/store/RunStoreRecords.h"
#include "core/store/RunStoreRuns.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreStudies.h"

namespace scalelab {

namespace {

// " IN (1,2,3)" for the runs asked for. The ids are numbers written by this
// code, never text from outside.
QByteArray idList(const QList<qint64> &runIds)
{
    QByteArray out = " IN (";
    for (qsizetype i = 0; i < runIds.size(); ++i)
        out += (i > 0 ? "," : "") + QByteArray::number(runIds[i]);
    return out + ')';
}

// Every metric of the runs read, by run (rows come ordered by run id).
Result<void> readTableMetrics(QSqlDatabase &db, const QByteArray &joinFilter, const QList<qint64> &binds,
                              TextPool &pool, RunTableRecords &out)
{
    auto metrics = SqliteCursor::prepare(db,
                                         "SELECT t.run_id, t.name, t.value, t.unit, t.source, t.file, t.line, t.rule,"
                                         " t.formula FROM metrics t"
                                             + joinFilter + " ORDER BY t.run_id, t.name, t.source",
                                         binds);
    if (!metrics)
        return fail(metrics.error());
    out.metrics.reserve(out.runs.size());
    QList<MetricRecord> *runMetrics = nullptr;
    qint64 lastRun = 0;
    return metrics->eachRow([&](const SqliteCursor &m) {
        const qint64 run = m.integer(0);
        if (!runMetrics || run != lastRun) {   // rows come by run: one hash lookup per run
            // Runs mostly have as many metrics as the one before: one allocation, not four.
            const qsizetype previous = runMetrics ? runMetrics->size() : 0;
            runMetrics = &out.metrics[run];
            runMetrics->reserve(previous);
            lastRun = run;
        }
        runMetrics->append(MetricRecord{run, m.pooled(1, pool), m.real(2), m.pooled(3, pool), m.pooled(4, pool),
                                        m.pooled(5, pool), m.integer(6), m.pooled(7, pool), m.pooled(8, pool)});
    });
}

}   // namespace

Result<RunTableRecords> RunStoreTable::tableRecords(qint64 studyId, const QList<qint64> &runIds)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreReadSnapshot snapshot(db);
    if (auto e = snapshot.begin(); !e)
        return fail(e.error());

    RunTableRecords out;
    auto studies = RunStoreStudies(connections()).studies();
    if (!studies.ok())
        return fail(studies.error());
    out.studies = std::move(*studies);

    const bool one = studyId > 0;
    const QList<qint64> binds = one ? QList<qint64>{studyId} : QList<qint64>{};
    QByteArray runFilter = one ? " WHERE study_id = ?" : "";
    QByteArray joinFilter = one ? " JOIN runs r ON r.id = t.run_id WHERE r.study_id = ?" : "";
    if (!runIds.isEmpty()) {   // a patch of a few runs
        runFilter += (one ? " AND id" : " WHERE id") + idList(runIds);
        joinFilter += (one ? " AND t.run_id" : " WHERE t.run_id") + idList(runIds);
    }
    TextPool pool;   // shared by the four reads: runs and accounting name the same partitions

    // Scripts (kilobytes each) only for one study's runs; for every run the
    // column is selected as '' so the reader's column order holds.
    QByteArray columns = RunStoreRuns::runColumns();
    if (!one)
        columns.replace(" script,", " '' AS script,");
    auto runs = SqliteCursor::prepare(db, "SELECT " + columns + " FROM runs" + runFilter + " ORDER BY id", binds);
    if (!runs)
        return fail(runs.error());
    if (auto e = runs->eachRow([&](const SqliteCursor &c) {
            out.runs << RunStoreRuns::readRun(CursorColumns{c, pool});
        });
        !e)
        return fail(e.error());

    if (auto e = readTableMetrics(db, joinFilter, binds, pool, out); !e)
        return fail(e.error());

    QByteArray accountingColumns = RunStoreRecords::accountingColumns();
    accountingColumns.replace(", ", ", t.");
    auto accounting =
        SqliteCursor::prepare(db, "SELECT t.run_id, t." + accountingColumns + " FROM accounting t" + joinFilter, binds);
    if (!accounting)
        return fail(accounting.error());
    out.accounting.reserve(out.runs.size());   // most finished runs have accounting: no rehash
    if (auto e = accounting->eachRow([&](const SqliteCursor &c) {
            // Moved in, not copied: a record is some thirty strings and lists.
            out.accounting.emplace(c.integer(0), RunStoreRecords::readAccounting(CursorColumns{c, pool}, 1));
        });
        !e)
        return fail(e.error());
    return out;
}

}   // namespace scalelab
