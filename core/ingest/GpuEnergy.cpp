// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/GpuEnergy.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

// The median spacing of a GPU's samples (positive steps only); 0 when fewer than two.
double medianPeriod(const QVector<double> &seconds)
{
    QVector<double> steps;
    steps.reserve(seconds.size());
    for (qsizetype i = 1; i < seconds.size(); ++i)
        if (const double dt = seconds[i] - seconds[i - 1]; dt > 0)
            steps.append(dt);
    if (steps.isEmpty())
        return 0;
    const qsizetype mid = steps.size() / 2;
    std::nth_element(steps.begin(), steps.begin() + mid, steps.end());
    if (steps.size() % 2)
        return steps[mid];
    const double upper = steps[mid];
    return (upper + *std::max_element(steps.begin(), steps.begin() + mid)) / 2.0;
}

}   // namespace

void GpuEnergy::integrate(const GpuTimeline &gpu, GpuEnergyResult &out)
{
    const qsizetype n = std::min(gpu.seconds.size(), gpu.powerW.size());
    const double maxStep = kGapPeriods * medianPeriod(gpu.seconds);
    double joules = 0;
    qint64 used = 0;
    for (qsizetype i = 1; i < n; ++i) {
        const double dt = gpu.seconds[i] - gpu.seconds[i - 1];
        const double p0 = gpu.powerW[i - 1], p1 = gpu.powerW[i];
        if (!(dt > 0) || std::isnan(p0) || std::isnan(p1))
            continue;
        if (dt > maxStep) {
            ++out.gaps;
            continue;
        }
        joules += (p0 + p1) / 2.0 * dt;
        out.coveredSeconds += dt;
        ++used;
    }
    if (used == 0)
        return;
    out.joules = out.joules.value_or(0) + joules;
    out.intervals += used;
    ++out.gpusWithPower;
}

GpuEnergyResult GpuEnergy::integrate(const GpuSampleSummary &samples)
{
    GpuEnergyResult out;
    for (const GpuTimeline &g : samples.gpus)
        integrate(g, out);
    return out;
}

}   // namespace scalelab
