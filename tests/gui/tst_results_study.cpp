// SPDX-License-Identifier: GPL-3.0-or-later
// Results that never claim more than the runs show: a study with a repeated
// 1-GPU count (4.17 s and 1.81 s), a cancelled 2-GPU run, two runs that shared
// a node at the same time and only two distinct GPU counts. Checks the charts
// (what is drawn equals StudyChartData's numbers: hollow incomplete point,
// median with min–max bars, no fit, axes; the overlap note), the epoch curves, the PDF's text and rendering, the export
// choices, the Columns menu, the study dialog's repeats, order and single
// submit, and saves screenshots of the place at 1280×800 and 1100×680.

#include "CliRunner.h"
#include "IdleClusterService.h"
#include "ScreenshotDir.h"

#include "core/analysis/MetricGlossary.h"
#include "core/model/MetricNames.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/slurm/SacctParser.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/ClusterService.h"
#include "ui/compose/ScalingStudyDialog.h"
#include "ui/results/ChartExportDialog.h"
#include "ui/results/EpochCurves.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/ResultsPlace.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/ScalingReport.h"
#include "ui/results/StudyCharts.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFileInfo>
#include <QFontMetrics>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QTest>
#include <QTreeView>

#include <algorithm>
#include <tuple>

using namespace scalelab;

namespace {

// Records what the study dialog asks of the cluster layer.
class FakeClusters : public test::IdleClusterService {
public:
    using IdleClusterService::IdleClusterService;
    struct Call {
        QList<JobSpec> specs;
        QString name;
        StudyOrder order;
    };
    QList<Call> calls;
    void submit(const QList<JobSpec> &specs, const QString &studyName, StudyOrder order) override
    {
        calls.append({specs, studyName, order});
    }
};

struct Planned {
    int gpus;
    QString jobId, state, start, end, nodes;
    double trainTime, samples, accuracy;
};

QList<Planned> planned()
{
    return {
        {1, QStringLiteral("501"), QStringLiteral("COMPLETED"), QStringLiteral("2024-05-01T10:00:00"),
         QStringLiteral("2024-05-01T10:00:05"), QStringLiteral("tb-node1"), 4.17, 100, 0.9806},
        // Started with 501 on the same node: the overlap the report must name.
        {1, QStringLiteral("502"), QStringLiteral("COMPLETED"), QStringLiteral("2024-05-01T10:00:00"),
         QStringLiteral("2024-05-01T10:00:02"), QStringLiteral("tb-node1"), 1.81, 230, 0.9833},
        {2, QStringLiteral("503"), QStringLiteral("COMPLETED"), QStringLiteral("2024-05-01T10:01:00"),
         QStringLiteral("2024-05-01T10:01:02"), QStringLiteral("tb-node[1-2]"), 1.5, 270, 0.9806},
        {2, QStringLiteral("504"), QStringLiteral("CANCELLED by 1001"), QStringLiteral("2024-05-01T10:02:00"),
         QStringLiteral("2024-05-01T10:02:01"), QStringLiteral("tb-node2"), 0.9, 50, 0.5},
    };
}

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

QString pdfText(const QString &pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    // NFKC: ligatures ("ﬃ") and no-break spaces read as letters and spaces; word joiners dropped.
    return QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).remove(QChar(0x2060));
}

}   // namespace

