// SPDX-License-Identifier: GPL-3.0-or-later
// ScalingAnalysis: speedup, efficiency, the Amdahl fit and the advice text.
#include "core/analysis/RunOverlaps.h"
#include "core/analysis/ScalingAnalysis.h"

#include <QTest>

#include <cmath>

using namespace scalelab;

namespace {

ScalingRun run(int gpus, double runtime, std::optional<double> util = std::nullopt,
               std::optional<double> acc = std::nullopt)
{
    ScalingRun r;
    r.gpus = gpus;
    r.runtimeSeconds = runtime;
    r.meanGpuUtilPercent = util;
    r.accuracy = acc;
    return r;
}

bool near(double a, double b, double eps = 1e-9)
{
    return std::abs(a - b) < eps;
}

// Amdahl's law with T1 = 100 s.
double amdahl(double s, int n)
{
    return 100.0 * (s + (1.0 - s) / n);
}

}   // namespace

class TstScaling : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void perfectScaling();
    void amdahlSerialTenth();
    void amdahlWithNoise();
    void thresholdChoosesCount();
    void slowdownAllCounts();
    void slowdownRecordedExample();
    void barelyFaster();
    void belowThresholdKeepsBaseline();
    void singleRun();
    void noUsableRuns();
    void failedAndMissingRunsLeftOut();
    void lowUtilisationWarning();
    void accuracyDropWarning();
    void baselineNotOneGpu();
    void throughputBasis();
    void repeatedRunsAveraged();
    void seedHorovodRuns();
    void recordedGpuHoursUsedWhenMeasured();
    void twoGpuCountsGiveNoFit();
    void repeatsUseMedianAndRange();
    void overlapOnSharedNodes();
};

void TstScaling::perfectScaling()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100), run(2, 50), run(4, 25), run(8, 12.5)});
    QCOMPARE(a.points().size(), 4);
    QCOMPARE(a.baselineGpus(), 1);
    for (const ScalingPoint &p : a.points()) {
        QVERIFY(near(p.speedup, p.gpus));
        QVERIFY(near(p.efficiency, 1.0));
        QVERIFY(near(*p.gpuHours, 100.0 / 3600));   // same GPU-hours at every count
    }
    QVERIFY(a.amdahl());
    QVERIFY(near(a.amdahl()->serialFraction, 0.0, 1e-9));
    QVERIFY(near(*a.amdahl()->t1Seconds, 100.0, 1e-9));
    QVERIFY(near(a.amdahl()->r2, 1.0));
    QCOMPARE(a.amdahl()->points, 4);
    QCOMPARE(a.predictions().size(), 2);
    QCOMPARE(a.predictions()[0].gpus, 16);
    QCOMPARE(a.predictions()[1].gpus, 32);
    QVERIFY(near(*a.predictions()[0].runtimeSeconds, 6.25, 1e-9));
    QVERIFY(a.predictions()[0].predicted);
    QCOMPARE(a.recommendedGpus(), 8);
    QVERIFY(!a.tooSmallToScale());
    QCOMPARE(a.summary(), QStringLiteral("8 GPUs: 8× at 100 % efficiency; 16 GPUs would add about 100 % speed for "
                                         "1× the GPU-hours (Amdahl estimate, serial fraction 0.00)."));
    QVERIFY(a.warnings().isEmpty());
    QCOMPARE(a.advice(), a.summary());
}

void TstScaling::amdahlSerialTenth()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze(
        {run(1, amdahl(0.1, 1)), run(2, amdahl(0.1, 2)), run(4, amdahl(0.1, 4)), run(8, amdahl(0.1, 8))});
    QVERIFY(near(a.amdahl()->serialFraction, 0.1, 1e-9));
    QVERIFY(near(*a.amdahl()->t1Seconds, 100.0, 1e-9));
    QVERIFY(near(a.amdahl()->r2, 1.0, 1e-12));
    QVERIFY(near(a.points()[2].speedup, 100.0 / 32.5));
    QVERIFY(near(a.points()[2].efficiency, 100.0 / 32.5 / 4));
    QVERIFY(near(*a.predictions()[0].runtimeSeconds, amdahl(0.1, 16), 1e-9));
    QVERIFY(near(*a.predictions()[1].runtimeSeconds, amdahl(0.1, 32), 1e-9));
    // 4 GPUs: 3.08x at 77 %; 8 GPUs: 4.71x at 59 % (below 70 %), measured.
    QCOMPARE(a.recommendedGpus(), 4);
    QCOMPARE(a.summary(),
             QStringLiteral("4 GPUs: 3.1× at 77 % efficiency; 8 GPUs gave 53 % more speed for 1.3× the GPU-hours."));
}

