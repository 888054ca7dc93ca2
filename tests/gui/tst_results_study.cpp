// SPDX-License-Identifier: GPL-3.0-or-later
// Results' study charts never claim more than the runs show (the "honest"
// study of HonestStudy.h): what is drawn equals StudyChartData's numbers
// (hollow incomplete point, median with min–max bars, no fit, axes), the
// overlap note, a reload without changes redraws nothing, the epoch curves,
// and screenshots of the place at 1280×800 and 1100×680. The PDF, the exports
// and `scalelab report --json`: tst_results_report; the study dialog:
// tst_studydialog.

#include "HonestStudyPlace.h"
#include "ScreenshotDir.h"

#include "core/analysis/MetricGlossary.h"
#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/BackgroundPool.h"
#include "ui/results/EpochCurves.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/ResultsPlace.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/StudyCharts.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFontMetrics>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <tuple>

using namespace scalelab;

namespace {

QList<QCPGraphData> graphData(QCustomPlot *plot, const QString &name)
{
    QList<QCPGraphData> d;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->objectName() == name)
            for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
                d << *it;
    return d;
}

// The min–max bars drawn around `graph`, or null.
QCPErrorBars *barsOf(QCustomPlot *plot, const QString &graph)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPErrorBars *>(plot->plottable(i)))
            if (bars->dataPlottable() && bars->dataPlottable()->objectName() == graph)
                return bars;
    return nullptr;
}

// The graph `name` draws exactly `expected` (by GPU count), and its min–max
// bars (when the points carry ranges) the ranges of the repeats.
void compareDrawn(QCustomPlot *plot, const QString &name, QList<ChartPoint> expected, bool ranges = false)
{
    std::stable_sort(expected.begin(), expected.end(),
                     [](const ChartPoint &a, const ChartPoint &b) { return a.gpus < b.gpus; });
    const QList<QCPGraphData> drawn = graphData(plot, name);
    QCOMPARE(drawn.size(), expected.size());
    for (int i = 0; i < drawn.size(); ++i) {
        QCOMPARE(drawn[i].key, expected[i].gpus);
        QCOMPARE(drawn[i].value, expected[i].value);
    }
    QCPErrorBars *bars = barsOf(plot, name);
    QCOMPARE(bars != nullptr, ranges);
    if (!bars)
        return;
    QCOMPARE(bars->dataCount(), int(expected.size()));
    for (int i = 0; i < drawn.size(); ++i) {
        QCOMPARE(bars->data()->at(i).errorMinus, expected[i].value - expected[i].low);
        QCOMPARE(bars->data()->at(i).errorPlus, expected[i].high - expected[i].value);
    }
}

// Everything a chart draws is StudyChartData's: points, lines, ranges, axes.
void compareChart(QCustomPlot *plot, const StudyChartPanel &p)
{
    compareDrawn(plot, QStringLiteral("measured"), p.measured, p.repeats());
    if (QTest::currentTestFailed())
        return;
    const bool billingRanges =
        std::any_of(p.billing.begin(), p.billing.end(), [](const ChartPoint &b) { return b.runs > 1; });
    const QList<std::tuple<QString, QList<ChartPoint>, bool>> lines{
        {QStringLiteral("incomplete"), p.incomplete, false}, {QStringLiteral("ideal"), p.ideal, false},
        {QStringLiteral("amdahl"), p.amdahl, false},         {QStringLiteral("predicted"), p.predicted, false},
        {QStringLiteral("threshold"), p.threshold, false},   {QStringLiteral("billing"), p.billing, billingRanges}};
    for (const auto &[name, points, ranges] : lines) {
        compareDrawn(plot, name, points, ranges);
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(plot->xAxis->range().lower, p.x.lower);
    QCOMPARE(plot->xAxis->range().upper, p.x.upper);
    QList<double> ticks;
    for (int t : p.x.ticks)
        ticks << t;
    const QList<double> drawnTicks = qSharedPointerCast<QCPAxisTickerText>(plot->xAxis->ticker())->ticks().keys();
    QCOMPARE(drawnTicks, ticks);
    QCOMPARE(plot->yAxis->range().lower, p.y.lower);
    QCOMPARE(plot->yAxis->range().upper, p.y.upper);
    QCOMPARE(plot->yAxis2->visible(), p.y2.has_value());
    if (p.y2) {
        QCOMPARE(plot->yAxis2->range().lower, p.y2->lower);
        QCOMPARE(plot->yAxis2->range().upper, p.y2->upper);
    }
}

QStringList itemTexts(QCustomPlot *plot, const QString &name)
{
    QStringList out;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(plot->item(i)); t && t->objectName() == name)
            out << t->text();
    return out;
}

}   // namespace

class TestResultsStudy : public QObject {
    Q_OBJECT
private:
    test::HonestStudyPlace m_honest;
    QTemporaryDir &m_dir = m_honest.dir;
    std::unique_ptr<AppServices> &m_services = m_honest.services;
    std::unique_ptr<ResultsPlace> &m_place = m_honest.place;
    QList<qint64> &m_runs = m_honest.runs;
    qint64 &m_study = m_honest.study;

private Q_SLOTS:
    void initTestCase() { m_honest.open(); }

