// SPDX-License-Identifier: GPL-3.0-or-later
// StudyChartData: the numbers a study's charts draw (and the PDF report and
// `scalelab report --json` read): ideal lines from the baseline median, the
// Amdahl curve only from 3 or more GPU counts, medians with the ranges of
// repeats, incomplete runs, predictions, the threshold and the axis ranges.
#include "core/analysis/StudyChartData.h"
#include "core/analysis/StudyChartJson.h"
#include "core/model/MetricNames.h"

#include <QTest>

#include <cmath>

using namespace scalelab;

namespace {

// One run of a study: its job, state, GPU count and stored metrics.
RunMetricsRow row(qint64 id, int gpus, const QMap<QString, double> &values, JobState state = JobState::Completed)
{
    RunMetricsRow r;
    r.run.id = id;
    r.run.gpus = gpus;
    r.run.jobId = QString::number(500 + id);
    r.run.state = state;
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        r.metrics.insert(it.key(), MetricRecord{id, it.key(), it.value(), {}, metric::SourceLog});
    return r;
}

RunMetricsRow timed(qint64 id, int gpus, double seconds, JobState state = JobState::Completed)
{
    return row(id, gpus, {{metric::TrainTimeS, seconds}, {metric::GpuHours, gpus * seconds / 3600.0}}, state);
}

bool near(double a, double b, double eps = 1e-12)
{
    return std::abs(a - b) <= eps * std::max(1.0, std::abs(b));
}

// Amdahl's law with T1 = 100 s and a serial tenth.
double amdahl(int n)
{
    return 100.0 * (0.1 + 0.9 / n);
}

}   // namespace

class TstStudyChartData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void idealLinesFromBaselineMedian();
    void idealFromSmallestCountWhenNotOne();
    void amdahlOnlyFromThreeGpuCounts();
    void amdahlCurveAndPredictions();
    void repeatsAreMediansWithRanges();
    void incompleteRunsAreApart();
    void thresholdAcrossEfficiency();
    void axisRanges();
    void accuracyAxisShowsATenth();
    void costHasBillingAxis();
    void energyToSolutionMediansWithRanges();
    void emptyStudy();
    void overlapNoteOnTimingChartsOnly();
    void jsonCarriesTheSameNumbers();
};

void TstStudyChartData::idealLinesFromBaselineMedian()
{
    // 1 GPU: 100, 104 and 130 s (median 104, mean 111.3), 2 GPUs: 60 s, 4 GPUs: 35 s.
    QList<RunMetricsRow> rows{timed(1, 1, 100), timed(2, 1, 104), timed(5, 1, 130), timed(3, 2, 60), timed(4, 4, 35)};
    for (RunMetricsRow &r : rows)
        r.metrics.insert(metric::SamplesPerS,
                         MetricRecord{r.run.id, metric::SamplesPerS, 1000.0 / r.value(metric::TrainTimeS).value()});
    const StudyChartData d = StudyChartData::build(rows);
    const StudyChartPanel &rt = d.panel(StudyChart::Runtime);
    QCOMPARE(rt.metric, metric::TrainTimeS);
    QCOMPARE(rt.ideal.size(), 48);
    QCOMPARE(rt.ideal.first().gpus, 1.0);
    QCOMPARE(rt.ideal.first().value, 104.0);   // through the 1-GPU median
    QVERIFY(near(rt.ideal.last().gpus, 4.0));
    QVERIFY(near(rt.ideal.last().value, 104.0 / 4.0));
    const StudyChartPanel &sp = d.panel(StudyChart::Speedup);
    QCOMPARE(sp.baselineGpus, 1);
    QCOMPARE(sp.ideal.first().value, 1.0);
    // Three GPU counts: predictions at 8 and 16, and the ideal line reaches them.
    QVERIFY(near(sp.ideal.last().gpus, 16.0));
    QVERIFY(near(sp.ideal.last().value, 16.0));
    // Throughput: 1000/100, 1000/104 and 1000/130, median 1000/104 per GPU, linear.
    const StudyChartPanel &tp = d.panel(StudyChart::Throughput);
    const double median = 1000.0 / 104.0;
    QVERIFY(near(tp.ideal.first().value, median));
    QVERIFY(near(tp.ideal.last().value, median * 4.0));
    // No ideal line where it means nothing.
    QVERIFY(d.panel(StudyChart::Efficiency).ideal.isEmpty());
    QVERIFY(d.panel(StudyChart::Accuracy).ideal.isEmpty());
    QVERIFY(d.panel(StudyChart::Cost).ideal.isEmpty());
}