void TstScaling::amdahlWithNoise()
{
    const double noise[] = {1.02, 0.985, 1.01, 0.99, 1.015};
    QList<ScalingRun> runs;
    int i = 0;
    for (int n : {1, 2, 4, 8, 16})
        runs.append(run(n, amdahl(0.1, n) * noise[i++]));
    const ScalingAnalysis a = ScalingAnalysis::analyze(runs);
    QVERIFY2(std::abs(a.amdahl()->serialFraction - 0.1) < 0.02,
             qPrintable(QString::number(a.amdahl()->serialFraction)));
    QVERIFY(a.amdahl()->r2 > 0.98);
    QVERIFY(a.amdahl()->r2 < 1.0);
}

void TstScaling::thresholdChoosesCount()
{
    const QList<ScalingRun> runs{run(1, amdahl(0.1, 1)), run(2, amdahl(0.1, 2)), run(4, amdahl(0.1, 4)),
                                 run(8, amdahl(0.1, 8))};
    QCOMPARE(ScalingAnalysis::analyze(runs, 0.9).recommendedGpus(), 2);   // 91 %
    QCOMPARE(ScalingAnalysis::analyze(runs, 0.5).recommendedGpus(), 8);   // 59 %
    QCOMPARE(ScalingAnalysis::analyze(runs, 0.95).recommendedGpus(), 1);
    QCOMPARE(ScalingAnalysis::analyze(runs, 0.5).efficiencyThreshold(), 0.5);
}

void TstScaling::slowdownAllCounts()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100), run(2, 120), run(4, 150)});
    QVERIFY(a.tooSmallToScale());
    QCOMPARE(a.recommendedGpus(), 1);
    QVERIFY(!a.amdahl());   // runtime grows: Amdahl's law does not describe it
    QVERIFY(a.predictions().isEmpty());
    QVERIFY(a.points()[1].speedup < 1.0);
    QCOMPARE(a.summary(), QStringLiteral("More GPUs made this job slower than on 1 GPU: 2 GPUs (0.8×), 4 GPUs (0.7×); "
                                         "the model is too small to scale: use 1 GPU."));
}

// The example on this 2-core machine: 2 processes train slower than 1
// (tests/data/ingest/ddp-digits-{1,2}proc.out: train_time_s 2.826 and 3.301).
void TstScaling::slowdownRecordedExample()
{
    const ScalingAnalysis a =
        ScalingAnalysis::analyze({run(1, 2.826, std::nullopt, 0.975), run(2, 3.301, std::nullopt, 0.9778)});
    QVERIFY(a.tooSmallToScale());
    QVERIFY(a.summary().contains(QLatin1String("slower")));
    QVERIFY(a.summary().contains(QStringLiteral("2 GPUs (0.9×)")));
    QVERIFY(a.summary().contains(QLatin1String("use 1 GPU")));
    QVERIFY(!a.summary().contains(QLatin1String("efficiency")));
}

void TstScaling::barelyFaster()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100), run(2, 95), run(4, 110)});
    QVERIFY(a.tooSmallToScale());
    QCOMPARE(a.summary(), QStringLiteral("2 GPUs gave only 1.1× the speed of 1 GPU and 4 GPUs (0.9×) was slower: "
                                         "the model is too small to scale: use 1 GPU."));
    const ScalingAnalysis b = ScalingAnalysis::analyze({run(1, 100), run(2, 92)});
    QCOMPARE(b.summary(),
             QStringLiteral("2 GPUs gave only 1.1× the speed of 1 GPU: the model is too small to scale: use 1 GPU."));
}

void TstScaling::belowThresholdKeepsBaseline()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100), run(2, 75)});
    QCOMPARE(a.recommendedGpus(), 1);
    QVERIFY(!a.tooSmallToScale());
    QCOMPARE(a.summary(),
             QStringLiteral("Use 1 GPU: 2 GPUs reached 1.3× at 67 % efficiency, below the 70 % threshold."));
}