    void incompleteRunIsHollowAndLabelled()
    {
        StudyCharts *charts = m_place->charts();
        for (StudyChart c : {StudyChart::Runtime, StudyChart::Throughput, StudyChart::Accuracy, StudyChart::Cost,
                             StudyChart::Energy}) {
            QCustomPlot *plot = charts->chart(c);
            const QList<QCPGraphData> inc = graphData(plot, QStringLiteral("incomplete"));
            QCOMPARE(inc.size(), 1);
            QCOMPARE(inc[0].key, 2.0);
            // Hollow: an outline and no fill.
            for (int i = 0; i < plot->graphCount(); ++i)
                if (plot->graph(i)->objectName() == QLatin1String("incomplete"))
                    QCOMPARE(plot->graph(i)->scatterStyle().brush().style(), Qt::NoBrush);
            QCOMPARE(itemTexts(plot, QStringLiteral("incompleteLabel")), QStringList{QStringLiteral("CANCELLED")});
            // The measured line holds the completed runs only: 1 and 2 GPUs, one point each.
            QCOMPARE(graphData(plot, QStringLiteral("measured")).size(), 2);
        }
    }

    // The numbers themselves are tst_studychartdata's; here: what is drawn is
    // exactly StudyChartData's, on every chart.
    void drawnEqualsChartData()
    {
        StudyCharts *charts = m_place->charts();
        const StudyChartData &data = charts->data();
        for (StudyChart c : StudyChartBuilder::all()) {
            compareChart(charts->chart(c), data.panel(c));
            if (QTest::currentTestFailed())
                qWarning("on the %s chart", qPrintable(StudyChartBuilder::id(c)));
            QVERIFY(!QTest::currentTestFailed());
        }
        // This study: the repeated 1-GPU count has bars, the cancelled run is apart, no fit below 3 counts.
        QVERIFY(barsOf(charts->chart(StudyChart::Runtime), QStringLiteral("measured")));
        QVERIFY(barsOf(charts->chart(StudyChart::Speedup), QStringLiteral("measured")));
        QCOMPARE(data.panel(StudyChart::Runtime).incomplete.size(), 1);
        QVERIFY(barsOf(charts->chart(StudyChart::Energy), QStringLiteral("measured")));
        QVERIFY(data.panel(StudyChart::Speedup).amdahl.isEmpty());
        // The study's analysis is the one the charts were drawn from.
        QCOMPARE(&charts->analysis(), &data.analysis());
    }

    void noisyRepeatsAndNoFitAreSaid()
    {
        StudyCharts *charts = m_place->charts();
        bool flagged = false;
        for (const QString &w : charts->warningTexts())
            flagged = flagged || w.contains(QStringLiteral("1 GPU 79 % across 2 runs (1.81–4.17 s)"));
        QVERIFY2(flagged, qPrintable(charts->warningTexts().join(u'\n')));
        QVERIFY(charts->warningTexts().contains(
            QStringLiteral("No Amdahl fit, R² or prediction: 2 GPU counts (1 and 2) fit any two-parameter curve "
                           "exactly, so the fit would say nothing; complete runs at 3 or more GPU counts for one.")));
    }

    void overlapIsShown()
    {
        StudyCharts *charts = m_place->charts();
        QCOMPARE(charts->analysis().overlaps().size(), 1);
        QVERIFY(charts->warningTexts().contains(
            QStringLiteral("Runs overlapped on shared nodes and may have slowed each other: job 501 and job 502 on "
                           "tb-node1 for 2 s. Run the study one at a time for clean timings.")));
        for (StudyChart c : {StudyChart::Runtime, StudyChart::Speedup, StudyChart::Efficiency, StudyChart::Throughput})
            QCOMPARE(itemTexts(charts->chart(c), QStringLiteral("overlapNote")),
                     QStringList{QStringLiteral("⚠ runs overlapped on shared nodes")});
    }

    void aReloadAskedWhileATableIsHandedOverWaitsForIt()
    {
        // The pool thread is done but its table is not shown yet (the hand-over
        // waits in the event queue): a reload asked for then is done after it,
        // never beside it, so the newest table is the one shown last.
        const int started = m_place->wholeReadsStarted();
        QSignalSpy loaded(m_place.get(), &ResultsPlace::tableLoaded);
        m_place->reload();
        QVERIFY(backgroundPool().waitForDone(60000));
        m_place->reload();
        QCOMPARE(m_place->wholeReadsStarted(), started + 1);
        QVERIFY(m_place->isLoading());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QCOMPARE(m_place->wholeReadsStarted(), started + 2);
        QVERIFY(!m_place->isLoading());
    }

