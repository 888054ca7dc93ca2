// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/GpuSampleSummary.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

// Mean and peak of one sensor's samples; NaN (not sampled) left out.
void sensorSummary(const QVector<double> &v, std::optional<double> &mean, std::optional<double> &peak)
{
    double sum = 0, top = 0;
    qint64 n = 0;
    for (double x : v)
        if (!std::isnan(x)) {
            top = n ? std::max(top, x) : x;
            sum += x;
            ++n;
        }
    mean = n ? std::optional<double>(sum / double(n)) : std::nullopt;
    peak = n ? std::optional<double>(top) : std::nullopt;
}

}   // namespace

const GpuTimeline *GpuSampleSummary::find(const QString &key) const
{
    for (const GpuTimeline &g : gpus)
        if (g.key == key)
            return &g;
    return nullptr;
}

void GpuSampleSummary::summarise()
{
    GpuSampleSummary &s = *this;
    std::sort(s.gpus.begin(), s.gpus.end(), [](const GpuTimeline &a, const GpuTimeline &b) {
        return a.host != b.host ? a.host < b.host : (a.index != b.index ? a.index < b.index : a.key < b.key);
    });
    double utilSum = 0, memSum = 0;
    qint64 utilN = 0, memN = 0;
    s.durationSeconds = 0;
    s.meanUtilPercent = s.peakUtilPercent = s.meanMemUsedMiB = s.peakMemUsedMiB = std::nullopt;
    for (GpuTimeline &g : s.gpus) {
        double gu = 0, gm = 0, pu = -1, pm = -1;
        qint64 nu = 0, nm = 0;
        for (qsizetype i = 0; i < g.seconds.size(); ++i) {
            const double u = g.utilPercent[i], m = g.memUsedMiB[i];
            if (!std::isnan(u)) {
                gu += u;
                ++nu;
                pu = std::max(pu, u);
            }
            if (!std::isnan(m)) {
                gm += m;
                ++nm;
                pm = std::max(pm, m);
            }
        }
        g.meanUtilPercent = nu ? std::optional<double>(gu / nu) : std::nullopt;
        g.peakUtilPercent = nu ? std::optional<double>(pu) : std::nullopt;
        g.meanMemUsedMiB = nm ? std::optional<double>(gm / nm) : std::nullopt;
        g.peakMemUsedMiB = nm ? std::optional<double>(pm) : std::nullopt;
        sensorSummary(g.tempC, g.meanTempC, g.peakTempC);
        sensorSummary(g.powerW, g.meanPowerW, g.peakPowerW);
        utilSum += gu;
        utilN += nu;
        memSum += gm;
        memN += nm;
        if (nu)
            s.peakUtilPercent = std::max(s.peakUtilPercent.value_or(pu), pu);
        if (nm)
            s.peakMemUsedMiB = std::max(s.peakMemUsedMiB.value_or(pm), pm);
        if (!g.seconds.isEmpty())
            s.durationSeconds = std::max(s.durationSeconds, g.seconds.back());
    }
    if (utilN)
        s.meanUtilPercent = utilSum / utilN;
    if (memN)
        s.meanMemUsedMiB = memSum / memN;
    if (s.rows > 0)
        s.noSamples = false;
}

}   // namespace scalelab