void TstStudyChartData::idealFromSmallestCountWhenNotOne()
{
    const StudyChartData d = StudyChartData::build({timed(1, 2, 100), timed(2, 4, 55), timed(3, 8, 30)});
    const StudyChartPanel &rt = d.panel(StudyChart::Runtime);
    QCOMPARE(rt.ideal.first().gpus, 2.0);
    QCOMPARE(rt.ideal.first().value, 100.0);
    QVERIFY(near(rt.ideal.last().value, 25.0));   // 100 s × 2 / 8
    const StudyChartPanel &sp = d.panel(StudyChart::Speedup);
    QCOMPARE(sp.baselineGpus, 2);
    QCOMPARE(sp.ideal.first().value, 1.0);
    QVERIFY(near(sp.measured[2].value, 100.0 / 30.0));
}

void TstStudyChartData::amdahlOnlyFromThreeGpuCounts()
{
    // Two GPU counts fit any two-parameter curve: no curve, no prediction.
    const StudyChartData two = StudyChartData::build({timed(1, 1, amdahl(1)), timed(2, 2, amdahl(2))});
    for (StudyChart c : {StudyChart::Speedup, StudyChart::Efficiency}) {
        QVERIFY(two.panel(c).amdahl.isEmpty());
        QVERIFY(!two.panel(c).serialFraction);
        QVERIFY(two.panel(c).predicted.isEmpty());
        QCOMPARE(two.panel(c).x.ticks, (QList<int>{1, 2}));
        QVERIFY(two.panel(c).x.upper < 4.0);   // ends near the largest measured count
    }
    // Repeats at two counts are still two counts.
    const StudyChartData repeated = StudyChartData::build(
        {timed(1, 1, amdahl(1)), timed(2, 1, amdahl(1) + 1), timed(3, 2, amdahl(2)), timed(4, 2, amdahl(2) + 1)});
    QVERIFY(repeated.panel(StudyChart::Speedup).amdahl.isEmpty());
    const StudyChartData three =
        StudyChartData::build({timed(1, 1, amdahl(1)), timed(2, 2, amdahl(2)), timed(3, 4, amdahl(4))});
    QVERIFY(!three.panel(StudyChart::Speedup).amdahl.isEmpty());
    QVERIFY(!three.panel(StudyChart::Efficiency).amdahl.isEmpty());
}

void TstStudyChartData::amdahlCurveAndPredictions()
{
    const StudyChartData d =
        StudyChartData::build({timed(1, 1, amdahl(1)), timed(2, 2, amdahl(2)), timed(3, 4, amdahl(4))});
    const StudyChartPanel &sp = d.panel(StudyChart::Speedup);
    QVERIFY(sp.serialFraction && near(*sp.serialFraction, 0.1, 1e-9));
    // The curve spans the GPU axis, predictions included (4 × 2 and 4 × 4).
    QCOMPARE(sp.x.ticks, (QList<int>{1, 2, 4, 8, 16}));
    QCOMPARE(d.panel(StudyChart::Runtime).x.ticks, (QList<int>{1, 2, 4}));
    QCOMPARE(sp.amdahl.first().gpus, 1.0);
    QVERIFY(near(sp.amdahl.first().value, 1.0, 1e-9));
    QVERIFY(near(sp.amdahl.last().gpus, 16.0));
    QVERIFY(near(sp.amdahl.last().value, 1.0 / (0.1 + 0.9 / 16.0), 1e-9));
    QCOMPARE(sp.predicted.size(), 2);
    QCOMPARE(sp.predicted[0].gpus, 8.0);
    QVERIFY(near(sp.predicted[0].value, amdahl(1) / amdahl(8), 1e-9));
    QCOMPARE(sp.predicted[1].gpus, 16.0);
    // Efficiency: the same curve divided by the GPU ratio.
    const StudyChartPanel &ef = d.panel(StudyChart::Efficiency);
    QVERIFY(near(ef.amdahl.last().value, 1.0 / (0.1 + 0.9 / 16.0) / 16.0, 1e-9));
    QVERIFY(near(ef.predicted[0].value, amdahl(1) / amdahl(8) / 8.0, 1e-9));
    // No predictions on the measured-only charts.
    QVERIFY(d.panel(StudyChart::Runtime).predicted.isEmpty());
    QVERIFY(d.panel(StudyChart::Runtime).amdahl.isEmpty());
}