    void reloadWithoutChangesRedrawsNothing()
    {
        const int before = m_place->charts()->buildCount();
        QSignalSpy loaded(m_place.get(), &ResultsPlace::tableLoaded);
        m_place->reload();
        QVERIFY(loaded.wait(60000));
        QCOMPARE(m_place->charts()->buildCount(), before);
        // A changed value is drawn.
        MetricRecord m{m_runs[2], metric::TrainTimeS, 1.4, QStringLiteral("s"), metric::SourceLog};
        QCOMPARE(m_services->store().setMetric(m).errorText(), QString());
        m_place->reload();
        auto drawn = [this] {
            return graphData(m_place->charts()->chart(StudyChart::Runtime), QStringLiteral("measured")).value(1).value;
        };
        QTRY_COMPARE_WITH_TIMEOUT(drawn(), 1.4, 60000);
        const int after = m_place->charts()->buildCount();
        m.value = 1.5;   // restored before asserting: the later tests read 1.5
        QCOMPARE(m_services->store().setMetric(m).errorText(), QString());
        m_place->reload();
        QTRY_COMPARE_WITH_TIMEOUT(drawn(), 1.5, 60000);
        QVERIFY2(after > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    }

    void epochCurvesOverlayRuns()
    {
        EpochCurves *curves = m_place->epochCurves();
        m_place->selectRuns({m_runs[0], m_runs[2]});
        QTRY_VERIFY_WITH_TIMEOUT(!curves->isLoading(), 60000);
        QCustomPlot *loss = curves->lossPlot();
        QCOMPARE(loss->graphCount(), 2);
        QCOMPARE(loss->graph(1)->objectName(), QStringLiteral("run-%1").arg(m_runs[2]));
        QCOMPARE(loss->graph(1)->dataCount(), 3);
        QCOMPARE(loss->graph(1)->data()->at(2)->key, 3.0);
        QCOMPARE(loss->graph(1)->data()->at(2)->value, 0.3 / 2);
        QCOMPARE(loss->yAxis->label(), QStringLiteral("train_loss"));
        QCustomPlot *tput = curves->throughputPlot();
        QCOMPARE(tput->graphCount(), 2);
        QCOMPARE(tput->graph(0)->data()->at(1)->value, 100.0);
        // Against training time: epoch_time_s summed (4.17 / 3 per epoch for run 501).
        curves->xAxisCombo()->setCurrentIndex(1);
        QVERIFY(std::abs(loss->graph(0)->data()->at(2)->key - 4.17) < 1e-9);
        QCOMPARE(loss->xAxis->label(), QStringLiteral("training time [s]"));
        curves->xAxisCombo()->setCurrentIndex(0);
        // Its tooltip says where the throughput came from and that there are two.
        QVERIFY(tput->toolTip().contains(QLatin1String("mean of the per-epoch")));
        QVERIFY(metricDescription(metric::SamplesPerS).contains(QLatin1String("One of two throughputs")));
    }

    void screenshots()
    {
        m_place->selectRuns({});
        for (QSize size : {QSize(1280, 800), QSize(1100, 680)}) {
            m_place->resize(size);
            m_place->findChild<QTabWidget *>()->setCurrentIndex(0);
            QTest::qWait(200);
            const QImage shot = m_place->grab().toImage();
            QCOMPARE(shot.size(), size);
            QVERIFY(shot.save(
                test::screenshotPath(QStringLiteral("results-study-%1x%2.png").arg(size.width()).arg(size.height()))));
            // Every vertical axis label fits the height of its chart (at 1100×680
            // "efficiency (speedup / GPUs)" was cut at both ends).
            for (StudyChart c : StudyChartBuilder::all()) {
                QCustomPlot *plot = m_place->charts()->chart(c);
                for (QCPAxis *axis : {plot->yAxis, plot->yAxis2}) {
                    if (!axis->visible() || axis->label().isEmpty())
                        continue;
                    const int need = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label());
                    QVERIFY2(need <= plot->axisRect()->height(),
                             qPrintable(QStringLiteral("%1 at %2x%3: \"%4\" needs %5 px, the axis has %6")
                                            .arg(StudyChartBuilder::id(c))
                                            .arg(size.width())
                                            .arg(size.height())
                                            .arg(axis->label())
                                            .arg(need)
                                            .arg(plot->axisRect()->height())));
                }
            }
        }
        m_place->resize(1280, 800);
        m_place->selectRuns({m_runs[0], m_runs[1], m_runs[2], m_runs[3]});
        QTRY_VERIFY_WITH_TIMEOUT(!m_place->epochCurves()->isLoading(), 60000);
        m_place->findChild<QTabWidget *>()->setCurrentIndex(1);
        QTest::qWait(200);
        QVERIFY(m_place->grab().save(test::screenshotPath(QStringLiteral("results-epochs-1280x800.png"))));
        m_place->findChild<QTabWidget *>()->setCurrentIndex(0);
    }

    void cleanupTestCase()
    {
        m_honest.tester.reset();
        m_place.reset();
        m_services.reset();
    }
};

QTEST_MAIN(TestResultsStudy)
#include "tst_results_study.moc"