void TstScaling::singleRun()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(4, 300)});
    QCOMPARE(a.points().size(), 1);
    QCOMPARE(a.recommendedGpus(), 4);
    QVERIFY(!a.amdahl());
    QVERIFY(a.predictions().isEmpty());
    QCOMPARE(
        a.summary(),
        QStringLiteral("Only the 4-GPU run can be compared: run the same job on 8 GPUs to see whether it scales."));
}

void TstScaling::noUsableRuns()
{
    ScalingRun failed = run(2, 10);
    failed.failed = true;
    failed.state = QStringLiteral("TIMEOUT");
    for (const QList<ScalingRun> &runs : {QList<ScalingRun>{}, QList<ScalingRun>{failed}}) {
        const ScalingAnalysis a = ScalingAnalysis::analyze(runs);
        QCOMPARE(a.recommendedGpus(), 0);
        QCOMPARE(a.baselineGpus(), 0);
        QVERIFY(a.summary().startsWith(QLatin1String("No finished run to compare")));
    }
    const ScalingAnalysis a = ScalingAnalysis::analyze({failed});
    QVERIFY(a.advice().contains(QLatin1String("2 GPUs ended TIMEOUT")));
}

void TstScaling::failedAndMissingRunsLeftOut()
{
    ScalingRun failed = run(8, 5);
    failed.label = QStringLiteral("job 61");
    failed.failed = true;
    failed.state = QStringLiteral("FAILED");
    ScalingRun noTiming;
    noTiming.gpus = 16;
    noTiming.label = QStringLiteral("job 62");
    ScalingRun noGpus = run(0, 10);
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100), run(2, 50), failed, noTiming, noGpus});
    QCOMPARE(a.points().size(), 2);
    QCOMPARE(a.diagnostics().size(), 3);
    for (const Diagnostic &d : a.diagnostics())
        QCOMPARE(d.severity, Severity::Warning);
    QCOMPARE(a.recommendedGpus(), 2);
    QVERIFY(a.advice().startsWith(a.summary()));
    QVERIFY(a.advice().contains(QLatin1String("job 61 (8 GPUs) ended FAILED")));
    QVERIFY(a.advice().contains(QLatin1String("job 62 (16 GPUs): no runtime or throughput")));
    QVERIFY(a.warnings().last().startsWith(QLatin1String("Left out:")));
}

void TstScaling::lowUtilisationWarning()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100, 85.0), run(2, 52, 60.0), run(4, 30, 35.4)});
    QCOMPARE(a.warnings().size(), 1);
    QVERIFY(a.warnings()[0].contains(QLatin1String("below 50 %")));
    QVERIFY(a.warnings()[0].contains(QLatin1String("35 % on 4 GPUs")));
    QVERIFY(!a.warnings()[0].contains(QLatin1String("2 GPUs")));
    QCOMPARE(*a.points()[2].meanGpuUtilPercent, 35.4);
    const ScalingAnalysis ok = ScalingAnalysis::analyze({run(1, 100, 85.0), run(2, 52, 80.0)});
    QCOMPARE(ok.warnings(), QStringList{ok.noFitReason()});   // two GPU counts: only why there is no fit
}

void TstScaling::accuracyDropWarning()
{
    const ScalingAnalysis a =
        ScalingAnalysis::analyze({run(1, 100, std::nullopt, 0.99), run(4, 27, std::nullopt, 0.95)});
    QCOMPARE(a.recommendedGpus(), 4);
    QCOMPARE(a.warnings().size(), 2);   // and why there is no fit
    QVERIFY(a.warnings()[0].contains(QLatin1String("Accuracy fell from 0.990 on 1 GPU to 0.950 on 4 GPUs")));
    const ScalingAnalysis same =
        ScalingAnalysis::analyze({run(1, 100, std::nullopt, 0.9926), run(4, 27, std::nullopt, 0.9936)});
    QCOMPARE(same.warnings(), QStringList{same.noFitReason()});
}

void TstScaling::baselineNotOneGpu()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(2, 100), run(4, 55), run(8, 30)});
    QCOMPARE(a.baselineGpus(), 2);
    QVERIFY(near(a.points()[1].speedup, 100.0 / 55));
    QVERIFY(near(a.points()[2].efficiency, 100.0 / 30 * 2 / 8));   // 83 %
    QCOMPARE(a.recommendedGpus(), 8);
    QVERIFY2(a.summary().startsWith(
                 QStringLiteral("8 GPUs: 3.3× the speed of 2 GPUs at 83 % efficiency; 16 GPUs would add")),
             qPrintable(a.summary()));
}

