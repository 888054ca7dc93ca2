// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ScalingAnalysis.h"

#include <QDateTime>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

QString gpuWord(int n)
{
    return n == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(n);
}

QString times(double x)
{
    if (std::abs(x - std::round(x)) < 0.05 && x >= 1.0)
        return QStringLiteral("%1×").arg(qint64(std::round(x)));
    return QStringLiteral("%1×").arg(x, 0, 'f', x < 0.095 ? 2 : 1);
}

QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(qint64(std::round(fraction * 100.0)));
}

// Time-like cost of a point in basis units: runtime, or 1/throughput.
double cost(const ScalingPoint &p, ScalingBasis basis)
{
    return basis == ScalingBasis::Runtime ? p.runtimeSeconds.value_or(NAN) : 1.0 / p.throughput.value_or(NAN);
}

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

QString number(double v)
{
    return QString::number(v, 'g', 4);
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
    a.m_overlaps = findOverlaps(runs);
    QStringList leftOut;

    QList<ScalingRun> usable;
    for (const ScalingRun &r : runs) {
        const QString name =
            r.label.isEmpty() ? gpuWord(r.gpus) : QStringLiteral("%1 (%2)").arg(r.label, gpuWord(r.gpus));
        if (r.gpus <= 0) {
            a.m_diagnostics.append({Severity::Warning,
                                    QStringLiteral("scaling-run-no-gpus"),
                                    QStringLiteral("gpus"),
                                    0,
                                    0,
                                    QStringLiteral("run %1 has no GPU count; it is left out").arg(name),
                                    {}});
            leftOut.append(name + QStringLiteral(": no GPU count"));
        } else if (r.failed) {
            const QString state =
                r.state.isEmpty() ? QStringLiteral("did not complete") : QStringLiteral("ended %1").arg(r.state);
            a.m_diagnostics.append({Severity::Warning,
                                    QStringLiteral("scaling-run-failed"),
                                    {},
                                    0,
                                    0,
                                    QStringLiteral("run %1 %2; it is left out").arg(name, state),
                                    {}});
            leftOut.append(name + u' ' + state);
        } else if (!(r.runtimeSeconds.value_or(0) > 0) && !(r.throughput.value_or(0) > 0)) {
            a.m_diagnostics.append(
                {Severity::Warning,
                 QStringLiteral("scaling-run-no-timing"),
                 {},
                 0,
                 0,
                 QStringLiteral("run %1 has neither a runtime nor a throughput; it is left out").arg(name),
                 {}});
            leftOut.append(name + QStringLiteral(": no runtime or throughput"));
        } else {
            usable.append(r);
        }
    }

    const bool allRuntime =
        std::all_of(usable.begin(), usable.end(), [](const ScalingRun &r) { return r.runtimeSeconds.value_or(0) > 0; });
    const bool allThroughput =
        std::all_of(usable.begin(), usable.end(), [](const ScalingRun &r) { return r.throughput.value_or(0) > 0; });
    a.m_basis = (!allRuntime && allThroughput) ? ScalingBasis::Throughput : ScalingBasis::Runtime;
    if (!allRuntime && !allThroughput) {
        QList<ScalingRun> kept;
        for (const ScalingRun &r : usable) {
            if (r.runtimeSeconds.value_or(0) > 0) {
                kept.append(r);
            } else {
                const QString name =
                    r.label.isEmpty() ? gpuWord(r.gpus) : QStringLiteral("%1 (%2)").arg(r.label, gpuWord(r.gpus));
                a.m_diagnostics.append(
                    {Severity::Warning,
                     QStringLiteral("scaling-run-no-runtime"),
                     {},
                     0,
                     0,
                     QStringLiteral("run %1 has no runtime while others do; it is left out").arg(name),
                     {}});
                leftOut.append(name + QStringLiteral(": no runtime"));
            }
        }
        usable = kept;
    }

    // One point per GPU count: the median of its repeats, with their range.
    a.m_usedRuns = int(usable.size());
    QMap<int, QList<ScalingRun>> byGpus;
    for (const ScalingRun &r : usable)
        byGpus[r.gpus].append(r);
    for (auto it = byGpus.cbegin(); it != byGpus.cend(); ++it) {
        ScalingPoint p;
        p.gpus = it.key();
        p.runs = int(it->size());
        QList<double> rt, th, gh, ut, acc;
        for (const ScalingRun &r : *it) {
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
        a.m_points.append(p);
    }

    if (!a.m_points.isEmpty()) {
        a.m_baselineGpus = a.m_points.front().gpus;
        const double c0 = cost(a.m_points.front(), a.m_basis);
        const bool rt = a.m_basis == ScalingBasis::Runtime;
        for (ScalingPoint &p : a.m_points) {
            p.speedup = c0 / cost(p, a.m_basis);
            p.efficiency = p.speedup * a.m_baselineGpus / p.gpus;
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
        a.fit();
        a.predict();
    }
    a.recommend();

    // Noise: repeats that disagree by more than kNoisySpread of their median.
    QStringList noisy;
    for (const ScalingPoint &p : std::as_const(a.m_points)) {
        if (p.runs < 2 || p.spread <= kNoisySpread)
            continue;
        const bool rt = a.m_basis == ScalingBasis::Runtime;
        noisy << QStringLiteral("%1 %2 across %3 runs (%4–%5 %6)")
                     .arg(gpuWord(p.gpus), percent(p.spread))
                     .arg(p.runs)
                     .arg(number(rt ? *p.runtimeMin : *p.throughputMin), number(rt ? *p.runtimeMax : *p.throughputMax),
                          rt ? QStringLiteral("s") : QStringLiteral("samples/s"));
    }
    if (!noisy.isEmpty())
        a.m_warnings.append(
            QStringLiteral("Noisy timings: the %1 of repeats differ by more than %2 of their median "
                           "(%3); the charts show the median and the min–max range; more repeats "
                           "or runs one at a time give steadier numbers.")
                .arg(a.m_basis == ScalingBasis::Runtime ? QStringLiteral("runtimes") : QStringLiteral("throughputs"),
                     percent(kNoisySpread), noisy.join(QStringLiteral("; "))));
    if (!a.m_overlaps.isEmpty()) {
        QStringList pairs;
        for (const RunOverlap &o : std::as_const(a.m_overlaps))
            pairs << QStringLiteral("%1 and %2 on %3 for %4 s")
                         .arg(o.first, o.second, o.nodes.join(QStringLiteral(", ")))
                         .arg(o.seconds);
        a.m_warnings.append(QStringLiteral("Runs overlapped on shared nodes and may have slowed each other: %1. "
                                           "Run the study one at a time for clean timings.")
                                .arg(pairs.join(QStringLiteral("; "))));
    }
    if (!a.m_noFitReason.isEmpty())
        a.m_warnings.append(a.m_noFitReason);
    if (!leftOut.isEmpty())
        a.m_warnings.append(QStringLiteral("Left out: %1.").arg(leftOut.join(QStringLiteral("; "))));
    return a;
}

namespace {

// "tb-node[1-3,5],gpu7" -> tb-node1 tb-node2 tb-node3 tb-node5 gpu7 (Slurm's
// hostlist form; one bracket group per name, zero padding kept).
QStringList expandNodeList(const QString &list)
{
    QStringList names, out;
    int depth = 0;
    QString cur;
    for (const QChar c : list) {
        if (c == u'[')
            ++depth;
        if (c == u']')
            --depth;
        if (c == u',' && depth == 0) {
            names << cur;
            cur.clear();
        } else {
            cur += c;
        }
    }
    names << cur;
    for (const QString &n : std::as_const(names)) {
        const qsizetype open = n.indexOf(u'['), close = n.indexOf(u']');
        if (open < 0 || close < open) {
            if (!n.trimmed().isEmpty() && n.trimmed() != QLatin1String("None assigned"))
                out << n.trimmed();
            continue;
        }
        const QString stem = n.left(open), tail = n.mid(close + 1);
        for (const QString &part : n.mid(open + 1, close - open - 1).split(u',')) {
            const QString from = part.section(u'-', 0, 0), to = part.section(u'-', 1, 1);
            bool ok1 = false, ok2 = true;
            const int a = from.toInt(&ok1), b = to.isEmpty() ? a : to.toInt(&ok2);
            if (!ok1 || !ok2 || b < a || b - a > 4096)
                continue;
            for (int i = a; i <= b; ++i)
                out << stem + QStringLiteral("%1").arg(i, int(from.size()), 10, QLatin1Char('0')) + tail;
        }
    }
    return out;
}

}   // namespace

QList<RunOverlap> ScalingAnalysis::findOverlaps(const QList<ScalingRun> &runs)
{
    struct Span {
        const ScalingRun *run;
        QDateTime start, end;
        QSet<QString> nodes;
    };
    QList<Span> spans;
    for (const ScalingRun &r : runs) {
        const QDateTime s = QDateTime::fromString(r.start, Qt::ISODate), e = QDateTime::fromString(r.end, Qt::ISODate);
        QSet<QString> nodes;
        for (const QString &n : r.nodes)
            for (const QString &x : expandNodeList(n))
                nodes.insert(x);
        if (s.isValid() && e.isValid() && e > s && !nodes.isEmpty())
            spans.append({&r, s, e, nodes});
    }
    QList<RunOverlap> out;
    for (qsizetype i = 0; i < spans.size(); ++i)
        for (qsizetype j = i + 1; j < spans.size(); ++j) {
            const Span &a = spans[i], &b = spans[j];
            if (!(a.start < b.end && b.start < a.end))
                continue;
            QSet<QString> shared = a.nodes;
            shared.intersect(b.nodes);
            if (shared.isEmpty())
                continue;
            QStringList names(shared.begin(), shared.end());
            names.sort();
            const qint64 secs = std::max(a.start, b.start).secsTo(std::min(a.end, b.end));
            out.append({a.run->label, b.run->label, names, secs});
        }
    return out;
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

void ScalingAnalysis::recommend()
{
    if (m_points.isEmpty()) {
        m_summary = QStringLiteral("No finished run to compare: submit the job at one GPU count and let it complete.");
        return;
    }
    const ScalingPoint &base = m_points.front();
    const QString vsBase =
        m_baselineGpus == 1 ? QString() : QStringLiteral(" the speed of %1").arg(gpuWord(m_baselineGpus));
    const QString basisWord =
        m_basis == ScalingBasis::Runtime ? QStringLiteral("runtime") : QStringLiteral("throughput");

    // Low utilisation and accuracy changes apply whatever the recommendation.
    QStringList lowUtil;
    for (const ScalingPoint &p : m_points)
        if (p.meanGpuUtilPercent && *p.meanGpuUtilPercent < 50.0)
            lowUtil.append(QStringLiteral("%1 on %2").arg(percent(*p.meanGpuUtilPercent / 100.0), gpuWord(p.gpus)));
    if (!lowUtil.isEmpty())
        m_warnings.append(QStringLiteral("Mean GPU utilisation was below 50 % (%1): the GPUs wait for data or "
                                         "communication; a larger batch or more data-loader workers may help.")
                              .arg(lowUtil.join(QStringLiteral(", "))));

    if (m_points.size() == 1) {
        m_recommendedGpus = base.gpus;
        m_summary =
            QStringLiteral("Only the %1-GPU run can be compared: run the same job on %2 to see whether it scales.")
                .arg(base.gpus)
                .arg(gpuWord(base.gpus * 2));
        return;
    }

    // Truthful about slowdowns first.
    QStringList slower;
    const ScalingPoint *best = &m_points[1];
    for (qsizetype i = 1; i < m_points.size(); ++i) {
        const ScalingPoint &p = m_points[i];
        if (p.speedup > best->speedup)
            best = &p;
        if (p.speedup < 1.0)
            slower.append(QStringLiteral("%1 (%2)").arg(gpuWord(p.gpus), times(p.speedup)));
    }
    if (best->speedup <= 1.1) {
        m_tooSmall = true;
        m_recommendedGpus = m_baselineGpus;
        if (!slower.isEmpty() && slower.size() == m_points.size() - 1)
            m_summary = QStringLiteral(
                            "More GPUs made this job slower than on %1: %2; the model is too small to scale: use %1.")
                            .arg(gpuWord(m_baselineGpus), slower.join(QStringLiteral(", ")));
        else if (!slower.isEmpty())
            m_summary = QStringLiteral("%1 gave only %2 the speed of %3 and %4 slower: the model is too small to "
                                       "scale: use %3.")
                            .arg(gpuWord(best->gpus), times(best->speedup), gpuWord(m_baselineGpus),
                                 slower.join(QStringLiteral(", "))
                                     + (slower.size() == 1 ? QStringLiteral(" was") : QStringLiteral(" were")));
        else
            m_summary = QStringLiteral("%1 gave only %2 the speed of %3: the model is too small to scale: use %3.")
                            .arg(gpuWord(best->gpus), times(best->speedup), gpuWord(m_baselineGpus));
        return;
    }

    const ScalingPoint *rec = &base;
    for (const ScalingPoint &p : m_points)
        if (p.efficiency >= m_threshold && p.speedup >= rec->speedup)
            rec = &p;
    m_recommendedGpus = rec->gpus;

    QString sentence;
    if (rec == &base) {
        const ScalingPoint &next = m_points[1];
        sentence = QStringLiteral("Use %1: %2 reached %3%4 at %5 efficiency, below the %6 threshold")
                       .arg(gpuWord(base.gpus), gpuWord(next.gpus), times(next.speedup), vsBase,
                            percent(next.efficiency), percent(m_threshold));
    } else {
        sentence = QStringLiteral("%1: %2%3 at %4 efficiency")
                       .arg(gpuWord(rec->gpus), times(rec->speedup), vsBase, percent(rec->efficiency));
        // The next doubling: measured if it was run, else the Amdahl estimate.
        const int next = rec->gpus * 2;
        const ScalingPoint *measured = nullptr;
        for (const ScalingPoint &p : m_points)
            if (p.gpus == next)
                measured = &p;
        const ScalingPoint *predicted = nullptr;
        for (const ScalingPoint &p : m_predictions)
            if (p.gpus == next)
                predicted = &p;
        ScalingPoint fitted;   // a doubling inside the measured range that was not run
        if (!measured && !predicted && m_amdahl) {
            fitted.gpus = next;
            fitted.predicted = true;
            const double c = m_fitA + m_fitB / next;
            fitted.speedup = cost(base, m_basis) / c;
            if (m_basis == ScalingBasis::Runtime)
                fitted.gpuHours = next * c / 3600.0;
            predicted = &fitted;
        }
        const ScalingPoint *n2 = measured ? measured : predicted;
        if (n2) {
            const double gain = n2->speedup / rec->speedup - 1.0;
            std::optional<double> costRatio;
            // Measured: the GPU-hours as recorded; estimated: GPUs x predicted time.
            if (measured && n2->gpuHours && rec->gpuHours && *rec->gpuHours > 0)
                costRatio = *n2->gpuHours / *rec->gpuHours;
            else
                costRatio = (double(next) / rec->gpus) * (rec->speedup / n2->speedup);
            const QString cost = QStringLiteral("%1 the GPU-hours").arg(times(*costRatio));
            if (measured) {
                if (gain >= 0)
                    sentence +=
                        QStringLiteral("; %1 gave %2 more speed for %3").arg(gpuWord(next), percent(gain), cost);
                else
                    sentence +=
                        QStringLiteral("; %1 were %2 slower and took %3").arg(gpuWord(next), percent(-gain), cost);
            } else {
                sentence += QStringLiteral("; %1 would add about %2 speed for %3 (Amdahl estimate, serial fraction %4)")
                                .arg(gpuWord(next), percent(std::max(0.0, gain)), cost)
                                .arg(m_amdahl->serialFraction, 0, 'f', 2);
            }
        }
    }
    if (!slower.isEmpty())
        sentence +=
            QStringLiteral("; slower than %1: %2").arg(gpuWord(m_baselineGpus), slower.join(QStringLiteral(", ")));
    m_summary = sentence + u'.';

    if (base.accuracy && rec->accuracy && rec != &base && *base.accuracy - *rec->accuracy > 0.01)
        m_warnings.append(QStringLiteral("Accuracy fell from %1 on %2 to %3 on %4: the global batch grows with the "
                                         "GPU count; scale the learning rate or train longer.")
                              .arg(*base.accuracy, 0, 'f', 3)
                              .arg(gpuWord(base.gpus))
                              .arg(*rec->accuracy, 0, 'f', 3)
                              .arg(gpuWord(rec->gpus)));
    if (m_amdahl && m_amdahl->points > 2 && m_amdahl->r2 < 0.8)
        m_warnings.append(
            QStringLiteral("The %1 do not follow Amdahl's law well (R² %2): treat the estimate with care.")
                .arg(basisWord == QLatin1String("runtime") ? QStringLiteral("runtimes") : QStringLiteral("throughputs"))
                .arg(m_amdahl->r2, 0, 'f', 2));
}

}   // namespace scalelab
