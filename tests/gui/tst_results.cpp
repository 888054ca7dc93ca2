// SPDX-License-Identifier: GPL-3.0-or-later
// Result explorer: table, study charts, advisor, timelines, comparison,
// exports and hidden runs on a synthetic study in a temporary store, and a
// run that finished while the window was closed shown without Results
// ingesting it.

#include "ResultsTestStudy.h"

#include "ui/cluster/ClusterManager.h"
#include "ui/common/AppServices.h"
#include "ui/results/ChartExporter.h"
#include "core/model/MetricNames.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/ResultsPlace.h"
#include "ui/results/RunComparisonView.h"
#include "core/analysis/RunMetricsTable.h"
#include "ui/results/RunsTableModel.h"
#include "ScreenshotDir.h"
#include "ui/results/ScalingReport.h"
#include "ui/results/StudyCharts.h"
#include "ui/results/UtilisationTimeline.h"
#include "IdleClusterService.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QImage>
#include <QTimeZone>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTest>
#include <QToolTip>
#include <QTreeView>

#include <nlohmann/json.hpp>

using namespace scalelab;

class TestResults : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ResultsPlace> m_place;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QList<qint64> m_runs;   // 1, 2, 4 GPUs in the study, then the run without GPU samples
    qint64 m_study = 0;

    QString path(const QString &name) const { return m_dir.filePath(name); }
    static QList<QCPGraphData> graphData(QCustomPlot *plot, const QString &name)
    {
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->objectName() == name) {
                QList<QCPGraphData> d;
                for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
                    d << *it;
                return d;
            }
        return {};
    }
    double stored(qint64 run, const QString &name)
    {
        for (const MetricRecord &m : m_services->store().metrics(run).value())
            if (m.name == name)
                return m.value;
        return NAN;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toUtf8());
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
        QDir().mkpath(path(QStringLiteral("files")));
        m_study = testing::fillSyntheticStudy(m_services->store(), path(QStringLiteral("files")), m_runs);
        QCOMPARE(m_runs.size(), 4);
        m_place = std::make_unique<ResultsPlace>(*m_services);
        // Qt's model checker watches the runs table for the whole test case:
        // every reload, re-ingest, hidden run, grouping and filter below.
        m_tester = std::make_unique<QAbstractItemModelTester>(m_place->model(),
                                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!m_place->isLoading());   // the store is read off the GUI thread
        m_place->resize(1400, 950);
        m_place->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_place.get()));
        m_place->showStudy(0);
        QTRY_VERIFY(!m_place->isLoading());
    }

    void ingestStoredWhatTheFilesSay()
    {
        const QList<testing::SyntheticRun> runs = testing::syntheticRuns();
        for (int i = 0; i < runs.size(); ++i) {
            QCOMPARE(stored(m_runs[i], metric::TrainTimeS), runs[i].trainTime);
            QCOMPARE(stored(m_runs[i], metric::SamplesPerS), runs[i].throughput);
            QCOMPARE(stored(m_runs[i], metric::TestAccuracy), runs[i].accuracy);
            QCOMPARE(stored(m_runs[i], metric::ElapsedS), double(runs[i].elapsed));
            QCOMPARE(stored(m_runs[i], metric::Gpus), double(runs[i].gpus));
            QCOMPARE(stored(m_runs[i], metric::GpusSampled), double(runs[i].gpus));
            QVERIFY(std::abs(stored(m_runs[i], metric::CpuEfficiency) - 0.6) < 0.01);
            QVERIFY(stored(m_runs[i], metric::GpuUtilMeanPct) > runs[i].util - 10);
            QVERIFY(stored(m_runs[i], metric::GpuUtilMeanPct) < runs[i].util + 1);
            QCOMPARE(stored(m_runs[i], QStringLiteral("final_loss")), 0.1 + 0.01 * runs[i].gpus);   // user pattern
        }
        // No GPU tool: gpu_samples = 0 and no invented utilisation.
        QCOMPARE(stored(m_runs[3], metric::GpuSamples), 0.0);
        QVERIFY(std::isnan(stored(m_runs[3], metric::GpuUtilMeanPct)));
        const auto files = m_services->store().files(m_runs[3]).value();
        QCOMPARE(IngestService::noSamplesMarker(IngestService::logFile(files, QStringLiteral("200"))),
                 QStringLiteral("no nvidia-smi on tb-node1; no GPU samples"));
    }

    void tableShowsRuns()
    {
        RunsTableModel *model = m_place->model();
        QCOMPARE(model->rowCount(), 4);
        const int idCol = int(model->columns().indexOf(QStringLiteral("id")));
        const int utilCol = int(model->columns().indexOf(metric::GpuUtilMeanPct));
        QVERIFY(idCol >= 0 && utilCol >= 0);
        QCOMPARE(model->index(3, idCol).data().toString(), QString::number(m_runs[3]));
        QCOMPARE(model->index(3, utilCol).data().toString(), QStringLiteral("no GPU samples"));
        // Every number says where it came from (tooltip): file and line, rule, formula.
        int row0 = -1;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, idCol).data().toString() == QString::number(m_runs[0]))
                row0 = r;
        QVERIFY(row0 >= 0);
        const int timeCol = int(model->columns().indexOf(metric::TrainTimeS));
        QVERIFY(timeCol >= 0);
        const QString timeTip = model->index(row0, timeCol).data(Qt::ToolTipRole).toString();
        QVERIFY2(timeTip.contains(QLatin1String(".out, line 6")), qPrintable(timeTip));
        QVERIFY2(timeTip.contains(QLatin1String("rule: pytorch.example.train_time")), qPrintable(timeTip));
        const QString utilTip = model->index(row0, utilCol).data(Qt::ToolTipRole).toString();
        QVERIFY2(utilTip.contains(QLatin1String("rule: gpu.nvidia-smi")), qPrintable(utilTip));
        QVERIFY2(utilTip.contains(QLatin1String("computed: mean over")), qPrintable(utilTip));
        // Filter and grouping.
        m_place->filterEdit()->setText(QStringLiteral("tb-never-matches"));
        QCOMPARE(model->rowCount(), 0);
        m_place->filterEdit()->clear();
        m_place->groupCombo()->setCurrentIndex(int(RunsTableModel::GroupBy::Gpus));
        QCOMPARE(model->rowCount(), 3);   // 1, 2, 4 GPUs
        QCOMPARE(model->rowCount(model->index(0, 0)), 2);   // the 1-GPU study run and the extra run
        m_place->groupCombo()->setCurrentIndex(int(RunsTableModel::GroupBy::Study));
        QCOMPARE(model->rowCount(), 2);
        m_place->groupCombo()->setCurrentIndex(0);
        QCOMPARE(model->rowCount(), 4);
        // Columns: any metric.
        QStringList cols = model->columns();
        cols << QStringLiteral("final_loss");
        model->setColumns(cols);
        QCOMPARE(model->index(0, int(cols.size()) - 1).data().toString(), QStringLiteral("0.11"));
    }

    void chartsEqualStoredMetrics()
    {
        StudyCharts *charts = m_place->charts();
        QCOMPARE(m_place->chartStudyId(), m_study);
        const QList<QCPGraphData> runtime = graphData(charts->chart(StudyChart::Runtime), QStringLiteral("measured"));
        QCOMPARE(runtime.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(runtime[i].key, double(testing::syntheticRuns()[i].gpus));
            QCOMPARE(runtime[i].value, stored(m_runs[i], metric::TrainTimeS));
        }
        const QList<QCPGraphData> ideal = graphData(charts->chart(StudyChart::Runtime), QStringLiteral("ideal"));
        QVERIFY(!ideal.isEmpty());
        QCOMPARE(ideal.first().value, 400.0);   // 1/N line through the 1-GPU runtime
        const QList<QCPGraphData> tput = graphData(charts->chart(StudyChart::Throughput), QStringLiteral("measured"));
        const QList<QCPGraphData> acc = graphData(charts->chart(StudyChart::Accuracy), QStringLiteral("measured"));
        const QList<QCPGraphData> cost = graphData(charts->chart(StudyChart::Cost), QStringLiteral("measured"));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(tput[i].value, stored(m_runs[i], metric::SamplesPerS));
            QCOMPARE(acc[i].value, stored(m_runs[i], metric::TestAccuracy));
            QCOMPARE(cost[i].value, stored(m_runs[i], metric::GpuHours));
        }
        const QList<QCPGraphData> speedup = graphData(charts->chart(StudyChart::Speedup), QStringLiteral("measured"));
        QCOMPARE(speedup.size(), 3);
        QCOMPARE(speedup[1].value, 400.0 / 215.0);
        QCOMPARE(speedup[2].value, 400.0 / 125.0);
        const QList<QCPGraphData> eff = graphData(charts->chart(StudyChart::Efficiency), QStringLiteral("measured"));
        QCOMPARE(eff[2].value, 400.0 / 125.0 / 4.0);
        const QList<QCPGraphData> threshold =
            graphData(charts->chart(StudyChart::Efficiency), QStringLiteral("threshold"));
        QCOMPARE(threshold.first().value, 0.7);
        QVERIFY(!graphData(charts->chart(StudyChart::Speedup), QStringLiteral("amdahl")).isEmpty());
    }

    void advisorMatchesScalingAnalysis()
    {
        QList<ScalingRun> runs;
        // A copy: syntheticRuns() returns a temporary list, so a reference
        // into it would dangle after this statement (ASan: heap-use-after-free).
        const QList<testing::SyntheticRun> synthetic = testing::syntheticRuns();
        for (int i = 0; i < 3; ++i) {
            const testing::SyntheticRun &s = synthetic[i];
            ScalingRun r;
            r.label = QStringLiteral("job %1").arg(100 + i);
            r.gpus = s.gpus;
            r.runtimeSeconds = s.trainTime;
            r.throughput = s.throughput;
            r.accuracy = s.accuracy;
            r.gpuHours = stored(m_runs[i], metric::GpuHours);
            r.meanGpuUtilPercent = stored(m_runs[i], metric::GpuUtilMeanPct);
            // The synthetic runs all started at 10:00 on tb-node1: they overlapped.
            r.start = QStringLiteral("2024-05-01T10:00:00");
            r.end = QDateTime::fromString(r.start, Qt::ISODate).addSecs(s.elapsed).toString(Qt::ISODate);
            r.nodes = {QStringLiteral("tb-node1")};
            runs << r;
        }
        const ScalingAnalysis expected = ScalingAnalysis::analyze(runs, 0.7);
        QVERIFY(!expected.summary().isEmpty());
        QCOMPARE(m_place->charts()->adviceText(), expected.summary());
        QCOMPARE(m_place->charts()->warningTexts(), expected.warnings());
        auto *label = m_place->charts()->findChild<QLabel *>(QStringLiteral("advice"));
        QVERIFY(label);
        QCOMPARE(label->text(), expected.summary());
        qInfo("advisor: %s", qPrintable(expected.advice()));
    }

    void timelinesShowSelectedRuns()
    {
        m_place->selectRuns({m_runs[0], m_runs[1], m_runs[2], m_runs[3]});
        UtilisationTimeline *t = m_place->timeline();
        QTRY_VERIFY_WITH_TIMEOUT(!t->isLoading(), 60000);
        QCOMPARE(t->plots().size(), 3);
        QCOMPARE(t->plots()[0]->graphCount(), 1);
        QCOMPARE(t->plots()[2]->graphCount(), 4);
        QVERIFY(t->plots()[2]->graph(0)->adaptiveSampling());
        // Aligned at job start: the first sample was 3 s after sacct Start.
        QCOMPARE(t->plots()[0]->graph(0)->data()->constBegin()->key, 3.0);
        // Linked x axes.
        t->plots()[0]->xAxis->setRange(10, 50);
        QCOMPARE(t->plots()[2]->xAxis->range().lower, 10.0);
        QCOMPARE(t->plots()[2]->xAxis->range().upper, 50.0);
        // Shared tracker: every chart shows the values at the same time.
        t->setTrackerX(101.0);
        QVERIFY(t->trackerText(0).contains(QStringLiteral("t = 101.0 s")));
        QVERIFY(t->trackerText(2).contains(QStringLiteral("GPU tb-node1:3")));
        QVERIFY(t->trackerText(1).contains(QStringLiteral("t = 101.0 s")));
        auto labels = t->findChildren<QLabel *>(QStringLiteral("noSamples"));
        QCOMPARE(labels.size(), 1);
        QVERIFY(labels.first()->text().contains(QStringLiteral("no GPU samples")));
    }

    void compareShowsDeltasAndDiffs()
    {
        m_place->selectRuns({m_runs[0], m_runs[2]});
        RunComparisonView *c = m_place->comparison();
        QCOMPARE(c->runCount(), 2);
        QTableWidget *table = c->metricsTable();
        QCOMPARE(table->columnCount(), 2);
        bool found = false;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->verticalHeaderItem(r)->text().startsWith(metric::TrainTimeS)) {
                found = true;
                QCOMPARE(table->item(r, 0)->text(), QStringLiteral("400"));
                QVERIFY(table->item(r, 1)->text().contains(QStringLiteral("Δ -275 (-68.8 %)")));
            }
        QVERIFY(found);
        QTRY_COMPARE(c->scriptDiff().removed, 3);   // scripts are read off the GUI thread
        const TextDiffResult script = c->scriptDiff();
        QCOMPARE(script.added, 3);
        QVERIFY(script.toText().contains(QStringLiteral("+ #SBATCH --gpus-per-node=4")));
        const TextDiffResult env = c->environmentDiff();
        QVERIFY(env.toText().contains(QStringLiteral("- export NCCL_DEBUG=WARN")));
        QVERIFY(env.toText().contains(QStringLiteral("+ export NCCL_DEBUG=INFO")));
        QVERIFY(env.toText().contains(QStringLiteral("  module load pytorch/2.1")));
    }

    void exportsAreValidFiles()
    {
        QCustomPlot *plot = m_place->charts()->chart(StudyChart::Speedup);
        QCOMPARE(ChartExporter::save(plot, path(QStringLiteral("speedup.png"))).errorText(), QString());
        QCOMPARE(ChartExporter::save(plot, path(QStringLiteral("speedup.svg"))).errorText(), QString());
        QCOMPARE(ChartExporter::save(plot, path(QStringLiteral("speedup.pdf"))).errorText(), QString());
        QImage png(path(QStringLiteral("speedup.png")));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() >= 400);
        QFile svg(path(QStringLiteral("speedup.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgData = svg.readAll();
        QVERIFY(svgData.contains("<svg"));
        QVERIFY(svgData.contains("</svg>"));
        QFile pdf(path(QStringLiteral("speedup.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(ChartExporter::save(plot, path(QStringLiteral("speedup.bmp")))
                    .errorText()
                    .contains(QStringLiteral("use .png")));

        const RunMetricsTable table = RunMetricsTable::load(m_services->store(), m_study);
        QCOMPARE(ChartExporter::saveText(
                     path(QStringLiteral("runs.csv")),
                     table.toCsv({}, {QStringLiteral("id"), QStringLiteral("gpus"), metric::TrainTimeS}).toUtf8())
                     .errorText(),
                 QString());
        QFile csv(path(QStringLiteral("runs.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("Run,GPUs,train_time_s [s]"));
        QCOMPARE(lines[3], QStringLiteral("%1,4,125").arg(m_runs[2]));
        QCOMPARE(ChartExporter::saveText(path(QStringLiteral("runs.json")),
                                         QByteArray::fromStdString(table.toJson().dump(2)))
                     .errorText(),
                 QString());
        QFile jf(path(QStringLiteral("runs.json")));
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(jf.readAll().toStdString(), nullptr, false);
        QVERIFY(j.is_array());
        QCOMPARE(int(j.size()), 3);
        QCOMPARE(j[1]["metrics"]["train_time_s"]["value"].get<double>(), 215.0);

        const auto all = runsWithMetricsJson(m_services->store());
        QCOMPARE(int(all.size()), 4);
        QCOMPARE(all[3]["metrics"]["gpu_samples"]["value"].get<double>(), 0.0);
    }

    void reportPdfHasAdviceAndScripts()
    {
        const QString pdf = path(QStringLiteral("report.pdf"));
        QCOMPARE(writeScalingReport(m_services->store(), m_study, pdf).errorText(), QString());
        if (const QString keep = qEnvironmentVariable("SCALELAB_KEEP_REPORT"); !keep.isEmpty())
            QFile::copy(pdf, keep);   // to look at it
        QProcess p;
        p.start(QStringLiteral("pdftotext"),
                {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        // NFKC: the PDF's fonts use ligatures ("ﬃ"), which pdftotext keeps.
        const QString text =
            QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).simplified();
        QVERIFY2(text.contains(m_place->charts()->adviceText().simplified()), qPrintable(text.left(2000)));
        QVERIFY(text.contains(QStringLiteral("Scaling report: mnist-ddp scaling")));
        QVERIFY(text.contains(QStringLiteral("#SBATCH --gpus-per-node=4")));
        QVERIFY(text.contains(QStringLiteral("srun torchrun --nproc_per_node=2 train.py --epochs 3")));
        QVERIFY(text.contains(QStringLiteral("Cluster testbed")));
        QVERIFY(text.contains(QStringLiteral("2024-05-01T09:59:30")));
        QVERIFY(writeScalingReport(m_services->store(), 9999, pdf).errorText().contains(QStringLiteral("study 9999")));
    }

    void reingestOnDemand()
    {
        QSignalSpy done(m_place.get(), &ResultsPlace::ingestFinished);
        m_place->reingest({m_runs[0]});
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().first().toStringList(), QStringList());
        QCOMPARE(stored(m_runs[0], metric::TrainTimeS), 400.0);
    }

    void hiddenRunsLeaveTableAndCharts()
    {
        RunsTableModel *model = m_place->model();
        StudyCharts *charts = m_place->charts();
        QCheckBox *showHidden = m_place->showHiddenCheck();
        QVERIFY(!showHidden->isChecked());
        QCOMPARE(showHidden->text(), QStringLiteral("Show hidden"));
        auto runtimeGpus = [&] {
            QList<double> gpus;
            for (const QCPGraphData &d : graphData(charts->chart(StudyChart::Runtime), QStringLiteral("measured")))
                gpus << d.key;
            return gpus;
        };
        QCOMPARE(runtimeGpus(), (QList<double>{1, 2, 4}));

        // Hidden in Jobs: the 2-GPU point leaves the table, the charts and `runs --json`.
        QCOMPARE(m_services->store().setHidden(m_runs[1], true).errorText(), QString());
        Q_EMIT m_services->runsChanged();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 60000);
        QVERIFY(!model->indexOfRun(m_runs[1]).isValid());
        QVERIFY(model->indexOfRun(m_runs[0]).isValid());
        QCOMPARE(showHidden->text(), QStringLiteral("Show hidden (1)"));
        QCOMPARE(m_place->chartStudyId(), m_study);
        QCOMPARE(runtimeGpus(), (QList<double>{1, 4}));
        const RunMetricsTable study = RunMetricsTable::load(m_services->store(), m_study);
        QCOMPARE(study.rows.size(), 2);
        QCOMPARE(study.hiddenCount, 1);
        QCOMPARE(int(runsWithMetricsJson(m_services->store()).size()), 3);
        const auto all = runsWithMetricsJson(m_services->store(), HiddenRuns::Include);
        QCOMPARE(int(all.size()), 4);
        QCOMPARE(all[1]["id"].get<qint64>(), m_runs[1]);
        QCOMPARE(all[1]["hidden"].get<bool>(), true);
        QCOMPARE(all[0]["hidden"].get<bool>(), false);

        // "Show hidden" brings it back, greyed.
        showHidden->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 60000);
        const QModelIndex hiddenRow = model->indexOfRun(m_runs[1]);
        QVERIFY(hiddenRow.isValid());
        QCOMPARE(hiddenRow.data(Qt::ForegroundRole).value<QColor>(), QColor(0x80, 0x80, 0x80));
        QVERIFY(!model->indexOfRun(m_runs[0]).data(Qt::ForegroundRole).isValid());
        QCOMPARE(runtimeGpus(), (QList<double>{1, 2, 4}));
        QCOMPARE(showHidden->text(), QStringLiteral("Show hidden (1)"));

        // Shown again in the store: listed whatever the box says.
        showHidden->setChecked(false);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 60000);
        QCOMPARE(m_services->store().setHidden(m_runs[1], false).errorText(), QString());
        Q_EMIT m_services->runsChanged();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 60000);
        QTRY_VERIFY(!m_place->isLoading());
        QCOMPARE(showHidden->text(), QStringLiteral("Show hidden"));
        QCOMPARE(runtimeGpus(), (QList<double>{1, 2, 4}));
        QVERIFY(!model->indexOfRun(m_runs[1]).data(Qt::ForegroundRole).isValid());
    }

    void screenshot()
    {
        m_place->selectRuns({m_runs[0], m_runs[1], m_runs[2]});
        QTRY_VERIFY_WITH_TIMEOUT(!m_place->timeline()->isLoading(), 60000);
        QTest::qWait(100);
        const QImage shot = m_place->grab().toImage();
        QVERIFY(!shot.isNull());
        QVERIFY(shot.save(test::screenshotPath(QStringLiteral("results.png"))));
        // The provenance tooltip of a metric cell, as a researcher hovering it sees it.
        {
            RunsTableModel *model = m_place->model();
            const int timeCol = int(model->columns().indexOf(metric::TrainTimeS));
            QVERIFY(timeCol >= 0);
            const QString tip = model->index(0, timeCol).data(Qt::ToolTipRole).toString();
            QToolTip::showText(m_place->mapToGlobal(QPoint(400, 200)), tip, m_place.get());
            QWidget *label = nullptr;
            QTRY_VERIFY_WITH_TIMEOUT((label =
                                          [] {
                                              for (QWidget *w : QApplication::topLevelWidgets())
                                                  if (w->inherits("QTipLabel") && w->isVisible())
                                                      return w;
                                              return static_cast<QWidget *>(nullptr);
                                          }())
                                         != nullptr,
                                     5000);
            QVERIFY(label->grab().save(test::screenshotPath(QStringLiteral("results-tooltip.png"))));
            QToolTip::hideText();
        }
        if (const QString extra = qEnvironmentVariable("SCALELAB_TIMELINE_SHOT"); !extra.isEmpty()) {
            m_place->findChild<QTabWidget *>()->setCurrentIndex(2);   // to look at the timelines too
            m_place->timeline()->setTrackerX(120);
            QTest::qWait(100);
            m_place->grab().save(extra);
            m_place->findChild<QTabWidget *>()->setCurrentIndex(0);
        }
    }

    // A run that finished while the window was closed, its final state and
    // accounting stored but never ingested (the last session ended first):
    // the cluster layer ingests it when it starts, without a connection, and
    // Results shows it on its own (it ingests nothing itself).
    void runFinishedWhileClosedIsShown()
    {
        RunStore &store = m_services->store();
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.gpus = 1;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        const auto created = store.createRun(r);
        QVERIFY(created.ok());
        const qint64 id = created.value().id;
        QCOMPARE(store.markSubmitted(id, QStringLiteral("300")).errorText(), QString());
        SacctRecord acct;
        acct.jobId = QStringLiteral("300");
        acct.state = JobState::Completed;
        acct.stateText = QStringLiteral("COMPLETED");
        acct.exitCode = QStringLiteral("0:0");
        acct.elapsed = QStringLiteral("00:01:10");
        acct.allocTres = QStringLiteral("billing=4,cpu=4,gres/gpu=1,node=1");
        QCOMPARE(store.recordFinal(id, acct).errorText(), QString());
        const QString out = path(QStringLiteral("files/scalelab-300.out"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("test_accuracy 0.61  train_time_s 65\n");
        f.close();
        QCOMPARE(store.recordFile({id, QStringLiteral("/scratch/run/scalelab-300.out"), out, 36, 36, {}}).errorText(),
                 QString());
        m_place->showStudy(0);
        QTRY_VERIFY(!m_place->isLoading());
        QVERIFY(!m_place->model()->indexOfRun(id).isValid());   // stored after Results last read the store

        auto clusters = std::make_unique<ClusterManager>(*m_services);
        QTRY_COMPARE_WITH_TIMEOUT(stored(id, metric::TrainTimeS), 65.0, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(m_place->model()->indexOfRun(id).isValid(), 20000);
        QTRY_VERIFY(!m_place->isLoading());
        QCOMPARE(stored(id, metric::ElapsedS), 70.0);
        const int timeCol = int(m_place->model()->columns().indexOf(metric::TrainTimeS));
        QVERIFY(timeCol >= 0);
        QCOMPARE(m_place->model()->indexOfRun(id, timeCol).data().toString(), QStringLiteral("65"));
        clusters.reset();
    }

    // The live watch appends a running run's new GPU samples to its local
    // copy and says so (issue 28): the timeline shown reads them again and
    // grows; a chart that showed the end follows it, a zoomed one stays.
    void liveSamplesGrowTheTimeline()
    {
        test::IdleClusterService cluster;
        m_services->setClusters(&cluster);
        m_place->selectRuns({m_runs[0]});
        UtilisationTimeline *t = m_place->timeline();
        QTRY_VERIFY_WITH_TIMEOUT(!t->isLoading(), 60000);
        QCOMPARE(t->plots().size(), 1);
        QVERIFY(t->plots()[0]->xAxis->range().upper < 430);   // sampled until 420 s
        QString csv;
        for (const FileRecord &f : m_services->store().files(m_runs[0]).value())
            if (f.localPath.contains(QLatin1String("scalelab-gpu-")))
                csv = f.localPath;
        QVERIFY(!csv.isEmpty());
        const qint64 size = QFileInfo(csv).size();
        auto append = [&csv](qint64 from, qint64 to) {
            QFile file(csv);
            QVERIFY(file.open(QIODevice::Append));
            for (qint64 s = from; s <= to; s += 2)
                file.write(QStringLiteral("0, %1.000, 50 %, 30 %, 9000 MiB, 16160 MiB\n")
                               .arg(QDateTime(QDate(2024, 5, 1), QTime(10, 0), QTimeZone::utc())
                                        .addSecs(s)
                                        .toString(QStringLiteral("yyyy/MM/dd HH:mm:ss")))
                               .toUtf8());
        };
        auto news = [](qint64 runId) {
            LiveRunView v;
            v.runId = runId;
            return QList<LiveRunView>{v};
        };
        append(600, 620);
        cluster.publishLive(news(m_runs[1]));   // a run not shown: nothing is read
        QVERIFY(!t->isLoading());
        cluster.publishLive(news(m_runs[0]));
        QVERIFY(t->isLoading());
        QTRY_VERIFY_WITH_TIMEOUT(!t->isLoading(), 60000);
        QVERIFY2(t->plots()[0]->xAxis->range().upper >= 620,
                 qPrintable(QString::number(t->plots()[0]->xAxis->range().upper)));
        t->plots()[0]->xAxis->setRange(10, 50);
        append(700, 720);
        cluster.publishLive(news(m_runs[0]));
        QTRY_VERIFY_WITH_TIMEOUT(!t->isLoading(), 60000);
        QCOMPARE(t->plots()[0]->xAxis->range().lower, 10.0);
        QCOMPARE(t->plots()[0]->xAxis->range().upper, 50.0);
        t->plots()[0]->xAxis->setRange(0, 2000);
        QVERIFY(!t->plots()[0]->graph(0)->data()->isEmpty());
        QVERIFY((t->plots()[0]->graph(0)->data()->constEnd() - 1)->key >= 718);
        m_services->setClusters(nullptr);
        QVERIFY(QFile::resize(csv, size));
    }

    void cleanupTestCase()
    {
        m_tester.reset();
        // Reads and prints still running on pool threads use the store: they
        // finish before it goes.
        m_place.reset();
        QThreadPool::globalInstance()->waitForDone();
        m_services.reset();
    }
};

QTEST_MAIN(TestResults)
#include "tst_results.moc"
