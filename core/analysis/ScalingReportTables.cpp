// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ScalingReportTables.h"

#include "core/model/MetricNames.h"

#include <algorithm>

namespace scalelab {

namespace {

int failedAt(const StudyScalingInput &input, int gpus)
{
    int n = 0;
    for (const ScalingRun &r : input.runs)
        n += r.gpus == gpus && r.failed;
    return n;
}

QString medianOf(const QString &metric)
{
    return metric.isEmpty() ? QStringLiteral("none") : metric + QStringLiteral(" median");
}

// table: the strong-scaling columns (header, unit, suffix, what each is based on)
QList<ReportColumn> scalingColumns(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    const bool rt = analysis.basis() == ScalingBasis::Runtime;
    const QString basis = (rt ? input.runtimeMetric : input.throughputMetric);
    const QString b = basis.isEmpty() ? QStringLiteral("–") : basis;
    const int base = analysis.baselineGpus();
    return {
        {QStringLiteral("GPUs"), {}, {}, {}, 0},
        {QStringLiteral("Runs used"), {}, {}, QStringLiteral("completed runs"), 0},
        {QStringLiteral("Runtime"), QStringLiteral("s"), {}, medianOf(input.runtimeMetric), 0},
        {QStringLiteral("Speedup"),
         {},
         QStringLiteral("×"),
         rt ? QStringLiteral("%1 on %2 GPU ÷ %1").arg(b).arg(base)
            : QStringLiteral("%1 ÷ %1 on %2 GPU").arg(b).arg(base),
         2},
        {QStringLiteral("Efficiency"), {}, QStringLiteral(" %"), QStringLiteral("speedup × %1 ÷ GPUs").arg(base), 1},
        {QStringLiteral("Throughput"), QStringLiteral("samples/s"), {}, medianOf(input.throughputMetric), 0},
        {QStringLiteral("Accuracy"), {}, {}, medianOf(input.accuracyMetric), 0},
        {QStringLiteral("GPU-hours"), {}, {}, QStringLiteral("gpu_hours median"), 0},
    };
}

ReportRow measuredRow(const ScalingPoint &p, const StudyScalingInput &input)
{
    const int failed = failedAt(input, p.gpus);
    const bool ranged = p.runs > 1 && p.speedupMin != p.speedupMax;
    ReportCell speedup = ReportCell::number(p.speedup);
    if (ranged) {
        speedup.low = p.speedupMin;
        speedup.high = p.speedupMax;
    }
    return {{ReportCell::number(p.gpus),
             ReportCell::number(p.runs, failed ? QStringLiteral("(+%1†)").arg(failed) : QString()),
             ReportCell::ranged(p.runtimeSeconds, p.runtimeMin, p.runtimeMax), speedup,
             ReportCell::number(p.efficiency * 100.0),
             ReportCell::ranged(p.throughput, p.throughputMin, p.throughputMax), ReportCell::number(p.accuracy),
             ReportCell::number(p.gpuHours)},
            {}};
}

// GPU counts where no run completed: named, never given numbers.
QList<ReportRow> unmeasuredRows(const ScalingAnalysis &analysis, const StudyScalingInput &input)
{
    QList<int> only;
    for (const ScalingRun &r : input.runs) {
        bool measured = false;
        for (const ScalingPoint &p : analysis.points())
            measured = measured || p.gpus == r.gpus;
        if (!measured && r.gpus > 0 && !only.contains(r.gpus))
            only << r.gpus;
    }
    QList<ReportRow> rows;
    for (int g : only)
        rows << ReportRow{
            {ReportCell::number(g), ReportCell::number(0, QStringLiteral("(+%1†)").arg(failedAt(input, g)))},
            QStringLiteral("no completed run: not measured")};
    for (const ScalingPoint &p : analysis.predictions())
        rows << ReportRow{{ReportCell::number(p.gpus), ReportCell::number(0), ReportCell::number(p.runtimeSeconds),
                           ReportCell::number(p.speedup), ReportCell::number(p.efficiency * 100.0)},
                          QStringLiteral("Amdahl estimate: not measured")};
    return rows;
}

std::optional<double> valueOf(const RunMetricsRow &r, const QString &metric)
{
    return metric.isEmpty() ? std::nullopt : r.value(metric);
}

}   // namespace

ReportTable ScalingReportTables::strongScaling(const StudyChartData &data)
{
    const ScalingAnalysis &analysis = data.analysis();
    const StudyScalingInput &input = data.input();
    ReportTable t;
    t.id = QStringLiteral("strong-scaling");
    t.title = QStringLiteral("Strong scaling");
    t.columns = scalingColumns(analysis, input);
    for (const ScalingPoint &p : analysis.points())
        t.rows << measuredRow(p, input);
    t.rows << unmeasuredRows(analysis, input);
    t.fitDecimals(2, 3);   // runtime
    t.fitDecimals(5, 3);   // throughput
    t.fitDecimals(6, 4);   // accuracy
    t.fitDecimals(7, 3);   // GPU-hours
    t.notes << QStringLiteral("Values are medians of the completed runs at each GPU count, with the min–max range of "
                              "repeats in brackets; the italic row names the metric each column is based on. Runs "
                              "that did not complete (†) are never used.");
    return t;
}

ReportTable ScalingReportTables::runs(const QList<RunMetricsRow> &rows, const StudyScalingInput &input)
{
    ReportTable t;
    t.id = QStringLiteral("runs");
    t.title = QStringLiteral("Runs");
    auto named = [](const QString &metric, const QString &fallback) { return metric.isEmpty() ? fallback : metric; };
    t.columns = {{QStringLiteral("Run")},
                 {QStringLiteral("Job")},
                 {QStringLiteral("GPUs")},
                 {QStringLiteral("State")},
                 {named(input.runtimeMetric, QStringLiteral("Runtime"))},
                 {named(input.throughputMetric, QStringLiteral("Throughput"))},
                 {named(input.accuracyMetric, QStringLiteral("Accuracy"))}};
    for (const RunMetricsRow &r : rows) {
        // "CANCELLED by 1001": the state word is what matters in a narrow cell.
        const QString state = r.accounting ? r.accounting->stateText : r.stateText();
        t.rows << ReportRow{{ReportCell::number(r.run.id),
                             ReportCell::words(r.run.jobId.isEmpty() ? QStringLiteral("–") : r.run.jobId),
                             ReportCell::number(StudyScaling::gpusOf(r)),
                             ReportCell::words(state.section(u' ', 0, 0)
                                               + (StudyScaling::completed(r) ? QString() : QStringLiteral(" †"))),
                             ReportCell::number(valueOf(r, input.runtimeMetric)),
                             ReportCell::number(valueOf(r, input.throughputMetric)),
                             ReportCell::number(valueOf(r, input.accuracyMetric))},
                            {}};
    }
    t.fitDecimals(4, 3);
    t.fitDecimals(5, 3);
    t.fitDecimals(6, 4);
    // Said only where a run carries the mark.
    if (std::any_of(rows.begin(), rows.end(), [](const RunMetricsRow &r) { return !StudyScaling::completed(r); }))
        t.notes << QStringLiteral("† did not complete: left out of the analysis and drawn hollow in the charts.");
    return t;
}

ReportTable ScalingReportTables::resources(const QList<RunMetricsRow> &rows, const StudyScalingInput &input)
{
    ReportTable t;
    t.id = QStringLiteral("resources");
    t.title = QStringLiteral("Resources per run");
    t.columns = {{QStringLiteral("Run")},
                 {QStringLiteral("Nodes")},
                 {QStringLiteral("GPU util"), {}, QStringLiteral(" %")},
                 {QStringLiteral("GPU-hours")},
                 {QStringLiteral("Billing hours")},
                 {QStringLiteral("CPU efficiency"), {}, QStringLiteral(" %"), {}, 1}};
    // Energy columns only when some run has one (a site or sampler that measured it).
    const auto any = [&rows](const QString &name) {
        return std::any_of(rows.begin(), rows.end(), [&name](const RunMetricsRow &r) { return r.value(name); });
    };
    QStringList energy;
    if (any(metric::EnergyWh)) {
        t.columns << ReportColumn{QStringLiteral("Energy"), QStringLiteral("Wh")};
        energy << metric::EnergyWh;
    }
    if (any(metric::EnergyJPerSample)) {
        t.columns << ReportColumn{QStringLiteral("Energy per sample"), QStringLiteral("J")};
        energy << metric::EnergyJPerSample;
    }
    for (const RunMetricsRow &r : rows) {
        const bool noSamples = r.value(metric::GpuSamples).value_or(-1) == 0;
        const auto util = valueOf(r, input.utilMetric);
        const auto eff = r.value(metric::CpuEfficiency);
        ReportRow row{
            {ReportCell::number(r.run.id), ReportCell::number(r.run.nodes),
             util ? ReportCell::number(util) : ReportCell::words(noSamples ? QStringLiteral("no samples") : QString()),
             ReportCell::number(r.value(metric::GpuHours)), ReportCell::number(r.value(metric::BillingHours)),
             ReportCell::number(eff ? std::optional<double>(*eff * 100.0) : std::nullopt)},
            {}};
        for (const QString &name : std::as_const(energy))
            row.cells << ReportCell::number(r.value(name));
        t.rows << row;
    }
    t.fitDecimals(2, 3, 1);
    t.fitDecimals(3, 3);
    t.fitDecimals(4, 3);
    for (int c = 6; c < int(t.columns.size()); ++c)
        t.fitDecimals(c, 3);
    return t;
}

}   // namespace scalelab
