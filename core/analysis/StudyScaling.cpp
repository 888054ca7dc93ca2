// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/StudyScaling.h"

#include "core/model/MetricNames.h"

#include <QMap>

#include <algorithm>

namespace scalelab {

namespace {

// The first candidate every row has; else the first any row has.
QString choose(const QList<const RunMetricsRow *> &rows, const QStringList &candidates)
{
    for (const QString &c : candidates) {
        bool all = !rows.isEmpty();
        for (const RunMetricsRow *r : rows)
            all = all && r->value(c).has_value();
        if (all)
            return c;
    }
    for (const QString &c : candidates)
        for (const RunMetricsRow *r : rows)
            if (r->value(c))
                return c;
    return {};
}

}   // namespace

bool StudyScaling::completed(const RunMetricsRow &row)
{
    if (row.accounting)
        return row.accounting->state == JobState::Completed && row.accounting->exitStatus() <= 0;
    return row.run.state == JobState::Completed;
}

int StudyScaling::gpusOf(const RunMetricsRow &row)
{
    if (auto g = row.value(metric::Gpus); g && *g > 0)
        return int(*g);
    return row.run.gpus;
}

StudyScalingInput StudyScaling::input(const QList<RunMetricsRow> &rows)
{
    StudyScalingInput in;
    QList<const RunMetricsRow *> jobs, done;
    for (const RunMetricsRow &r : rows) {
        if (!r.run.hasJob())
            continue;
        jobs << &r;
        if (completed(r))
            done << &r;
    }
    const QList<const RunMetricsRow *> &basis = done.isEmpty() ? jobs : done;
    in.runtimeMetric = choose(basis, {metric::TrainTimeS, metric::ElapsedS});
    in.throughputMetric = choose(basis, {metric::SamplesPerS, metric::Throughput});
    in.accuracyMetric = choose(basis, {metric::TestAccuracy, metric::ValAccuracy});
    in.utilMetric = choose(basis, {metric::GpuUtilMeanPct, metric::SacctGpuUtilPct});
    for (const RunMetricsRow *r : jobs) {
        ScalingRun s;
        s.label = QStringLiteral("job %1").arg(r->run.jobId);
        s.gpus = gpusOf(*r);
        if (!in.runtimeMetric.isEmpty())
            s.runtimeSeconds = r->value(in.runtimeMetric);
        if (!in.throughputMetric.isEmpty())
            s.throughput = r->value(in.throughputMetric);
        if (!in.accuracyMetric.isEmpty())
            s.accuracy = r->value(in.accuracyMetric);
        if (!in.utilMetric.isEmpty())
            s.meanGpuUtilPercent = r->value(in.utilMetric);
        s.gpuHours = r->value(metric::GpuHours);
        s.failed = !completed(*r);
        s.state = r->accounting ? r->accounting->stateText : SlurmJobState::id(r->run.state);
        if (r->accounting) {
            s.start = r->accounting->start;
            s.end = r->accounting->end;
            if (!r->accounting->nodeList.isEmpty())
                s.nodes << r->accounting->nodeList;
        }
        in.runs << s;
        in.runIds << r->run.id;
    }
    return in;
}

QList<MetricAtGpus> StudyScaling::summarize(const QList<RunMetricsRow> &rows, const QString &metric)
{
    QMap<int, QList<std::pair<double, qint64>>> by;
    if (metric.isEmpty())
        return {};
    for (const RunMetricsRow &r : rows)
        if (r.run.hasJob() && completed(r) && gpusOf(r) > 0)
            if (const auto v = r.value(metric))
                by[gpusOf(r)].append({*v, r.run.id});
    QList<MetricAtGpus> out;
    for (auto it = by.begin(); it != by.end(); ++it) {
        auto values = *it;
        std::sort(values.begin(), values.end());
        MetricAtGpus m;
        m.gpus = it.key();
        m.runs = int(values.size());
        const qsizetype n = values.size();
        m.median = n % 2 ? values[n / 2].first : (values[n / 2 - 1].first + values[n / 2].first) / 2.0;
        m.min = values.front().first;
        m.max = values.back().first;
        for (const auto &v : values)
            m.runIds << v.second;
        out << m;
    }
    return out;
}

QList<IncompleteValue> StudyScaling::incomplete(const QList<RunMetricsRow> &rows, const QString &metric)
{
    QList<IncompleteValue> out;
    if (metric.isEmpty())
        return out;
    for (const RunMetricsRow &r : rows)
        if (r.run.hasJob() && !completed(r))
            if (const auto v = r.value(metric))
                out << IncompleteValue{r.run.id, r.run.jobId, gpusOf(r), *v,
                                       r.accounting ? r.accounting->stateText : r.stateText()};
    return out;
}

ScalingAnalysis StudyScaling::analyze(const StudyScalingInput &in, double threshold)
{
    return ScalingAnalysis::analyze(in.runs, threshold);
}

}   // namespace scalelab
