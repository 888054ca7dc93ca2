// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/StudyScaling.h"

#include "core/model/MetricNames.h"

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

} // namespace

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
        if (!in.runtimeMetric.isEmpty()) s.runtimeSeconds = r->value(in.runtimeMetric);
        if (!in.throughputMetric.isEmpty()) s.throughput = r->value(in.throughputMetric);
        if (!in.accuracyMetric.isEmpty()) s.accuracy = r->value(in.accuracyMetric);
        if (!in.utilMetric.isEmpty()) s.meanGpuUtilPercent = r->value(in.utilMetric);
        s.gpuHours = r->value(metric::GpuHours);
        s.failed = !completed(*r);
        s.state = r->accounting ? r->accounting->stateText : SlurmJobState::id(r->run.state);
        in.runs << s;
        in.runIds << r->run.id;
    }
    return in;
}

ScalingAnalysis StudyScaling::analyze(const StudyScalingInput &in, double threshold)
{
    return ScalingAnalysis::analyze(in.runs, threshold);
}

} // namespace scalelab
