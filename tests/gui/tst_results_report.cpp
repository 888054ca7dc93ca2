// SPDX-License-Identifier: GPL-3.0-or-later
// What Results hands out about the "honest" study of HonestStudy.h: the
// Columns menu and header tooltips, the table export (all or selected runs),
// a chart exported at a chosen size (PNG, SVG), the PDF report's text and
// rendering (the scaling table, the overlap, wrapped scripts), and
// `scalelab report --json` printing the numbers the charts draw.

#include "CliRunner.h"
#include "HonestStudyPlace.h"
#include "ScreenshotDir.h"

#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/results/ChartExportDialog.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/ResultsPlace.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/StudyCharts.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;

namespace {

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

class TestResultsReport : public QObject {
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

    void cleanupTestCase()
    {
        m_honest.tester.reset();
        m_place.reset();
        m_services.reset();
    }
};

QTEST_MAIN(TestResultsReport)
#include "tst_results_report.moc"