void TstStudyChartData::repeatsAreMediansWithRanges()
{
    const StudyChartData d = StudyChartData::build({timed(1, 1, 4.17), timed(2, 1, 1.81), timed(3, 2, 1.5)});
    const StudyChartPanel &rt = d.panel(StudyChart::Runtime);
    QVERIFY(rt.repeats());
    QCOMPARE(rt.measured.size(), 2);
    QCOMPARE(rt.measured[0].gpus, 1.0);
    QVERIFY(near(rt.measured[0].value, 2.99));
    QCOMPARE(rt.measured[0].low, 1.81);
    QCOMPARE(rt.measured[0].high, 4.17);
    QCOMPARE(rt.measured[0].runs, 2);
    QCOMPARE(rt.measured[0].runIds, (QList<qint64>{2, 1}));   // by value
    QCOMPARE(rt.measured[1].low, 1.5);
    QCOMPARE(rt.measured[1].high, 1.5);
    // Speedup against the 1-GPU median; its range from the slowest and fastest repeat.
    const StudyChartPanel &sp = d.panel(StudyChart::Speedup);
    QVERIFY(near(sp.measured[1].value, 2.99 / 1.5));
    QVERIFY(near(sp.measured[0].low, 2.99 / 4.17));
    QVERIFY(near(sp.measured[0].high, 2.99 / 1.81));
    QCOMPARE(sp.measured[0].runs, 2);
    const StudyChartPanel &ef = d.panel(StudyChart::Efficiency);
    QVERIFY(near(ef.measured[1].value, 2.99 / 1.5 / 2.0));
    // No repeats: no ranges.
    QVERIFY(!StudyChartData::build({timed(1, 1, 4), timed(2, 2, 2)}).panel(StudyChart::Runtime).repeats());
}

void TstStudyChartData::incompleteRunsAreApart()
{
    RunMetricsRow cancelled = timed(4, 2, 0.9, JobState::Cancelled);
    RunMetricsRow neverSent = timed(5, 4, 0.5);
    neverSent.run.jobId.clear();
    const StudyChartData d =
        StudyChartData::build({timed(1, 1, 4.17), timed(2, 1, 1.81), timed(3, 2, 1.5), cancelled, neverSent});
    for (StudyChart c : {StudyChart::Runtime, StudyChart::Cost}) {
        const StudyChartPanel &p = d.panel(c);
        QCOMPARE(p.incomplete.size(), 1);
        QCOMPARE(p.incomplete[0].gpus, 2.0);
        QCOMPARE(p.incomplete[0].runIds, QList<qint64>{4});
        QCOMPARE(p.incomplete[0].jobId, QStringLiteral("504"));
        QCOMPARE(p.incomplete[0].state, QStringLiteral("CANCELLED"));
        QCOMPARE(p.measured.size(), 2);   // completed runs only, the unsent one not at all
    }
    QCOMPARE(d.panel(StudyChart::Runtime).incomplete[0].value, 0.9);
    QCOMPARE(d.panel(StudyChart::Runtime).measured[1].value, 1.5);
    QVERIFY(d.panel(StudyChart::Speedup).incomplete.isEmpty());
    QCOMPARE(d.panel(StudyChart::Runtime).x.ticks, (QList<int>{1, 2}));   // the unsent 4 GPUs is no tick
    // A study with only incomplete runs is not empty: they are drawn.
    const StudyChartData only = StudyChartData::build({timed(1, 2, 3.0, JobState::Failed)});
    QVERIFY(!only.panel(StudyChart::Runtime).empty);
    QVERIFY(only.panel(StudyChart::Speedup).empty);
}

void TstStudyChartData::thresholdAcrossEfficiency()
{
    const StudyChartData d = StudyChartData::build({timed(1, 1, 100), timed(2, 2, 60)}, 0.8);
    const StudyChartPanel &ef = d.panel(StudyChart::Efficiency);
    QCOMPARE(ef.threshold.size(), 2);
    QCOMPARE(ef.threshold[0].value, 0.8);
    QCOMPARE(ef.threshold[1].value, 0.8);
    QCOMPARE(ef.threshold[0].gpus, 1.0 / 1.3);   // beyond both ends of the GPU axis
    QCOMPARE(ef.threshold[1].gpus, 2.0 * 1.3);
    QVERIFY(d.panel(StudyChart::Speedup).threshold.isEmpty());
    QCOMPARE(d.threshold(), 0.8);
    QCOMPARE(d.analysis().efficiencyThreshold(), 0.8);
}

