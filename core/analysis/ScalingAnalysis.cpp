// SPDX-License-Identifier: GPL-3.0-or-later
// ScalingAnalysis: the runs into points (medians of repeats, speedup, efficiency),
// the Amdahl fit and its predictions. The advice in words is ScalingAdvice; the
// overlaps of runs on shared nodes are RunOverlaps.
#include "core/analysis/ScalingAnalysis.h"

#include "core/analysis/RunOverlaps.h"
#include "core/analysis/ScalingAdvice.h"
#include "core/analysis/ScalingAnalysisInternal.h"
#include "core/base/NumberFormat.h"

#include <QMap>

#include <algorithm>

namespace scalelab {

using namespace scaling;

namespace {

std::optional<double> meanOf(const QList<double> &v)
{
    if (v.isEmpty())
        return std::nullopt;
    double s = 0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

// Repeats are summarised by their median: one disturbed run moves it less than the mean.
std::optional<double> medianOf(QList<double> v)
{
    if (v.isEmpty())
        return std::nullopt;
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::optional<double> minOf(const QList<double> &v)
{
    return v.isEmpty() ? std::nullopt : std::optional<double>(*std::min_element(v.begin(), v.end()));
}

std::optional<double> maxOf(const QList<double> &v)
{
    return v.isEmpty() ? std::nullopt : std::optional<double>(*std::max_element(v.begin(), v.end()));
}

QString fourDigits(double v)
{
    return NumberFormat::compact(v, 4);   // "1.81", "18,100": never "1.81e+04"
}

QString runName(const ScalingRun &r)
{
    return r.label.isEmpty() ? gpuWord(r.gpus) : QStringLiteral("%1 (%2)").arg(r.label, gpuWord(r.gpus));
}

Diagnostic leftOutWarning(const char *rule, const QString &field, const QString &message)
{
    return {Severity::Warning, QString::fromLatin1(rule), field, 0, 0, message, {}};
}

// One point per GPU count: the median of its repeats, with their range.
ScalingPoint pointOf(int gpus, const QList<ScalingRun> &repeats)
{
    ScalingPoint p;
    p.gpus = gpus;
    p.runs = int(repeats.size());
    QList<double> rt, th, gh, ut, acc;
    for (const ScalingRun &r : repeats) {
        if (r.runtimeSeconds.value_or(0) > 0)
            rt.append(*r.runtimeSeconds);
        if (r.throughput.value_or(0) > 0)
            th.append(*r.throughput);
        if (r.gpuHours)
            gh.append(*r.gpuHours);
        if (r.meanGpuUtilPercent)
            ut.append(*r.meanGpuUtilPercent);
        if (r.accuracy)
            acc.append(*r.accuracy);
    }
    p.runtimeSeconds = medianOf(rt);
    p.runtimeMin = minOf(rt);
    p.runtimeMax = maxOf(rt);
    p.throughput = medianOf(th);
    p.throughputMin = minOf(th);
    p.throughputMax = maxOf(th);
    p.gpuHours = medianOf(gh);
    if (!p.gpuHours && p.runtimeSeconds)
        p.gpuHours = p.gpus * *p.runtimeSeconds / 3600.0;
    p.meanGpuUtilPercent = meanOf(ut);
    p.accuracy = medianOf(acc);
    return p;
}

}   // namespace

QString ScalingAnalysis::advice() const
{
    QStringList parts{m_summary};
    parts.append(m_warnings);
    return parts.join(u' ');
}

ScalingAnalysis ScalingAnalysis::analyze(const QList<ScalingRun> &runs, double efficiencyThreshold)
{
    ScalingAnalysis a;
    a.m_threshold = efficiencyThreshold;
    a.m_givenRuns = int(runs.size());
    a.m_overlaps = RunOverlaps::find(runs);
    QStringList leftOut;
    QList<ScalingRun> usable = a.usableRuns(runs, leftOut);
    const bool allRuntime =
        std::all_of(usable.begin(), usable.end(), [](const ScalingRun &r) { return r.runtimeSeconds.value_or(0) > 0; });
    const bool allThroughput =
        std::all_of(usable.begin(), usable.end(), [](const ScalingRun &r) { return r.throughput.value_or(0) > 0; });
    a.m_basis = (!allRuntime && allThroughput) ? ScalingBasis::Throughput : ScalingBasis::Runtime;
    if (!allRuntime && !allThroughput)
        usable = a.keepTimedRuns(usable, leftOut);
    a.m_usedRuns = int(usable.size());
    a.addPoints(usable);
    if (!a.m_points.isEmpty()) {
        a.addSpeedups();
        a.fit();
        a.predict();
    }
    const ScalingAdvice words(a, a.m_fitA, a.m_fitB);
    a.m_summary = words.summary();
    a.m_warnings = words.warnings();
    a.m_recommendedGpus = words.recommendedGpus();
    a.m_tooSmall = words.tooSmallToScale();
    a.addWarnings(leftOut);
    return a;
}

// The runs with a GPU count, a completed state and a runtime or throughput; the others named in leftOut.
QList<ScalingRun> ScalingAnalysis::usableRuns(const QList<ScalingRun> &runs, QStringList &leftOut)
{
    QList<ScalingRun> usable;
    for (const ScalingRun &r : runs) {
        const QString name = runName(r);
        if (r.gpus <= 0) {
            m_diagnostics.append(leftOutWarning("scaling-run-no-gpus", QStringLiteral("gpus"),
                                                QStringLiteral("run %1 has no GPU count; it is left out").arg(name)));
            leftOut.append(name + QStringLiteral(": no GPU count"));
        } else if (r.failed) {
            const QString state =
                r.state.isEmpty() ? QStringLiteral("did not complete") : QStringLiteral("ended %1").arg(r.state);
            m_diagnostics.append(
                leftOutWarning("scaling-run-failed", {}, QStringLiteral("run %1 %2; it is left out").arg(name, state)));
            leftOut.append(name + u' ' + state);
        } else if (!(r.runtimeSeconds.value_or(0) > 0) && !(r.throughput.value_or(0) > 0)) {
            m_diagnostics.append(leftOutWarning(
                "scaling-run-no-timing", {},
                QStringLiteral("run %1 has neither a runtime nor a throughput; it is left out").arg(name)));
            leftOut.append(name + QStringLiteral(": no runtime or throughput"));
        } else {
            usable.append(r);
        }
    }
    return usable;
}

// Some runs have a runtime and some only a throughput: the runtime is the basis, the others are left out.
QList<ScalingRun> ScalingAnalysis::keepTimedRuns(const QList<ScalingRun> &usable, QStringList &leftOut)
{
    QList<ScalingRun> kept;
    for (const ScalingRun &r : usable) {
        if (r.runtimeSeconds.value_or(0) > 0) {
            kept.append(r);
            continue;
        }
        const QString name = runName(r);
        m_diagnostics.append(
            leftOutWarning("scaling-run-no-runtime", {},
                           QStringLiteral("run %1 has no runtime while others do; it is left out").arg(name)));
        leftOut.append(name + QStringLiteral(": no runtime"));
    }
    return kept;
}

void ScalingAnalysis::addPoints(const QList<ScalingRun> &usable)
{
    QMap<int, QList<ScalingRun>> byGpus;
    for (const ScalingRun &r : usable)
        byGpus[r.gpus].append(r);
    for (auto it = byGpus.cbegin(); it != byGpus.cend(); ++it)
        m_points.append(pointOf(it.key(), *it));
}

// Speedup and efficiency against the smallest GPU count, with the range the repeats give.
void ScalingAnalysis::addSpeedups()
{
    m_baselineGpus = m_points.front().gpus;
    const double c0 = cost(m_points.front(), m_basis);
    const bool rt = m_basis == ScalingBasis::Runtime;
    for (ScalingPoint &p : m_points) {
        p.speedup = c0 / cost(p, m_basis);
        p.efficiency = p.speedup * m_baselineGpus / p.gpus;
        const std::optional<double> lo = rt ? p.runtimeMin : p.throughputMin;
        const std::optional<double> hi = rt ? p.runtimeMax : p.throughputMax;
        const std::optional<double> mid = rt ? p.runtimeSeconds : p.throughput;
        if (lo && hi && mid && *mid > 0) {
            p.spread = (*hi - *lo) / *mid;
            // The slowest repeat gives the lowest speedup.
            p.speedupMin = rt ? c0 / *hi : c0 / (1.0 / *lo);
            p.speedupMax = rt ? c0 / *lo : c0 / (1.0 / *hi);
        } else {
            p.speedupMin = p.speedupMax = p.speedup;
        }
    }
}

// Noisy repeats, overlapping runs, no fit, runs left out: each a warning above the charts.
void ScalingAnalysis::addWarnings(const QStringList &leftOut)
{
    // Noise: repeats that disagree by more than kNoisySpread of their median.
    QStringList noisy;
    const bool rt = m_basis == ScalingBasis::Runtime;
    for (const ScalingPoint &p : std::as_const(m_points)) {
        if (p.runs < 2 || p.spread <= kNoisySpread)
            continue;
        noisy << QStringLiteral("%1 %2 across %3 runs (%4–%5 %6)")
                     .arg(gpuWord(p.gpus), percent(p.spread))
                     .arg(p.runs)
                     .arg(fourDigits(rt ? *p.runtimeMin : *p.throughputMin),
                          fourDigits(rt ? *p.runtimeMax : *p.throughputMax),
                          rt ? QStringLiteral("s") : QStringLiteral("samples/s"));
    }
    if (!noisy.isEmpty())
        m_warnings.append(QStringLiteral("Noisy timings: the %1 of repeats differ by more than %2 of their median "
                                         "(%3); the charts show the median and the min–max range; more repeats "
                                         "or runs one at a time give steadier numbers.")
                              .arg(rt ? QStringLiteral("runtimes") : QStringLiteral("throughputs"),
                                   percent(kNoisySpread), noisy.join(QStringLiteral("; "))));
    if (!m_overlaps.isEmpty()) {
        QStringList pairs;
        for (const RunOverlap &o : std::as_const(m_overlaps))
            pairs << QStringLiteral("%1 and %2 on %3 for %4 s")
                         .arg(o.first, o.second, o.nodes.join(QStringLiteral(", ")))
                         .arg(o.seconds);
        m_warnings.append(QStringLiteral("Runs overlapped on shared nodes and may have slowed each other: %1. "
                                         "Run the study one at a time for clean timings.")
                              .arg(pairs.join(QStringLiteral("; "))));
    }
    if (!m_noFitReason.isEmpty())
        m_warnings.append(m_noFitReason);
    if (!leftOut.isEmpty())
        m_warnings.append(QStringLiteral("Left out: %1.").arg(leftOut.join(QStringLiteral("; "))));
}

void ScalingAnalysis::fit()
{
    if (m_points.size() < kMinFitPoints) {
        if (m_points.size() >= 2)
            m_noFitReason = QStringLiteral("No Amdahl fit, R² or prediction: %1 GPU counts (%2) fit any two-parameter "
                                           "curve exactly, so the fit would say nothing; complete runs at %3 or more "
                                           "GPU counts for one.")
                                .arg(m_points.size())
                                .arg([this] {
                                    QStringList c;
                                    for (const ScalingPoint &p : m_points)
                                        c << QString::number(p.gpus);
                                    return c.join(QStringLiteral(" and "));
                                }())
                                .arg(kMinFitPoints);
        return;
    }
    // cost = a + b * x with x = 1/N: a = T1 * s, b = T1 * (1 - s).
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(m_points.size());
    for (const ScalingPoint &p : m_points) {
        const double x = 1.0 / p.gpus, y = cost(p, m_basis);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double den = n * sxx - sx * sx;
    if (den <= 0)
        return;
    double b = (n * sxy - sx * sy) / den;
    double a = (sy - b * sx) / n;
    if (b <= 0)
        return;   // cost does not fall with more GPUs: Amdahl's law does not describe the runs
    if (a < 0) {   // better than linear: fit with no serial part
        a = 0;
        b = sxy / sxx;
    }
    m_fitA = a;
    m_fitB = b;
    double mean = sy / n, ssTot = 0, ssRes = 0;
    for (const ScalingPoint &p : m_points) {
        const double y = cost(p, m_basis), f = a + b / p.gpus;
        ssTot += (y - mean) * (y - mean);
        ssRes += (y - f) * (y - f);
    }
    AmdahlFit fit;
    fit.serialFraction = a / (a + b);
    if (m_basis == ScalingBasis::Runtime)
        fit.t1Seconds = a + b;
    fit.r2 = ssTot > 0 ? 1.0 - ssRes / ssTot : 1.0;
    fit.points = int(m_points.size());
    m_amdahl = fit;
}

void ScalingAnalysis::predict()
{
    if (!m_amdahl || m_points.isEmpty())
        return;
    const int largest = m_points.back().gpus;
    const double c0 = cost(m_points.front(), m_basis);
    for (int factor : {2, 4}) {
        ScalingPoint p;
        p.predicted = true;
        p.gpus = largest * factor;
        const double c = m_fitA + m_fitB / p.gpus;
        if (m_basis == ScalingBasis::Runtime) {
            p.runtimeSeconds = c;
            p.gpuHours = p.gpus * c / 3600.0;
        } else {
            p.throughput = 1.0 / c;
        }
        p.speedup = c0 / c;
        p.efficiency = p.speedup * m_baselineGpus / p.gpus;
        m_predictions.append(p);
    }
}

}   // namespace scalelab