void TstScaling::throughputBasis()
{
    QList<ScalingRun> runs;
    for (auto [n, thr] : {std::pair{1, 1000.0}, std::pair{2, 1900.0}, std::pair{4, 3400.0}}) {
        ScalingRun r;
        r.gpus = n;
        r.throughput = thr;
        runs.append(r);
    }
    const ScalingAnalysis a = ScalingAnalysis::analyze(runs);
    QCOMPARE(a.basis(), ScalingBasis::Throughput);
    QVERIFY(near(a.points()[2].speedup, 3.4));
    QVERIFY(near(a.points()[2].efficiency, 0.85));
    QVERIFY(a.amdahl());
    QVERIFY(!a.amdahl()->t1Seconds);   // no runtimes were fitted
    QVERIFY(a.predictions()[0].throughput);
    QVERIFY(!a.predictions()[0].runtimeSeconds);
    QVERIFY(!a.points()[0].gpuHours);   // not known from throughput alone
    QCOMPARE(a.recommendedGpus(), 4);
    QVERIFY2(a.summary().startsWith(QStringLiteral("4 GPUs: 3.4× at 85 % efficiency; 8 GPUs would add about")),
             qPrintable(a.summary()));
}

void TstScaling::repeatedRunsAveraged()
{
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 110), run(1, 90), run(2, 50)});
    QCOMPARE(a.points().size(), 2);
    QCOMPARE(a.points()[0].runs, 2);
    QCOMPARE(*a.points()[0].runtimeSeconds, 100.0);
    QVERIFY(near(a.points()[1].speedup, 2.0));
}

// Seed 002: Horovod + Keras, train time 472.7 s on 1 GPU, 124.7 s on 4.
void TstScaling::seedHorovodRuns()
{
    const ScalingAnalysis a =
        ScalingAnalysis::analyze({run(1, 472.6957468986511, 30.0, 0.9926), run(4, 124.74971508979797, 70.0, 0.9936)});
    QCOMPARE(a.recommendedGpus(), 4);
    // Two points fit any two-parameter curve exactly: no fit, no R², no prediction.
    QVERIFY(!a.amdahl());
    QVERIFY(a.predictions().isEmpty());
    QCOMPARE(a.summary(), QStringLiteral("4 GPUs: 3.8× at 95 % efficiency."));
    QCOMPARE(a.warnings().size(), 2);   // 30 % utilisation on 1 GPU; why there is no fit
    QVERIFY(a.warnings()[0].contains(QLatin1String("30 % on 1 GPU")));
    QCOMPARE(a.warnings()[1], a.noFitReason());
}

void TstScaling::recordedGpuHoursUsedWhenMeasured()
{
    ScalingRun r4 = run(4, 100);
    r4.gpuHours = 0.2;   // sacct Elapsed includes start-up: more than 4 x 100 s
    ScalingRun r8 = run(8, 70);
    r8.gpuHours = 0.3;
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 380), r4, r8});
    QCOMPARE(*a.points()[1].gpuHours, 0.2);
    QCOMPARE(a.recommendedGpus(), 4);
    QVERIFY2(a.summary().contains(QStringLiteral("8 GPUs gave 43 % more speed for 1.5× the GPU-hours")),
             qPrintable(a.summary()));
}

void TstScaling::twoGpuCountsGiveNoFit()
{
    // The case: a fit through two points drawn out to 8 GPUs with "R² 1.000".
    const ScalingAnalysis a = ScalingAnalysis::analyze({run(1, 100), run(2, 60)});
    QVERIFY(!a.amdahl());
    QVERIFY(a.predictions().isEmpty());
    QCOMPARE(a.noFitReason(),
             QStringLiteral("No Amdahl fit, R² or prediction: 2 GPU counts (1 and 2) fit any two-parameter curve "
                            "exactly, so the fit would say nothing; complete runs at 3 or more GPU counts for one."));
    QVERIFY(a.warnings().contains(a.noFitReason()));
    QVERIFY(!a.summary().contains(QLatin1String("Amdahl")));
    // A third GPU count, and the fit is back.
    const ScalingAnalysis b = ScalingAnalysis::analyze({run(1, 100), run(2, 60), run(4, 40)});
    QVERIFY(b.amdahl());
    QCOMPARE(b.amdahl()->points, 3);
    QCOMPARE(b.noFitReason(), QString());
    // Repeats do not count as GPU counts.
    const ScalingAnalysis c = ScalingAnalysis::analyze({run(1, 100), run(1, 101), run(2, 60), run(2, 61)});
    QVERIFY(!c.amdahl());
}

