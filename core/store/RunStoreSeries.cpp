// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreSeries: writing metrics, and metric series (values over steps/epochs)
// for the per-epoch curves. A series is stored as two little-endian double
// arrays per (run, metric): one row per series keeps a run's curves one read.
// An ingest replaces all of a run's metrics and series in one transaction
// (replaceRunMetrics).
#include "core/store/RunStoreSeries.h"

#include "core/store/RunStoreRuns.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreTransaction.h"

#include <QtEndian>

#include <cstring>

namespace scalelab {

namespace {

QByteArray pack(const QVector<double> &v)
{
    QByteArray b(v.size() * qsizetype(sizeof(double)), Qt::Uninitialized);
    for (qsizetype i = 0; i < v.size(); ++i) {
        quint64 bits;
        std::memcpy(&bits, &v[i], sizeof bits);
        qToLittleEndian(bits, b.data() + i * qsizetype(sizeof(double)));
    }
    return b;
}

QVector<double> unpack(const QByteArray &b)
{
    QVector<double> v(b.size() / qsizetype(sizeof(double)));
    for (qsizetype i = 0; i < v.size(); ++i) {
        const quint64 bits = qFromLittleEndian<quint64>(b.constData() + i * qsizetype(sizeof(double)));
        std::memcpy(&v[i], &bits, sizeof bits);
    }
    return v;
}

Result<void> checkMetric(const MetricRecord &m)
{
    if (m.name.isEmpty())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: a metric needs a name"));
    return success();
}

Result<void> checkSeries(const MetricSeries &s)
{
    if (s.name.isEmpty())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: a series needs a name"));
    if (s.steps.size() != s.values.size())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: series %1 has %2 steps for %3 values")
                                                 .arg(s.name)
                                                 .arg(s.steps.size())
                                                 .arg(s.values.size()));
    return success();
}

// Every record of a replacement belongs to the run replaced and is whole.
Result<void> checkReplacement(qint64 runId, const QList<MetricRecord> &metrics, const QList<MetricSeries> &series)
{
    auto otherRun = [runId](qint64 id, const QString &name) {
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("run store: %1 of run %2 given to replace the metrics of run %3")
                        .arg(name)
                        .arg(id)
                        .arg(runId));
    };
    for (const MetricRecord &m : metrics) {
        if (auto e = checkMetric(m); !e)
            return e;
        if (m.runId != runId)
            return otherRun(m.runId, m.name);
    }
    for (const MetricSeries &s : series) {
        if (auto e = checkSeries(s); !e)
            return e;
        if (s.runId != runId)
            return otherRun(s.runId, s.name);
    }
    return success();
}

Result<void> insertMetric(QSqlDatabase &db, const MetricRecord &m)
{
    QSqlQuery q(db);
    return RunStoreSql::exec(
        q,
        QStringLiteral("INSERT OR REPLACE INTO metrics (run_id, name, value, unit, source, file, line, rule, formula)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {m.runId, m.name, m.value, m.unit, m.source, m.file, m.line, m.rule, m.formula});
}

Result<void> insertSeries(QSqlDatabase &db, const MetricSeries &s)
{
    QSqlQuery q(db);
    return RunStoreSql::exec(
        q,
        QStringLiteral("INSERT OR REPLACE INTO metric_series (run_id, name, unit, steps, vals) VALUES (?, ?, ?, ?, ?)"),
        {s.runId, s.name, s.unit, pack(s.steps), pack(s.values)});
}

}   // namespace

Result<void> RunStoreSeries::setMetric(const MetricRecord &m)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    if (auto e = checkMetric(m); !e)
        return e;
    return insertMetric(db, m);
}

Result<void> RunStoreSeries::setSeries(const MetricSeries &s)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    if (auto e = checkSeries(s); !e)
        return e;
    return insertSeries(db, s);
}

Result<void> RunStoreSeries::replaceRunMetrics(qint64 runId, const QList<MetricRecord> &metrics,
                                               const QList<MetricSeries> &series)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    if (auto e = checkReplacement(runId, metrics, series); !e)
        return e;
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return e;
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT 1 FROM runs WHERE id = ?"), {runId}); !e)
        return e;
    if (!q.next())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(runId));
    q.finish();
    for (const char *table : {"metrics", "metric_series"}) {
        QSqlQuery d(db);
        if (auto e = RunStoreSql::exec(d, QStringLiteral("DELETE FROM %1 WHERE run_id = ?").arg(QLatin1String(table)),
                                       {runId});
            !e)
            return e;
    }
    for (const MetricRecord &m : metrics)
        if (auto e = insertMetric(db, m); !e)
            return e;   // rolled back: the previous metrics stay
    for (const MetricSeries &s : series)
        if (auto e = insertSeries(db, s); !e)
            return e;
    return tx.commit();
}

Result<QList<RunRecord>> RunStoreSeries::runsAwaitingIngest(const QString &clusterAlias)
{
    auto candidates =
        RunStoreRuns(connections())
            .selectRuns(QStringLiteral("WHERE (? = '' OR cluster_alias = ?) AND job_id <> ''"
                                       " AND NOT EXISTS (SELECT 1 FROM metrics m WHERE m.run_id = runs.id)"
                                       " AND (EXISTS (SELECT 1 FROM accounting a WHERE a.run_id = runs.id)"
                                       " OR EXISTS (SELECT 1 FROM files f WHERE f.run_id = runs.id))"),
                        {clusterAlias, clusterAlias});
    if (!candidates)
        return candidates;
    // A running run has files too (its output tail): only finished ones are due.
    candidates->removeIf([](const RunRecord &r) { return !r.isTerminal(); });
    return candidates;
}

Result<QList<MetricSeries>> RunStoreSeries::series(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT name, unit, steps, vals FROM metric_series WHERE run_id = ? ORDER BY name"),
            {runId});
        !e)
        return fail(e.error());
    QList<MetricSeries> out;
    while (q.next())
        out << MetricSeries{runId, q.value(0).toString(), q.value(1).toString(), unpack(q.value(2).toByteArray()),
                            unpack(q.value(3).toByteArray())};
    return out;
}

}   // namespace scalelab