void TstStudyChartData::axisRanges()
{
    const StudyChartData d = StudyChartData::build({timed(1, 1, 4.17), timed(2, 1, 1.81), timed(3, 2, 1.5)});
    const StudyChartPanel &rt = d.panel(StudyChart::Runtime);
    // X: a tick per count, a little beyond both ends; one count still spans a doubling.
    QCOMPARE(rt.x.ticks, (QList<int>{1, 2}));
    QCOMPARE(rt.x.lower, 1.0 / 1.4);
    QCOMPARE(rt.x.upper, 2.0 * 1.4);
    // Y: from zero to the highest value drawn (the top of the 1-GPU range) plus 8 %.
    QCOMPARE(rt.y.lower, 0.0);
    QVERIFY(near(rt.y.upper, 4.17 * 1.08));
    const StudyChartData one = StudyChartData::build({timed(1, 4, 10)});
    QCOMPARE(one.panel(StudyChart::Runtime).x.lower, 4.0 / 1.4);
    QCOMPARE(one.panel(StudyChart::Runtime).x.upper, 8.0 * 1.4);
    QVERIFY(!one.panel(StudyChart::Runtime).y2);
}

void TstStudyChartData::accuracyAxisShowsATenth()
{
    // 0.9806 vs 0.9833 (about 1/360): the axis spans at least 0.1 and stops at 1.
    const StudyChartData d =
        StudyChartData::build({row(1, 1, {{metric::TrainTimeS, 4}, {metric::TestAccuracy, 0.9806}}),
                               row(2, 2, {{metric::TrainTimeS, 2}, {metric::TestAccuracy, 0.9833}})});
    const StudyChartPanel &acc = d.panel(StudyChart::Accuracy);
    QCOMPARE(acc.metric, metric::TestAccuracy);
    QVERIFY(acc.y.upper - acc.y.lower >= 0.1 - 1e-9);
    QCOMPARE(acc.y.upper, 1.0);
    QVERIFY(acc.y.lower > 0.5);   // not from zero: accuracy is not a ratio to 0
    // Percentages stop at 100.
    const StudyChartData pct =
        StudyChartData::build({row(1, 1, {{metric::TrainTimeS, 4}, {metric::TestAccuracy, 98.06}}),
                               row(2, 2, {{metric::TrainTimeS, 2}, {metric::TestAccuracy, 98.33}})});
    QCOMPARE(pct.panel(StudyChart::Accuracy).y.upper, 100.0);
    QVERIFY(pct.panel(StudyChart::Accuracy).y.upper - pct.panel(StudyChart::Accuracy).y.lower >= 10.0 - 1e-9);
}

void TstStudyChartData::costHasBillingAxis()
{
    QList<RunMetricsRow> rows{timed(1, 1, 3600), timed(2, 2, 1800)};
    rows[0].metrics.insert(metric::BillingHours, MetricRecord{1, metric::BillingHours, 4});
    rows[1].metrics.insert(metric::BillingHours, MetricRecord{2, metric::BillingHours, 8});
    const StudyChartData d = StudyChartData::build(rows);
    const StudyChartPanel &cost = d.panel(StudyChart::Cost);
    QCOMPARE(cost.measured.size(), 2);
    QCOMPARE(cost.measured[0].value, 1.0);   // GPU-hours
    QCOMPARE(cost.billing.size(), 2);
    QVERIFY(cost.y2);
    QCOMPARE(cost.y2->lower, 0.0);
    QVERIFY(near(cost.y2->upper, 8.0 * 1.08));
    QVERIFY(near(cost.y.upper, 1.08));
}

void TstStudyChartData::energyToSolutionMediansWithRanges()
{
    // 1 GPU: 30, 36 and 31 Wh (median 31), 2 GPUs: 40 Wh; a cancelled 4-GPU run left 12 Wh.
    const auto energy = [](qint64 id, int gpus, double wh, JobState s = JobState::Completed) {
        return row(id, gpus, {{metric::TrainTimeS, 10}, {metric::EnergyWh, wh}}, s);
    };
    const StudyChartData d = StudyChartData::build({energy(1, 1, 30), energy(2, 1, 36), energy(3, 1, 31),
                                                    energy(4, 2, 40), energy(5, 4, 12, JobState::Cancelled)});
    const StudyChartPanel &e = d.panel(StudyChart::Energy);
    QCOMPARE(StudyChartData::id(StudyChart::Energy), QStringLiteral("energy"));
    QCOMPARE(e.metric, metric::EnergyWh);
    QVERIFY(!e.empty);
    QCOMPARE(e.measured.size(), 2);
    QCOMPARE(e.measured[0].gpus, 1.0);
    QCOMPARE(e.measured[0].value, 31.0);
    QCOMPARE(e.measured[0].low, 30.0);
    QCOMPARE(e.measured[0].high, 36.0);
    QCOMPARE(e.measured[0].runs, 3);
    QCOMPARE(e.measured[1].value, 40.0);
    QCOMPARE(e.incomplete.size(), 1);
    QCOMPARE(e.incomplete[0].value, 12.0);
    QVERIFY(e.ideal.isEmpty());
    QCOMPARE(e.y.lower, 0.0);
    QVERIFY(near(e.y.upper, 40.0 * 1.08));
    // Without energy stored the chart says so.
    QVERIFY(StudyChartData::build({timed(1, 1, 4)}).panel(StudyChart::Energy).empty);
    // `scalelab report --json` carries it as its last chart.
    const nlohmann::ordered_json j = studyChartJson(d);
    QCOMPARE(j["charts"].back()["id"].get<std::string>(), "energy");
    QCOMPARE(j["charts"].back()["measured"][0]["value"].get<double>(), 31.0);
    QCOMPARE(j["charts"].back()["measured"][0]["max"].get<double>(), 36.0);
}