void TstScaling::repeatsUseMedianAndRange()
{
    // The case: two identical 1-GPU runs took 4.17 s and 1.81 s.
    const ScalingAnalysis a =
        ScalingAnalysis::analyze({run(1, 4.17), run(1, 1.81), run(2, 1.0), run(2, 1.02), run(2, 1.04), run(4, 0.6)});
    QCOMPARE(a.points().size(), 3);
    const ScalingPoint &p1 = a.points()[0];
    QCOMPARE(p1.runs, 2);
    QVERIFY(near(*p1.runtimeSeconds, 2.99));   // median of two = their mean
    QCOMPARE(*p1.runtimeMin, 1.81);
    QCOMPARE(*p1.runtimeMax, 4.17);
    QVERIFY(near(p1.spread, (4.17 - 1.81) / 2.99));
    const ScalingPoint &p2 = a.points()[1];
    QCOMPARE(*p2.runtimeSeconds, 1.02);   // median of three: the middle one
    QVERIFY(near(p2.speedup, 2.99 / 1.02));
    QVERIFY(near(p2.speedupMin, 2.99 / 1.04));
    QVERIFY(near(p2.speedupMax, 2.99 / 1.0));
    QVERIFY(near(p2.spread, 0.04 / 1.02));   // 3.9 %: not flagged
    QCOMPARE(a.usedRuns(), 6);
    QStringList noisy;
    for (const QString &w : a.warnings())
        if (w.startsWith(QLatin1String("Noisy timings")))
            noisy << w;
    QCOMPARE(noisy.size(), 1);
    QCOMPARE(noisy[0], QStringLiteral("Noisy timings: the runtimes of repeats differ by more than 10 % of their median "
                                      "(1 GPU 79 % across 2 runs (1.81–4.17 s)); the charts show the median and the "
                                      "min–max range; more repeats or runs one at a time give steadier numbers."));
}

void TstScaling::overlapOnSharedNodes()
{
    auto at = [](int gpus, double t, const QString &label, const QString &start, const QString &end,
                 const QString &nodes) {
        ScalingRun r = run(gpus, t);
        r.label = label;
        r.start = start;
        r.end = end;
        r.nodes = {nodes};
        return r;
    };
    // Job 11 and 12 share tb-node2 for 30 s; job 13 ran after; job 14 ran at the same time on other nodes.
    const QList<ScalingRun> runs{
        at(1, 100, QStringLiteral("job 11"), QStringLiteral("2024-05-01T10:00:00"),
           QStringLiteral("2024-05-01T10:01:40"), QStringLiteral("tb-node2")),
        at(2, 50, QStringLiteral("job 12"), QStringLiteral("2024-05-01T10:01:10"),
           QStringLiteral("2024-05-01T10:02:00"), QStringLiteral("tb-node[1-2]")),
        at(4, 25, QStringLiteral("job 13"), QStringLiteral("2024-05-01T10:02:00"),
           QStringLiteral("2024-05-01T10:02:25"), QStringLiteral("tb-node[1-2]")),
        at(2, 50, QStringLiteral("job 14"), QStringLiteral("2024-05-01T10:00:00"),
           QStringLiteral("2024-05-01T10:00:50"), QStringLiteral("tb-node[03,07]")),
    };
    const QList<RunOverlap> o = RunOverlaps::find(runs);
    QCOMPARE(o.size(), 1);
    QCOMPARE(o[0].first, QStringLiteral("job 11"));
    QCOMPARE(o[0].second, QStringLiteral("job 12"));
    QCOMPARE(o[0].nodes, QStringList{QStringLiteral("tb-node2")});
    QCOMPARE(o[0].seconds, 30);
    const ScalingAnalysis a = ScalingAnalysis::analyze(runs);
    QVERIFY(a.warnings().contains(QStringLiteral("Runs overlapped on shared nodes and may have slowed each other: "
                                                 "job 11 and job 12 on tb-node2 for 30 s. Run the study one at a "
                                                 "time for clean timings.")));
    // One at a time (job 13 starts when job 12 ends): no overlap.
    QVERIFY(RunOverlaps::find({runs[1], runs[2]}).isEmpty());
}

QTEST_GUILESS_MAIN(TstScaling)
#include "tst_scaling.moc"
