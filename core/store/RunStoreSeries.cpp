// SPDX-License-Identifier: GPL-3.0-or-later
// RunStore: metric series (values over steps/epochs) for the per-epoch curves.
// Stored as two little-endian double arrays per (run, metric): one row per
// series keeps re-ingest a single replace and a run's curves one read.
#include "core/store/RunStore.h"

#include "core/store/RunStoreSql.h"

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

}   // namespace

Result<void> RunStore::setSeries(const MetricSeries &s)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    if (s.name.isEmpty())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: a series needs a name"));
    if (s.steps.size() != s.values.size())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: series %1 has %2 steps for %3 values")
                                                 .arg(s.name)
                                                 .arg(s.steps.size())
                                                 .arg(s.values.size()));
    QSqlQuery q(db);
    return RunStoreSql::exec(
        q,
        QStringLiteral("INSERT OR REPLACE INTO metric_series (run_id, name, unit, steps, vals) VALUES (?, ?, ?, ?, ?)"),
        {s.runId, s.name, s.unit, pack(s.steps), pack(s.values)});
}

Result<QList<MetricSeries>> RunStore::series(qint64 runId)
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
