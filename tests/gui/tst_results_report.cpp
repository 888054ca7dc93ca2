// SPDX-License-Identifier: GPL-3.0-or-later
// What Results hands out about the "honest" study of HonestStudy.h: the
// Columns menu and header tooltips, the table export (all or selected runs),
// a chart exported at a chosen size (PNG, SVG), the PDF report's text and
// rendering (a one-page summary first, the scaling table, the overlap, each
// distinct script once and the others as diffs, headings kept with what
// follows, tables within the page, numbers never broken nor in `e` notation),
// `scalelab report --json` printing the numbers the charts draw, and
// `--format md|csv` printing the same tables.

#include "CliRunner.h"
#include "HonestStudyPlace.h"
#include "ScreenshotDir.h"

#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/results/ChartExportDialog.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/ReportLayout.h"
#include "ui/results/ResultsPlace.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/ScalingReport.h"
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
#include <QTextDocument>

using namespace scalelab;

namespace {

// The text of a PDF (of pages first..last when given), as pdftotext reads it.
QString pdfText(const QString &pdf, int first = 0, int last = 0)
{
    QStringList args{QStringLiteral("-enc"), QStringLiteral("UTF-8")};
    if (first > 0)
        args << QStringLiteral("-f") << QString::number(first) << QStringLiteral("-l") << QString::number(last);
    QProcess p;
    p.start(QStringLiteral("pdftotext"), args << pdf << QStringLiteral("-"));
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    // NFKC: ligatures ("ﬃ") and no-break spaces read as letters and spaces; word joiners dropped.
    return QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC).remove(QChar(0x2060));
}

// How many images pdfimages lists on one page.
int imagesOnPage(const QString &pdf, int page)
{
    QProcess p;
    p.start(QStringLiteral("pdfimages"), {QStringLiteral("-list"), QStringLiteral("-f"), QString::number(page),
                                          QStringLiteral("-l"), QString::number(page), pdf});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return -1;
    int n = 0;
    for (const QByteArray &line : p.readAllStandardOutput().split('\n'))
        n += line.contains(" image ");   // "page num type ...": one line per image, its mask apart ("smask")
    return n;
}