void TstStudyChartData::emptyStudy()
{
    const StudyChartData d = StudyChartData::build({});
    for (StudyChart c : StudyChartData::all()) {
        const StudyChartPanel &p = d.panel(c);
        QVERIFY(p.empty);
        QVERIFY(p.ideal.isEmpty() && p.threshold.isEmpty() && p.amdahl.isEmpty() && p.measured.isEmpty());
        QCOMPARE(p.x.lower, 1.0 / 1.4);   // the axis still reads 1..8 GPUs
        QCOMPARE(p.x.upper, 8.0 * 1.4);
    }
    // Before build(): every chart reads as empty, nothing out of range.
    QVERIFY(StudyChartData().panel(StudyChart::Cost).measured.isEmpty());
}

void TstStudyChartData::overlapNoteOnTimingChartsOnly()
{
    // Two runs on node1 at the same time (sacct Start, End, NodeList).
    QList<RunMetricsRow> rows{timed(1, 1, 4), timed(2, 2, 2)};
    for (RunMetricsRow &r : rows) {
        SacctRecord a;
        a.jobId = r.run.jobId;
        a.state = JobState::Completed;
        a.stateText = QStringLiteral("COMPLETED");
        a.exitCode = QStringLiteral("0:0");
        a.start = QStringLiteral("2024-05-01T10:00:00");
        a.end = QStringLiteral("2024-05-01T10:00:04");
        a.nodeList = QStringLiteral("node1");
        r.accounting = a;
    }
    const StudyChartData d = StudyChartData::build(rows);
    QCOMPARE(d.analysis().overlaps().size(), 1);
    for (StudyChart c : StudyChartData::all())
        QCOMPARE(d.panel(c).overlapNote, c != StudyChart::Accuracy && c != StudyChart::Cost);
    // Apart: no note.
    rows[1].accounting->nodeList = QStringLiteral("node2");
    QVERIFY(!StudyChartData::build(rows).panel(StudyChart::Runtime).overlapNote);
}

void TstStudyChartData::jsonCarriesTheSameNumbers()
{
    const StudyChartData d = StudyChartData::build(
        {timed(1, 1, 4.17), timed(2, 1, 1.81), timed(3, 2, 1.5), timed(4, 2, 0.9, JobState::Cancelled)});
    const nlohmann::ordered_json j = studyChartJson(d);
    QCOMPARE(j["metrics"]["runtime"].get<std::string>(), "train_time_s");
    QCOMPARE(j["analysis"]["baseline_gpus"].get<int>(), 1);
    QVERIFY(j["analysis"]["amdahl"].is_null());
    QCOMPARE(j["charts"].size(), size_t(7));
    const auto &rt = j["charts"][0];
    QCOMPARE(rt["id"].get<std::string>(), "runtime");
    QCOMPARE(rt["measured"][0]["value"].get<double>(), d.panel(StudyChart::Runtime).measured[0].value);
    QCOMPARE(rt["measured"][0]["min"].get<double>(), 1.81);
    QCOMPARE(rt["measured"][0]["max"].get<double>(), 4.17);
    QCOMPARE(rt["incomplete"][0]["state"].get<std::string>(), "CANCELLED");
    QCOMPARE(rt["ideal"].size(), size_t(48));
    QCOMPARE(rt["axes"]["y"]["max"].get<double>(), d.panel(StudyChart::Runtime).y.upper);
    QCOMPARE(j["charts"][2]["threshold"].get<double>(), 0.7);
    QVERIFY(!j["charts"][1].contains("amdahl"));
}

QTEST_GUILESS_MAIN(TstStudyChartData)
#include "tst_studychartdata.moc"
