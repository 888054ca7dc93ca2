// SPDX-License-Identifier: GPL-3.0-or-later
// StudyChartData: the points, lines and axis ranges of a study's six charts.
// Reference lines start from the baseline point of ScalingAnalysis (the median
// of the smallest GPU count); the Amdahl curve and predictions exist only when
// ScalingAnalysis fitted one (3 or more distinct GPU counts).
#include "core/analysis/StudyChartData.h"

#include "core/model/MetricNames.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>

namespace scalelab {

namespace {

// What every chart of one study starts from.
struct Basis {
    const QList<RunMetricsRow> &rows;
    const StudyScalingInput &input;
    const ScalingAnalysis &analysis;
    double threshold;
    const ScalingPoint *base;   // the smallest measured GPU count, or null
};

// The GPU counts of runs with a job (and of the predictions on the speedup and
// efficiency charts), sorted: the ticks of the x axis.
QList<int> gpuCounts(const Basis &b, bool withPredictions)
{
    QSet<int> counts;
    for (const RunMetricsRow &r : b.rows)
        if (r.run.hasJob() && StudyScaling::gpusOf(r) > 0)
            counts.insert(StudyScaling::gpusOf(r));
    if (withPredictions)
        for (const ScalingPoint &p : b.analysis.predictions())
            counts.insert(p.gpus);
    QList<int> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

// 48 geometric samples from lo to hi (smooth on the log-2 GPU axis) of f.
QList<ChartPoint> curve(double lo, double hi, const std::function<double(double)> &f)
{
    constexpr int n = 48;
    QList<ChartPoint> out;
    for (int i = 0; i < n; ++i) {
        const double x = lo * std::pow(hi / lo, double(i) / double(n - 1));
        out << ChartPoint{x, f(x)};
    }
    return out;
}

QList<ChartPoint> measuredOf(const QList<RunMetricsRow> &rows, const QString &metric)
{
    QList<ChartPoint> out;
    for (const MetricAtGpus &m : StudyScaling::summarize(rows, metric))
        out << ChartPoint{double(m.gpus), m.median, m.min, m.max, m.runs, m.runIds};
    return out;
}

QList<ChartPoint> incompleteOf(const QList<RunMetricsRow> &rows, const QString &metric)
{
    QList<ChartPoint> out;
    for (const IncompleteValue &v : StudyScaling::incomplete(rows, metric))
        out << ChartPoint{double(v.gpus), v.value, v.value, v.value, 0, {v.runId}, v.jobId, v.state};
    return out;
}

// Speedup or efficiency of the measured points, with the range of the repeats.
QList<ChartPoint> scalingOf(const ScalingAnalysis &a, bool speedup)
{
    QList<ChartPoint> out;
    const QList<ScalingPoint> &pts = a.points();
    for (const ScalingPoint &p : pts) {
        const double scale = speedup ? 1.0 : double(pts.first().gpus) / p.gpus;
        out << ChartPoint{double(p.gpus), speedup ? p.speedup : p.efficiency, p.speedupMin * scale,
                          p.speedupMax * scale, p.runs};
    }
    return out;
}

// A measured chart of one stored metric: points, incomplete runs, GPU axis.
StudyChartPanel metricPanel(const Basis &b, StudyChart chart, const QString &metric)
{
    StudyChartPanel p;
    p.chart = chart;
    p.metric = metric;
    p.measured = measuredOf(b.rows, metric);
    p.incomplete = incompleteOf(b.rows, metric);
    p.empty = p.measured.isEmpty() && p.incomplete.isEmpty();
    p.x.ticks = gpuCounts(b, false);
    return p;
}

double lowestCount(const StudyChartPanel &p)
{
    return p.x.ticks.isEmpty() ? 1 : p.x.ticks.first();
}

double highestCount(const StudyChartPanel &p)
{
    const double lo = lowestCount(p);
    return p.x.ticks.isEmpty() ? 8 : std::max<double>(p.x.ticks.last(), lo * 2);
}

StudyChartPanel runtimePanel(const Basis &b)
{
    StudyChartPanel p = metricPanel(b, StudyChart::Runtime, b.input.runtimeMetric);
    if (b.base && b.base->runtimeSeconds) {
        const double t = *b.base->runtimeSeconds * double(b.base->gpus);
        p.ideal = curve(lowestCount(p), highestCount(p), [t](double n) { return t / n; });
    }
    return p;
}

StudyChartPanel throughputPanel(const Basis &b)
{
    StudyChartPanel p = metricPanel(b, StudyChart::Throughput, b.input.throughputMetric);
    if (b.base && b.base->throughput) {
        const double perGpu = *b.base->throughput / double(b.base->gpus);
        p.ideal = curve(lowestCount(p), highestCount(p), [perGpu](double n) { return perGpu * n; });
    }
    return p;
}

StudyChartPanel costPanel(const Basis &b)
{
    StudyChartPanel p = metricPanel(b, StudyChart::Cost, metric::GpuHours);
    p.billing = measuredOf(b.rows, metric::BillingHours);
    p.empty = p.empty && p.billing.isEmpty();
    return p;
}

// Speedup or efficiency: the measured points against the baseline, the ideal
// line (speedup) or the threshold (efficiency), the Amdahl curve and predictions.
StudyChartPanel scalingPanel(const Basis &b, StudyChart chart)
{
    const bool speedup = chart == StudyChart::Speedup;
    StudyChartPanel p;
    p.chart = chart;
    p.metric = b.analysis.basis() == ScalingBasis::Runtime ? b.input.runtimeMetric : b.input.throughputMetric;
    p.baselineGpus = b.analysis.baselineGpus();
    p.measured = scalingOf(b.analysis, speedup);
    for (const ScalingPoint &pr : b.analysis.predictions())
        p.predicted << ChartPoint{double(pr.gpus), speedup ? pr.speedup : pr.efficiency};
    p.empty = p.measured.isEmpty();
    p.x.ticks = gpuCounts(b, true);
    const double lo = lowestCount(p), hi = highestCount(p);
    const double base = b.base ? b.base->gpus : lo;
    if (p.empty) {
        // No reference lines without a measured point to compare them with.
    } else if (speedup) {
        p.ideal = curve(lo, hi, [base](double n) { return n / base; });
    } else {
        p.threshold = {ChartPoint{lo / 1.3, b.threshold}, ChartPoint{hi * 1.3, b.threshold}};
    }
    if (const auto &fit = b.analysis.amdahl(); fit && fit->points >= kMinFitPoints && b.base) {
        const double s = fit->serialFraction;
        auto rel = [s](double n) { return s + (1.0 - s) / n; };
        p.serialFraction = s;
        p.amdahl = curve(lo, hi, [&](double n) {
            const double sp = rel(base) / rel(n);
            return speedup ? sp : sp / (n / base);
        });
    }
    return p;
}

// The range of every value drawn against one value axis (ranges of repeats included).
std::optional<std::pair<double, double>> valueSpan(const QList<const QList<ChartPoint> *> &lists, bool ranges)
{
    std::optional<std::pair<double, double>> r;
    auto add = [&r](double v) {
        if (std::isnan(v))
            return;
        r = r ? std::pair{std::min(r->first, v), std::max(r->second, v)} : std::pair{v, v};
    };
    for (const QList<ChartPoint> *list : lists)
        for (const ChartPoint &pt : *list) {
            add(pt.value);
            if (ranges) {
                add(pt.low);
                add(pt.high);
            }
        }
    return r;
}

// From zero (ratios and times read honestly) to a little above the data.
ChartAxis valueAxis(const std::optional<std::pair<double, double>> &span, bool includeZero)
{
    double lower = span ? span->first : 0, upper = span ? span->second : 1;
    if (includeZero)
        lower = std::min(0.0, lower);
    const double pad = std::max((upper - lower) * 0.08, 1e-9);
    return ChartAxis{lower, upper + pad, {}};
}

// Accuracy shows at least a tenth of its scale (0.1 of a fraction, 10 points
// of a percentage): a difference of 1/360 must not look like a collapse.
ChartAxis accuracyAxis(const ChartAxis &fitted)
{
    const bool fraction = fitted.upper <= 1.2;   // data up to 1 plus the 8 % headroom
    const double top = fraction ? 1.0 : 100.0, minSpan = top / 10.0;
    double lo = fitted.lower - (fitted.upper - fitted.lower) * 0.08, hi = fitted.upper;
    if (hi - lo < minSpan) {
        const double mid = (hi + lo) / 2.0;
        lo = mid - minSpan / 2.0;
        hi = mid + minSpan / 2.0;
        if (hi > top) {
            lo -= hi - top;
            hi = top;
        }
        if (lo < 0) {
            hi -= lo;
            lo = 0;
        }
    }
    return ChartAxis{std::max(lo, 0.0), std::min(hi, top), {}};   // never beyond 0..1 (or 0..100 %)
}

void fitAxes(StudyChartPanel &p)
{
    p.x.lower = lowestCount(p) / 1.4;
    p.x.upper = highestCount(p) * 1.4;
    const bool accuracy = p.chart == StudyChart::Accuracy;
    const auto span =
        valueSpan({&p.ideal, &p.amdahl, &p.threshold, &p.predicted, &p.measured, &p.incomplete}, p.repeats());
    p.y = valueAxis(span, !accuracy);
    if (accuracy)
        p.y = accuracyAxis(p.y);
    if (!p.billing.isEmpty()) {
        const bool billingRanges =
            std::any_of(p.billing.begin(), p.billing.end(), [](const ChartPoint &b) { return b.runs > 1; });
        p.y2 = valueAxis(valueSpan({&p.billing}, billingRanges), true);
    }
}

}   // namespace

bool StudyChartPanel::repeats() const
{
    return std::any_of(measured.begin(), measured.end(), [](const ChartPoint &p) { return p.runs > 1; });
}

QList<StudyChart> StudyChartData::all()
{
    return {StudyChart::Runtime,  StudyChart::Speedup, StudyChart::Efficiency, StudyChart::Throughput,
            StudyChart::Accuracy, StudyChart::Cost,    StudyChart::Energy};
}

QString StudyChartData::id(StudyChart c)
{
    switch (c) {
    case StudyChart::Runtime:
        return QStringLiteral("runtime");
    case StudyChart::Speedup:
        return QStringLiteral("speedup");
    case StudyChart::Efficiency:
        return QStringLiteral("efficiency");
    case StudyChart::Throughput:
        return QStringLiteral("throughput");
    case StudyChart::Accuracy:
        return QStringLiteral("accuracy");
    case StudyChart::Cost:
        return QStringLiteral("cost");
    case StudyChart::Energy:
        return QStringLiteral("energy");
    }
    return {};
}

StudyChartData StudyChartData::build(const QList<RunMetricsRow> &rows, double threshold)
{
    StudyChartData d;
    d.m_threshold = threshold;
    d.m_input = StudyScaling::input(rows);
    d.m_analysis = StudyScaling::analyze(d.m_input, threshold);
    const QList<ScalingPoint> &pts = d.m_analysis.points();
    const Basis b{rows, d.m_input, d.m_analysis, threshold, pts.isEmpty() ? nullptr : &pts.first()};
    d.m_panels = {runtimePanel(b),
                  scalingPanel(b, StudyChart::Speedup),
                  scalingPanel(b, StudyChart::Efficiency),
                  throughputPanel(b),
                  metricPanel(b, StudyChart::Accuracy, d.m_input.accuracyMetric),
                  costPanel(b),
                  metricPanel(b, StudyChart::Energy, metric::EnergyWh)};
    const bool overlapped = !d.m_analysis.overlaps().isEmpty();
    for (StudyChartPanel &p : d.m_panels) {
        fitAxes(p);
        p.overlapNote = overlapped && p.chart != StudyChart::Accuracy && p.chart != StudyChart::Cost;
    }
    return d;
}

const StudyChartPanel &StudyChartData::panel(StudyChart c) const
{
    static const StudyChartPanel none;   // before build(): nothing to draw
    const qsizetype i = all().indexOf(c);
    return i < m_panels.size() ? m_panels[i] : none;
}

}   // namespace scalelab
