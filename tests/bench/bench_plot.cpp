// SPDX-License-Identifier: GPL-3.0-or-later
// Replot cost of a GPU utilisation timeline: 8 GPUs x 48 h at 1 Hz
// (8 x 172,800 = 1.38 M points) against 10 k points, offscreen, through the
// explorer's own UtilisationTimeline (adaptive sampling, one-call fills).
// Prints timings and the ratio (target <= 3); it does not pass or fail.

#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/UtilisationTimeline.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace scalelab;

namespace {

UtilisationTimeline::Entry makeEntry(int gpus, int samplesPerGpu, double spacing)
{
    UtilisationTimeline::Entry e;
    e.runId = 1;
    e.label = QStringLiteral("bench run · %1 GPUs × %2 samples").arg(gpus).arg(samplesPerGpu);
    e.samples.noSamples = false;
    quint32 seed = 7;
    for (int g = 0; g < gpus; ++g) {
        GpuTimeline t;
        t.index = g;
        t.host = QStringLiteral("node1");
        t.key = QStringLiteral("node1:%1").arg(g);
        t.seconds.resize(samplesPerGpu);
        t.utilPercent.resize(samplesPerGpu);
        t.memUsedMiB.resize(samplesPerGpu);
        for (int i = 0; i < samplesPerGpu; ++i) {
            seed = seed * 1664525u + 1013904223u;
            t.seconds[i] = i * spacing;
            // The same 48 h signal at both sample rates (a slow swing per
            // hour plus sample noise), so only the point count differs.
            const double hours = t.seconds[i] / 3600.0;
            t.utilPercent[i] = 60 + 25 * std::sin(hours * 1.3 + g) + double(seed >> 28);
            t.memUsedMiB[i] = 9000 + g * 100;
        }
        e.samples.gpus << t;
    }
    e.samples.rows = qint64(gpus) * samplesPerGpu;
    return e;
}

struct Timing {
    double prepareMs = 0;   // level-of-detail pyramids (worker thread in the app)
    double fillMs = 0;   // GUI thread: charts built and filled
    double replotMs = 0;   // median
    qsizetype drawn = 0;   // points handed to one graph after level of detail
};

Timing measure(int gpus, int samplesPerGpu, double spacing, int repeats)
{
    UtilisationTimeline timeline;
    timeline.resize(1400, 420);
    UtilisationTimeline::Entry entry = makeEntry(gpus, samplesPerGpu, spacing);
    QElapsedTimer t;
    t.start();
    UtilisationTimeline::prepare(entry);   // what the loader's worker thread does
    Timing out;
    out.prepareMs = double(t.nsecsElapsed()) / 1e6;
    t.restart();
    timeline.setEntries({entry});
    out.fillMs = double(t.nsecsElapsed()) / 1e6;
    QCustomPlot *plot = timeline.plots().first();
    plot->resize(1400, 380);
    plot->replot(QCustomPlot::rpImmediateRefresh);   // warm-up (layout, caches)
    QList<double> times;
    for (int i = 0; i < repeats; ++i) {
        // Move the tracker as the mouse would, so every replot redraws everything.
        timeline.setTrackerX(double(i) * spacing * samplesPerGpu / repeats);
        t.restart();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        times << double(t.nsecsElapsed()) / 1e6;
    }
    std::sort(times.begin(), times.end());
    out.drawn = plot->graph(0)->data()->size();
    out.replotMs = times[times.size() / 2];
    return out;
}

}   // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int repeats = 15;
    // 10 k points: 8 GPUs x 1250 samples over the same 48 h (138 s spacing).
    const Timing small = measure(8, 1250, 48.0 * 3600 / 1250, repeats);
    // 1.4 M points: 8 GPUs x 172,800 samples at 1 Hz.
    const Timing big = measure(8, 172800, 1.0, repeats);
    std::printf("bench_plot: utilisation timeline replot, offscreen, 1400x380 px, median of %d\n", repeats);
    std::printf(
        "  10k points   (8 x 1250):    prepare %7.1f ms  fill %7.1f ms  replot %6.2f ms  (%lld points/graph drawn)\n",
        small.prepareMs, small.fillMs, small.replotMs, qint64(small.drawn));
    std::printf(
        "  1.38M points (8 x 172800):  prepare %7.1f ms  fill %7.1f ms  replot %6.2f ms  (%lld points/graph drawn)\n",
        big.prepareMs, big.fillMs, big.replotMs, qint64(big.drawn));
    std::printf("  replot ratio 1.38M / 10k = %.2f (target <= 3)\n", big.replotMs / std::max(small.replotMs, 1e-6));
    return 0;
}