// A layout check's findings: none expected (each named when there are some).
void expectNone(const QStringList &found)
{
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral(" | "))));
}

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
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
        QVERIFY(text.contains(QStringLiteral("Strong scaling")));
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
        QCOMPARE(charts.size(), 7);
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

    // Page 1 is the summary a proposal quotes: conditions, recommendation,
    // strong-scaling table, speedup and efficiency charts; the details follow.
    void pdfSummaryPageFirst()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("summary.pdf"));
        QCOMPARE(writeScalingReport(m_services->store(), m_study, pdf).errorText(), QString());
        const QString first = pdfText(pdf, 1, 1).simplified();
        QVERIFY2(first.contains(QStringLiteral("Scaling report: honest scaling")), qPrintable(first));
        QVERIFY(first.contains(QStringLiteral("Cluster testbed")));
        // Keys and values are two columns, which pdftotext may read apart.
        QVERIFY(first.contains(QStringLiteral("Partition")));
        QVERIFY(first.contains(QStringLiteral("GPU type")));
        QVERIFY(first.contains(QStringLiteral("emulated V100 (GRES only) (v100) (documented by the testbed profile)")));
        QVERIFY(first.contains(QStringLiteral("Slurm version 22.05.11")));
        QVERIFY(first.contains(QStringLiteral("First submitted 2024-05-01T09:59:30")));
        QVERIFY(first.contains(QStringLiteral("Last ended 2024-05-01T10:02:01")));
        QVERIFY(first.contains(QStringLiteral("Recommendation ") + m_place->charts()->analysis().summary()));
        QVERIFY(first.contains(QStringLiteral("Strong scaling")));
        QVERIFY(first.contains(QStringLiteral("2.99 (1.81–4.17)")));
        QVERIFY(!first.contains(QStringLiteral("Job scripts")));
        QCOMPARE(imagesOnPage(pdf, 1), 2);   // speedup and efficiency
        QVERIFY(pdfText(pdf, 2, 2).simplified().startsWith(QStringLiteral("Advice")));
    }

    // Each distinct script once; the others as their changed lines.
    void pdfScriptsOnceWithDiffs()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("scripts.pdf"));
        QCOMPARE(writeScalingReport(m_services->store(), m_study, pdf).errorText(), QString());
        const QString text = pdfText(pdf).simplified();
        QCOMPARE(text.count(QStringLiteral("srun python train.py")), 1);   // four runs, one script printed
        QVERIFY2(
            text.contains(QStringLiteral("Script of runs %1, %2 (jobs 501, 502; 1 GPU)").arg(m_runs[0]).arg(m_runs[1])),
            qPrintable(text.right(1500)));
        QVERIFY(
            text.contains(QStringLiteral("Script of runs %1, %2 (jobs 503, 504; 2 GPUs): 1 line differs from the first")
                              .arg(m_runs[2])
                              .arg(m_runs[3])));
        QVERIFY(text.contains(QStringLiteral("2 - #SBATCH --gpus-per-node=1 2 + #SBATCH --gpus-per-node=2")));
    }

    // Qt's rich text has no "keep with next": a heading at a page's end is moved to the next page.
    void headingsKeptWithWhatFollows()
    {
        int orphansMade = 0;
        for (int filler = 0; filler < 40; ++filler) {
            QTextDocument doc;
            doc.setHtml(QStringLiteral("<p>line</p>").repeated(filler) + QStringLiteral("<h2>Heading</h2><p>text</p>")
                        + QStringLiteral("<table border=\"1\"><tr><td>1</td></tr></table>"));
            doc.setPageSize(QSizeF(300, 200));
            orphansMade += int(ReportLayout::orphanedHeadings(doc).size());
            ReportLayout::keepHeadingsWithNext(doc);
            QCOMPARE(ReportLayout::orphanedHeadings(doc), QStringList());
        }
        QVERIFY(orphansMade > 0);   // some filler left the heading alone at a page's end
    }

    // The real report: no orphaned heading, no table wider than the page, no number broken in a cell.
    void reportLayoutFitsThePage()
    {
        const auto in = loadReportInput(m_services->store(), m_study);
        QVERIFY(in.ok());
        const ReportContent content = buildReportContent(*in);
        QTextDocument doc;
        layoutReport(content, doc, reportPageSize());
        expectNone(ReportLayout::orphanedHeadings(doc));
        expectNone(ReportLayout::tablesWiderThanPage(doc));
        expectNone(ReportLayout::linesWiderThanPage(doc));
        expectNone(ReportLayout::brokenNumberCells(doc));
        QVERIFY(doc.pageCount() >= 3);
    }

    // Throughputs in the tens of thousands: separated thousands, never `e+04`, never split in a cell.
    void bigNumbersPrintedWhole()
    {
        auto in = loadReportInput(m_services->store(), m_study);
        QVERIFY(in.ok());
        ReportInput big = *in;
        for (RunMetricsRow &r : big.table.rows) {
            r.metrics[metric::SamplesPerS].value *= 1000.0;   // 230 -> 230,000 samples/s
            r.metrics[metric::TrainTimeS].value *= 10000.0;   // 1.81 -> 18,100 s
        }
        const ReportContent content = buildReportContent(big);
        QTextDocument doc;
        layoutReport(content, doc, reportPageSize());
        expectNone(ReportLayout::brokenNumberCells(doc));
        expectNone(ReportLayout::tablesWiderThanPage(doc));
        expectNone(ReportLayout::linesWiderThanPage(doc));
        const QString pdf = m_dir.filePath(QStringLiteral("big.pdf"));
        QCOMPARE(printReport(content, pdf).errorText(), QString());
        QFile::remove(test::screenshotPath(QStringLiteral("results-report-big.pdf")));
        QFile::copy(pdf, test::screenshotPath(QStringLiteral("results-report-big.pdf")));   // to look at it
        const QString text = pdfText(pdf).simplified();
        QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("\\d[eE][+-]\\d"))), qPrintable(text.left(3000)));
        // 1 GPU runtime: the median, its range on the line under it (pdftotext reads rows of cells apart).
        QVERIFY(text.contains(QStringLiteral("29,900")));
        QVERIFY(text.contains(QStringLiteral("(18,100–41,700)")));
        QVERIFY(text.contains(QStringLiteral("across 2 runs (18,100–41,700 s)")));   // the advice's noisy repeats
        QVERIFY(text.contains(QStringLiteral("230,000")));   // a run's throughput in the runs table
    }

    // `--format md|csv`: the same tables as text; a bad format or study is named, exit 2.
    void reportMarkdownAndCsv()
    {
        const test::CliRun md = test::runCli(
            {QStringLiteral("report"), QString::number(m_study), QStringLiteral("--format"), QStringLiteral("md")});
        QVERIFY2(md.exitCode == 0, qPrintable(md.err));
        QVERIFY(md.out.startsWith(QStringLiteral("# Scaling report: honest scaling\n")));
        QVERIFY(md.out.contains(QStringLiteral("## Strong scaling\n\n| GPUs | Runs used | Runtime [s] |")));
        QVERIFY2(md.out.contains(QStringLiteral("| 1 | 2 | 2.99 (1.81–4.17) | 1.00× (0.72–1.65) | 100.0 % |")),
                 qPrintable(md.out));
        QVERIFY(md.out.contains(QStringLiteral("| 2 | 1 (+1†) | 1.50 | 1.99× | 99.7 % |")));
        QVERIFY(md.out.contains(QStringLiteral("## Runs\n")));
        const QString csvFile = m_dir.filePath(QStringLiteral("study.csv"));
        const test::CliRun csv =
            test::runCli({QStringLiteral("report"), QString::number(m_study), QStringLiteral("--format"),
                          QStringLiteral("csv"), QStringLiteral("-o"), csvFile});
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        const QStringList lines = readAll(csvFile).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 3);
        QVERIFY(lines[0].startsWith(QStringLiteral("GPUs,Runs used,Runtime [s],Runtime min [s],Runtime max [s],")));
        QVERIFY2(lines[1].startsWith(QStringLiteral("1,2,2.99,1.81,4.17,1.00,0.72,1.65,100.0,")), qPrintable(lines[1]));
        const test::CliRun bad = test::runCli(
            {QStringLiteral("report"), QString::number(m_study), QStringLiteral("--format"), QStringLiteral("docx")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--format docx"))
                     && bad.err.contains(QStringLiteral("pdf, md or csv")),
                 qPrintable(bad.err));
        const test::CliRun study = test::runCli(
            {QStringLiteral("report"), QStringLiteral("honest"), QStringLiteral("--format"), QStringLiteral("md")});
        QCOMPARE(study.exitCode, 2);
        QVERIFY2(study.err.contains(QStringLiteral("STUDY honest")), qPrintable(study.err));
        const test::CliRun both =
            test::runCli({QStringLiteral("report"), QString::number(m_study), QStringLiteral("--format"),
                          QStringLiteral("md"), QStringLiteral("--json")});
        QCOMPARE(both.exitCode, 2);
    }

    // The window's Scaling report button writes the same Markdown and CSV by the file's suffix.
    void windowWritesMarkdownAndCsv()
    {
        for (const QString &name : {QStringLiteral("window.md"), QStringLiteral("window.csv")}) {
            const QString file = m_dir.filePath(name);
            QSignalSpy written(m_place.get(), &ResultsPlace::reportWritten);
            m_place->writeReportInBackground(m_study, file);
            QVERIFY(written.wait(60000));
            QCOMPARE(written.first().at(1).toString(), QString());
            const QString text = readAll(file);
            QVERIFY2(text.startsWith(name.endsWith(QLatin1String(".md"))
                                         ? QStringLiteral("# Scaling report: honest scaling\n")
                                         : QStringLiteral("GPUs,Runs used,Runtime [s],")),
                     qPrintable(text.left(300)));
        }
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
