// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/ScalingAdvice.h"

#include "core/analysis/ScalingAnalysisInternal.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

using namespace scaling;

namespace {

QString times(double x)
{
    if (std::abs(x - std::round(x)) < 0.05 && x >= 1.0)
        return QStringLiteral("%1×").arg(qint64(std::round(x)));
    return QStringLiteral("%1×").arg(x, 0, 'f', x < 0.095 ? 2 : 1);
}

}   // namespace

ScalingAdvice::ScalingAdvice(const ScalingAnalysis &analysis, double fitA, double fitB)
    : m_points(analysis.points())
    , m_predictions(analysis.predictions())
    , m_amdahl(analysis.amdahl())
    , m_fitA(fitA)
    , m_fitB(fitB)
    , m_basis(analysis.basis())
    , m_baselineGpus(analysis.baselineGpus())
    , m_threshold(analysis.efficiencyThreshold())
{
    recommend();
}

void ScalingAdvice::recommend()
{
    if (m_points.isEmpty()) {
        m_summary = QStringLiteral("No finished run to compare: submit the job at one GPU count and let it complete.");
        return;
    }
    const ScalingPoint &base = m_points.front();
    // Low utilisation and accuracy changes apply whatever the recommendation.
    warnLowUtilisation();
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
        summariseTooSmall(*best, slower);
        return;
    }
    const ScalingPoint *rec = &base;
    for (const ScalingPoint &p : m_points)
        if (p.efficiency >= m_threshold && p.speedup >= rec->speedup)
            rec = &p;
    m_recommendedGpus = rec->gpus;
    const QString vsBase =
        m_baselineGpus == 1 ? QString() : QStringLiteral(" the speed of %1").arg(gpuWord(m_baselineGpus));
    QString sentence;
    if (rec == &base) {
        const ScalingPoint &next = m_points[1];
        sentence = QStringLiteral("Use %1: %2 reached %3%4 at %5 efficiency, below the %6 threshold")
                       .arg(gpuWord(base.gpus), gpuWord(next.gpus), times(next.speedup), vsBase,
                            percent(next.efficiency), percent(m_threshold));
    } else {
        sentence = QStringLiteral("%1: %2%3 at %4 efficiency")
                       .arg(gpuWord(rec->gpus), times(rec->speedup), vsBase, percent(rec->efficiency))
                   + nextDoubling(*rec);
    }
    if (!slower.isEmpty())
        sentence +=
            QStringLiteral("; slower than %1: %2").arg(gpuWord(m_baselineGpus), slower.join(QStringLiteral(", ")));
    m_summary = sentence + u'.';
    warnAccuracyAndFit(*rec);
}

void ScalingAdvice::warnLowUtilisation()
{
    QStringList lowUtil;
    for (const ScalingPoint &p : m_points)
        if (p.meanGpuUtilPercent && *p.meanGpuUtilPercent < 50.0)
            lowUtil.append(QStringLiteral("%1 on %2").arg(percent(*p.meanGpuUtilPercent / 100.0), gpuWord(p.gpus)));
    if (!lowUtil.isEmpty())
        m_warnings.append(QStringLiteral("Mean GPU utilisation was below 50 % (%1): the GPUs wait for data or "
                                         "communication; a larger batch or more data-loader workers may help.")
                              .arg(lowUtil.join(QStringLiteral(", "))));
}

// No GPU count gave more than 1.1x: the smallest one is the advice.
void ScalingAdvice::summariseTooSmall(const ScalingPoint &best, const QStringList &slower)
{
    m_tooSmall = true;
    m_recommendedGpus = m_baselineGpus;
    if (!slower.isEmpty() && slower.size() == m_points.size() - 1)
        m_summary =
            QStringLiteral("More GPUs made this job slower than on %1: %2; the model is too small to scale: use %1.")
                .arg(gpuWord(m_baselineGpus), slower.join(QStringLiteral(", ")));
    else if (!slower.isEmpty())
        m_summary = QStringLiteral("%1 gave only %2 the speed of %3 and %4 slower: the model is too small to "
                                   "scale: use %3.")
                        .arg(gpuWord(best.gpus), times(best.speedup), gpuWord(m_baselineGpus),
                             slower.join(QStringLiteral(", "))
                                 + (slower.size() == 1 ? QStringLiteral(" was") : QStringLiteral(" were")));
    else
        m_summary = QStringLiteral("%1 gave only %2 the speed of %3: the model is too small to scale: use %3.")
                        .arg(gpuWord(best.gpus), times(best.speedup), gpuWord(m_baselineGpus));
}

// What the next doubling after the recommendation gives: measured if it was run, else the Amdahl estimate.
QString ScalingAdvice::nextDoubling(const ScalingPoint &rec) const
{
    const ScalingPoint &base = m_points.front();
    const int next = rec.gpus * 2;
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
    if (!n2)
        return {};
    const double gain = n2->speedup / rec.speedup - 1.0;
    // Measured: the GPU-hours as recorded; estimated: GPUs x predicted time.
    const double costRatio = measured && n2->gpuHours && rec.gpuHours && *rec.gpuHours > 0
                                 ? *n2->gpuHours / *rec.gpuHours
                                 : (double(next) / rec.gpus) * (rec.speedup / n2->speedup);
    const QString cost = QStringLiteral("%1 the GPU-hours").arg(times(costRatio));
    if (measured && gain >= 0)
        return QStringLiteral("; %1 gave %2 more speed for %3").arg(gpuWord(next), percent(gain), cost);
    if (measured)
        return QStringLiteral("; %1 were %2 slower and took %3").arg(gpuWord(next), percent(-gain), cost);
    return QStringLiteral("; %1 would add about %2 speed for %3 (Amdahl estimate, serial fraction %4)")
        .arg(gpuWord(next), percent(std::max(0.0, gain)), cost)
        .arg(m_amdahl->serialFraction, 0, 'f', 2);
}

void ScalingAdvice::warnAccuracyAndFit(const ScalingPoint &rec)
{
    const ScalingPoint &base = m_points.front();
    if (base.accuracy && rec.accuracy && &rec != &base && *base.accuracy - *rec.accuracy > 0.01)
        m_warnings.append(QStringLiteral("Accuracy fell from %1 on %2 to %3 on %4: the global batch grows with the "
                                         "GPU count; scale the learning rate or train longer.")
                              .arg(*base.accuracy, 0, 'f', 3)
                              .arg(gpuWord(base.gpus))
                              .arg(*rec.accuracy, 0, 'f', 3)
                              .arg(gpuWord(rec.gpus)));
    if (m_amdahl && m_amdahl->points > 2 && m_amdahl->r2 < 0.8)
        m_warnings.append(
            QStringLiteral("The %1 do not follow Amdahl's law well (R² %2): treat the estimate with care.")
                .arg(m_basis == ScalingBasis::Runtime ? QStringLiteral("runtimes") : QStringLiteral("throughputs"))
                .arg(m_amdahl->r2, 0, 'f', 2));
}

}   // namespace scalelab