class TestResultsStudy : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ResultsPlace> m_place;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QList<qint64> m_runs;
    qint64 m_study = 0;

    void fill()
    {
        RunStore &store = m_services->store();
        StudyRecord study;
        study.name = QStringLiteral("honest scaling");
        study.created = QDateTime(QDate(2024, 5, 1), QTime(9, 0), QTimeZone::utc());
        m_study = store.createStudy(study).value();
        // 160 characters: wrapped in the PDF with a marker.
        const QString longLine = QStringLiteral("srun python train.py --data ")
                                 + QStringLiteral("/scratch/project_2001234/a-long-dataset-path").repeated(3);
        for (const Planned &p : planned()) {
            RunRecord r;
            r.studyId = m_study;
            r.profile = QStringLiteral("testbed");
            r.clusterAlias = QStringLiteral("testbed");
            r.partition = QStringLiteral("gpu");
            r.gpus = p.gpus;
            r.nodes = 1;
            r.framework = QStringLiteral("pytorch-ddp");
            r.script = QStringLiteral("#!/bin/bash\n#SBATCH --gpus-per-node=%1\n%2\n").arg(p.gpus).arg(longLine);
            const qint64 id = store.createRun(r).value().id;
            QCOMPARE(store.markSubmitted(id, p.jobId).errorText(), QString());
            QCOMPARE(store.setSlurmVersion(id, QStringLiteral("22.05.11")).errorText(), QString());
            const QString text =
                QStringLiteral(
                    "JobID|JobName|State|ExitCode|Submit|Start|End|Elapsed|AllocTRES|NodeList\n"
                    "%1|honest|%2|0:0|2024-05-01T09:59:30|%3|%4|00:00:05|billing=4,cpu=4,gres/gpu=%5,node=1|%6\n")
                    .arg(p.jobId, p.state, p.start, p.end)
                    .arg(p.gpus)
                    .arg(p.nodes);
            const SacctParseResult parsed = SacctParser::parseWithHeader(text.toUtf8());
            QVERIFY(!parsed.records.isEmpty());
            QCOMPARE(store.recordFinal(id, parsed.records.first()).errorText(), QString());
            auto metric = [&](const QString &name, double v, const QString &unit) {
                MetricRecord m{id, name, v, unit, metric::SourceLog};
                m.file = QStringLiteral("/data/runs/%1/scalelab-%2.out").arg(id).arg(p.jobId);
                m.line = 12;
                m.rule = QStringLiteral("pytorch.example.") + name;
                QCOMPARE(store.setMetric(m).errorText(), QString());
            };
            metric(metric::TrainTimeS, p.trainTime, QStringLiteral("s"));
            metric(metric::SamplesPerS, p.samples, QStringLiteral("samples/s"));
            metric(metric::TestAccuracy, p.accuracy, QString());
            metric(metric::GpuHours, p.gpus * p.trainTime / 3600.0, QStringLiteral("GPU h"));
            metric(metric::Gpus, p.gpus, QString());
            metric(metric::Nodes, 1, QString());
            // Per-epoch values (what ingest stores when a log prints a value per epoch).
            QCOMPARE(store
                         .setSeries({id,
                                     QStringLiteral("train_loss"),
                                     QString(),
                                     {1, 2, 3},
                                     {0.9 / p.gpus, 0.5 / p.gpus, 0.3 / p.gpus}})
                         .errorText(),
                     QString());
            QCOMPARE(store
                         .setSeries({id,
                                     QStringLiteral("throughput"),
                                     QStringLiteral("samples/s"),
                                     {1, 2, 3},
                                     {p.samples * 0.9, p.samples, p.samples * 1.05}})
                         .errorText(),
                     QString());
            QCOMPARE(store
                         .setSeries({id,
                                     QStringLiteral("epoch_time_s"),
                                     QStringLiteral("s"),
                                     {1, 2, 3},
                                     {p.trainTime / 3, p.trainTime / 3, p.trainTime / 3}})
                         .errorText(),
                     QString());
            m_runs << id;
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toUtf8());
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
        fill();
        QCOMPARE(m_runs.size(), 4);
        m_place = std::make_unique<ResultsPlace>(*m_services);
        // Qt's model checker watches the runs table for the whole test case:
        // every reload, re-ingest, hidden run, grouping and filter below.
        m_tester = std::make_unique<QAbstractItemModelTester>(m_place->model(),
                                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_place->resize(1280, 800);
        m_place->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_place.get()));
        QTRY_VERIFY(!m_place->isLoading());
        m_place->showStudy(m_study);
        QTRY_VERIFY(!m_place->isLoading());
        QCOMPARE(m_place->chartStudyId(), m_study);
    }

    void incompleteRunIsHollowAndLabelled()
    {
        StudyCharts *charts = m_place->charts();
        for (StudyChart c : {StudyChart::Runtime, StudyChart::Throughput, StudyChart::Accuracy, StudyChart::Cost}) {
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

    void reloadWithoutChangesRedrawsNothing()
    {
        const int before = m_place->charts()->buildCount();
        QSignalSpy loaded(m_place.get(), &ResultsPlace::tableLoaded);
        m_place->reload();
        QVERIFY(loaded.wait(10000));
        QCOMPARE(m_place->charts()->buildCount(), before);
        // A changed value is drawn.
        MetricRecord m{m_runs[2], metric::TrainTimeS, 1.4, QStringLiteral("s"), metric::SourceLog};
        QCOMPARE(m_services->store().setMetric(m).errorText(), QString());
        m_place->reload();
        auto drawn = [this] {
            return graphData(m_place->charts()->chart(StudyChart::Runtime), QStringLiteral("measured")).value(1).value;
        };
        QTRY_COMPARE_WITH_TIMEOUT(drawn(), 1.4, 10000);
        const int after = m_place->charts()->buildCount();
        m.value = 1.5;   // restored before asserting: the later tests read 1.5
        QCOMPARE(m_services->store().setMetric(m).errorText(), QString());
        m_place->reload();
        QTRY_COMPARE_WITH_TIMEOUT(drawn(), 1.5, 10000);
        QVERIFY2(after > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    }

    void epochCurvesOverlayRuns()
    {
        EpochCurves *curves = m_place->epochCurves();
        m_place->selectRuns({m_runs[0], m_runs[2]});
        QTRY_VERIFY_WITH_TIMEOUT(!curves->isLoading(), 10000);
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

    void columnsAndExportSayWhatTheyAre()
    {
        const QStringList titles = m_place->columnsMenuTitles().split(u'\n');
        QCOMPARE(titles.count(QStringLiteral("GPUs")), 1);
        QCOMPARE(titles.count(QStringLiteral("Nodes")), 1);
        // Header tooltips explain the metric.
        RunsTableModel *model = m_place->model();
        const int col = int(model->columns().indexOf(metric::SamplesPerS));
        QVERIFY(col >= 0);
        QVERIFY(model->headerData(col, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("see throughput")));
        // The Slurm that ran each run (stored at submit) is a column of its own.
        const int slurm = int(model->columns().indexOf(QStringLiteral("slurm")));
        QVERIFY(slurm >= 0);
        QCOMPARE(model->headerData(slurm, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Slurm"));
        const QModelIndex first = model->indexOfRun(m_runs[0], slurm);
        QVERIFY(first.isValid());
        QCOMPARE(first.data().toString(), QStringLiteral("22.05.11"));
        m_place->selectRuns({m_runs[1]});
        QCOMPARE(m_place->exportChoices(), (QStringList{QStringLiteral("All 4 runs of the table (CSV or JSON)…"),
                                                        QStringLiteral("Only the 1 selected run (CSV or JSON)…")}));
        const QString all = m_dir.filePath(QStringLiteral("all.csv")), sel = m_dir.filePath(QStringLiteral("sel.csv"));
        QCOMPARE(m_place->exportTableTo(all, false).errorText(), QString());
        QCOMPARE(m_place->exportTableTo(sel, true).errorText(), QString());
        QFile a(all), s(sel);
        QVERIFY(a.open(QIODevice::ReadOnly) && s.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll().count('\n'), 5);   // header + 4 runs
        QCOMPARE(s.readAll().count('\n'), 2);   // header + 1 run
    }

    void chartExportAtChosenSize()
    {
        QList<QPair<QString, QCustomPlot *>> charts{
            {QStringLiteral("Runtime"), m_place->charts()->chart(StudyChart::Runtime)}};
        ChartExportDialog dlg(charts, QStringLiteral("honest"));
        dlg.widthBox()->setValue(1200);
        dlg.heightBox()->setValue(700);
        const QString png = m_dir.filePath(QStringLiteral("runtime"));
        QCOMPARE(dlg.saveTo(png).errorText(), QString());
        const QImage img(png + QStringLiteral(".png"));
        QCOMPARE(img.size(), QSize(1200, 700));
        img.save(test::screenshotPath(QStringLiteral("results-export-runtime-1200x700.png")));
        dlg.formatCombo()->setCurrentIndex(1);
        QCOMPARE(dlg.saveTo(png).errorText(), QString());
        QSvgRenderer svg(png + QStringLiteral(".svg"));
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBox().size(), QSize(1200, 700));
        QVERIFY(m_place->chartExportButton()->isVisible());
    }

    void pdfHasScalingTableAsText()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        QSignalSpy written(m_place.get(), &ResultsPlace::reportWritten);
        m_place->writeReportInBackground(m_study, pdf);   // store read and printing off the GUI thread
        QVERIFY(written.wait(60000));
        QCOMPARE(written.first().at(1).toString(), QString());
        const QString raw = pdfText(pdf);
        QVERIFY(!raw.isEmpty());
        QFile::remove(test::screenshotPath(QStringLiteral("results-report.pdf")));
        QFile::copy(pdf, test::screenshotPath(QStringLiteral("results-report.pdf")));   // to look at it
        const QString text = raw.simplified();
        QVERIFY2(text.contains(QStringLiteral("Runs 4 stored, 4 submitted; 3 completed and used in the analysis; 1 did "
                                              "not complete (CANCELLED) and is left out")),
                 qPrintable(text.left(1500)));
        QVERIFY(text.contains(QStringLiteral("Slurm version 22.05.11 (reported by sbatch --version on the cluster)")));
        QVERIFY(text.contains(QStringLiteral("Scaling per GPU count")));
        QVERIFY(text.contains(QStringLiteral("train_time_s median")));
        QVERIFY(text.contains(QStringLiteral("2.99 (1.81–4.17)")));   // 1 GPU: median and range under it
        QVERIFY(text.contains(QStringLiteral("1.99×")));   // 2.99 / 1.5
        QVERIFY(text.contains(QStringLiteral("99.7 %")));   // efficiency
        QVERIFY(text.contains(QStringLiteral("1 (+1†)")));
        QVERIFY(!text.contains(QStringLiteral("R²"))
                || text.contains(QStringLiteral("No Amdahl fit, R² or prediction")));
        QVERIFY(!text.contains(QStringLiteral("Amdahl fit over")));
        QVERIFY(text.contains(QStringLiteral("job 501 and job 502 ran together on tb-node1 for 2 s")));
        // Cells never wrap inside a word; scripts wrap with a marker.
        QVERIFY(text.contains(QStringLiteral("CANCELLED †")));
        QVERIFY(text.contains(QStringLiteral("† did not complete: left out of the analysis")));
        QCOMPARE(raw.count(QStringLiteral("COMPLETED")), 3);   // the runs table's three, none broken
        QVERIFY(raw.count(QStringLiteral("train_time_s")) >= 2);   // "based on" row and runs table header
        QVERIFY(raw.contains(QRegularExpression(QStringLiteral("Runtime\\s\\[s\\]"))));   // may wrap at the space only
        QVERIFY(raw.contains(QStringLiteral("efficiency")));
        QVERIFY(text.contains(QStringLiteral("↪ ")));
        // Rendered to look at.
        QProcess p;
        p.start(QStringLiteral("pdftoppm"), {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("70"), pdf,
                                             test::screenshotPath(QStringLiteral("results-report"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFile::exists(test::screenshotPath(QStringLiteral("results-report-1.png"))));
    }

    // `scalelab report --json` prints the numbers the charts (and the PDF's charts) draw.
    void reportJsonHasTheChartNumbers()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("cli-report.pdf"));
        const test::CliRun r = test::runCli(
            {QStringLiteral("report"), QString::number(m_study), QStringLiteral("--json"), QStringLiteral("-o"), pdf});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(pdf).size() > 0);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(r.out.left(500)));
        QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.report.v1"));
        QCOMPARE(o.value(QStringLiteral("study")).toInteger(), m_study);
        QCOMPARE(o.value(QStringLiteral("file")).toString(), pdf);
        const StudyChartData &data = m_place->charts()->data();
        const QJsonArray charts = o.value(QStringLiteral("charts")).toArray();
        QCOMPARE(charts.size(), 6);
        for (int i = 0; i < charts.size(); ++i) {
            const QJsonObject c = charts[i].toObject();
            const StudyChartPanel &p = data.panels()[i];
            QCOMPARE(c.value(QStringLiteral("id")).toString(), StudyChartData::id(p.chart));
            const QJsonArray measured = c.value(QStringLiteral("measured")).toArray();
            QCOMPARE(measured.size(), p.measured.size());
            for (int k = 0; k < measured.size(); ++k) {
                QCOMPARE(measured[k].toObject().value(QStringLiteral("value")).toDouble(), p.measured[k].value);
                QCOMPARE(measured[k].toObject().value(QStringLiteral("min")).toDouble(), p.measured[k].low);
                QCOMPARE(measured[k].toObject().value(QStringLiteral("max")).toDouble(), p.measured[k].high);
            }
            QCOMPARE(c.value(QStringLiteral("incomplete")).toArray().size(), p.incomplete.size());
            QCOMPARE(c.value(QStringLiteral("ideal")).toArray().size(), p.ideal.size());
            const QJsonObject y = c.value(QStringLiteral("axes")).toObject().value(QStringLiteral("y")).toObject();
            QCOMPARE(y.value(QStringLiteral("max")).toDouble(), p.y.upper);
        }
        const QJsonObject analysis = o.value(QStringLiteral("analysis")).toObject();
        QCOMPARE(analysis.value(QStringLiteral("summary")).toString(), data.analysis().summary());
        QCOMPARE(analysis.value(QStringLiteral("points")).toArray().size(), data.analysis().points().size());
        // Without -o: the numbers only, no PDF.
        const test::CliRun only =
            test::runCli({QStringLiteral("report"), QString::number(m_study), QStringLiteral("--json")});
        QCOMPARE(only.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(only.out.toUtf8()).object().value(QStringLiteral("file")).isNull());
        QCOMPARE(test::runCli({QStringLiteral("report"), QString::number(m_study)}).exitCode, 2);   // neither
    }

    void studyDialogRepeatsOrderAndSingleSubmit()
    {
        FakeClusters fake;
        m_services->setClusters(&fake);
        const ClusterProfile *profile = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(profile);
        JobSpec base;
        base.profile = QStringLiteral("testbed");
        base.partition = QStringLiteral("gpu");
        base.framework = Framework::PytorchDdp;
        base.gpus = 1;
        base.time = QStringLiteral("00:10:00");
        base.jobName = QStringLiteral("honest");
        base.account = QStringLiteral("project_2001234");
        base.cpusPerGpu = 1;
        base.program = QStringLiteral("train.py");
        // A study with the proposed name exists: the dialog proposes another.
        StudyRecord existing;
        existing.name = QStringLiteral("honest testbed %1").arg(QDate::currentDate().toString(Qt::ISODate));
        QVERIFY(m_services->store().createStudy(existing).ok());
        ScalingStudyDialog dlg(*m_services, base, *profile);
        QCOMPARE(dlg.nameEdit()->text(), existing.name + QStringLiteral(" (2)"));
        dlg.setSelectedGpuCounts({1, 2});
        dlg.repeatsBox()->setValue(2);
        QCOMPARE(dlg.variants().size(), 4);
        QCOMPARE(dlg.order(), StudyOrder::OneAtATime);   // the default
        QVERIFY(dlg.submitButton()->isEnabled());
        QTest::mouseDClick(dlg.submitButton(), Qt::LeftButton);
        QTest::mouseClick(dlg.submitButton(), Qt::LeftButton);
        QCOMPARE(fake.calls.size(), 1);
        QCOMPARE(fake.calls[0].specs.size(), 4);
        QCOMPARE(fake.calls[0].order, StudyOrder::OneAtATime);
        QCOMPARE(fake.calls[0].name, existing.name + QStringLiteral(" (2)"));
        QCOMPARE(fake.calls[0].specs[2].jobName, QStringLiteral("honest-1g-r2"));
        QVERIFY(!dlg.submitButton()->isEnabled());
        QVERIFY(dlg.nameEdit()->text() != fake.calls[0].name);   // the next study gets its own name
        // "All at once" is a choice; changing the study allows submitting it.
        dlg.orderCombo()->setCurrentIndex(1);
        QVERIFY(dlg.submitButton()->isEnabled());
        dlg.submitButton()->click();
        QCOMPARE(fake.calls.size(), 2);
        QCOMPARE(fake.calls[1].order, StudyOrder::AllAtOnce);
        m_services->setClusters(nullptr);
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
        QTRY_VERIFY_WITH_TIMEOUT(!m_place->epochCurves()->isLoading(), 10000);
        m_place->findChild<QTabWidget *>()->setCurrentIndex(1);
        QTest::qWait(200);
        QVERIFY(m_place->grab().save(test::screenshotPath(QStringLiteral("results-epochs-1280x800.png"))));
        m_place->findChild<QTabWidget *>()->setCurrentIndex(0);
    }

    void cleanupTestCase()
    {
        m_tester.reset();
        m_place.reset();
        m_services.reset();
    }
};

QTEST_MAIN(TestResultsStudy)
#include "tst_results_study.moc"
