// SPDX-License-Identifier: GPL-3.0-or-later
// The scaling report's numbers and tables as a proposal quotes them: fixed
// point with thousands separated, digits chosen per column, never `e`
// notation, never a space inside a number; the Markdown and CSV forms of the
// same tables; each distinct job script once with the others as diffs.
#include "core/analysis/ReportTable.h"
#include "core/analysis/ScalingReportModel.h"
#include "core/analysis/ScalingReportTables.h"
#include "core/analysis/ScriptVariants.h"
#include "core/base/CsvText.h"
#include "core/base/NumberFormat.h"
#include "core/model/MetricNames.h"

#include <QRegularExpression>
#include <QTest>

#include <limits>

using namespace scalelab;

namespace {

RunMetricsRow row(qint64 id, int gpus, double seconds, double samples, JobState state = JobState::Completed)
{
    RunMetricsRow r;
    r.run.id = id;
    r.run.gpus = gpus;
    r.run.jobId = QString::number(7000 + id);
    r.run.state = state;
    r.run.clusterAlias = QStringLiteral("lumi");
    r.run.partition = QStringLiteral("standard-g");
    r.run.profile = QStringLiteral("lumi");
    r.run.slurmVersion = QStringLiteral("23.02.7");
    r.run.script = QStringLiteral("#!/bin/bash\n#SBATCH --gpus-per-node=%1\nsrun python train.py\n").arg(gpus);
    const QMap<QString, double> values{{metric::TrainTimeS, seconds},
                                       {metric::SamplesPerS, samples},
                                       {metric::GpuHours, gpus * seconds / 3600.0},
                                       {metric::Gpus, gpus}};
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        r.metrics.insert(it.key(), MetricRecord{id, it.key(), it.value(), {}, metric::SourceLog});
    return r;
}

// A study whose numbers Qt's %g would print as 1.234e+04: 1 GPU twice, 2, 4 and 8 GPUs.
QList<RunMetricsRow> bigStudy()
{
    return {row(1, 1, 36000, 11234.6), row(2, 1, 37000, 10987.6), row(3, 2, 18500, 21864.2), row(4, 4, 9600, 42133.3),
            row(5, 8, 5100, 79311.1)};
}

// Every number-like word: digits with separators and a point, never an exponent.
void noExponentNorBrokenNumber(const QString &text)
{
    QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("\\d[eE][+-]?\\d"))), qPrintable(text));
    QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("\\d[ \\n]\\d"))), qPrintable(text));
}

}   // namespace

class TstReportFormat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void csvFieldsQuoteWhatWouldSplitThem()
    {
        QCOMPARE(CsvText::field(QStringLiteral("1,203.5")), QStringLiteral("\"1,203.5\""));
        QCOMPARE(CsvText::field(QStringLiteral("a \"b\"")), QStringLiteral("\"a \"\"b\"\"\""));
        QCOMPARE(CsvText::field(QStringLiteral("two\r\nlines")), QStringLiteral("\"two\r\nlines\""));
        QCOMPARE(CsvText::field(QStringLiteral("plain 4 GPUs")), QStringLiteral("plain 4 GPUs"));
    }

    void fixedPointWithSeparators();
    void decimalsChosenPerColumn();
    void strongScalingTableText();
    void markdownTables();
    void csvTable();
    void resourcesTableHasEnergyWhenMeasured();
    void scriptsOnceWithDiffs();
    void conditionsNameGpuTypeAndSlurm();
};

void TstReportFormat::fixedPointWithSeparators()
{
    QVERIFY(QString::number(12345.678, 'g', 4).contains(QLatin1String("e+")));   // what the report printed before
    QCOMPARE(NumberFormat::fixed(12345.678, 2), QStringLiteral("12,345.68"));
    QCOMPARE(NumberFormat::fixed(12345.678, 0), QStringLiteral("12,346"));
    QCOMPARE(NumberFormat::fixed(999.5, 0), QStringLiteral("1,000"));
    QCOMPARE(NumberFormat::fixed(-1234567.0, 0), QStringLiteral("-1,234,567"));
    QCOMPARE(NumberFormat::fixed(123.0, 1), QStringLiteral("123.0"));
    QCOMPARE(NumberFormat::fixed(-0.0004, 2), QStringLiteral("0.00"));   // never "-0.00"
    QCOMPARE(NumberFormat::fixed(12345.678, 2, Grouping::None), QStringLiteral("12345.68"));
    QCOMPARE(NumberFormat::fixed(std::numeric_limits<double>::quiet_NaN(), 2), QStringLiteral("–"));
    QCOMPARE(NumberFormat::fixed(std::numeric_limits<double>::infinity(), 2), QStringLiteral("–"));
    const QString huge = NumberFormat::fixed(1.5e20, 0);
    QCOMPARE(huge, QStringLiteral("150,000,000,000,000,000,000"));
    QCOMPARE(NumberFormat::significant(0.000123456, 3), QStringLiteral("0.000123"));
    QCOMPARE(NumberFormat::significant(98765.4, 3), QStringLiteral("98,765"));
    // In sentences (the advice's ranges of repeats): no trailing zeros, still no exponent.
    QCOMPARE(NumberFormat::compact(1.81, 4), QStringLiteral("1.81"));
    QCOMPARE(NumberFormat::compact(18100.0, 4), QStringLiteral("18,100"));
    QCOMPARE(NumberFormat::compact(41700.0, 4), QStringLiteral("41,700"));
    QCOMPARE(NumberFormat::compact(0.000123, 4), QStringLiteral("0.000123"));
    QCOMPARE(NumberFormat::compact(2.0, 4), QStringLiteral("2"));
    for (double v : {1e-7, 3.3e-5, 0.5, 7.0, 1e4, 2.5e6, 9.99e9, 1e15})
        for (int d : {0, 2, 6}) {
            const QString s = NumberFormat::fixed(v, d);
            QVERIFY2(!s.contains(u'e') && !s.contains(u' ') && !s.contains(u'\n'), qPrintable(s));
        }
}

void TstReportFormat::decimalsChosenPerColumn()
{
    QCOMPARE(NumberFormat::decimalsFor({4.17, 1.81, 2.99}, 3), 2);
    QCOMPARE(NumberFormat::decimalsFor({12345.0, 23456.0}, 3), 0);
    QCOMPARE(NumberFormat::decimalsFor({4.17, 0.9}, 3), 2);   // "0.90", not "0.9" beside "4.17"
    QCOMPARE(NumberFormat::decimalsFor({270.0, 50.0}, 3), 0);   // "270" and "50", not "270.0"
    QCOMPARE(NumberFormat::decimalsFor({0.00116, 0.0005}, 3), 5);
    QCOMPARE(NumberFormat::decimalsFor({0.2, 0.00116}, 3), 4);   // the smallest keeps two digits: "0.0012"
    QCOMPARE(NumberFormat::decimalsFor({12345.0, 0.5}, 3), 2);   // "12,345.00" and "0.50"
    QCOMPARE(NumberFormat::decimalsFor({1e-12}, 3), 6);   // at most maxDecimals
    QCOMPARE(NumberFormat::decimalsFor({0.0, std::numeric_limits<double>::quiet_NaN()}, 3), 0);
    ReportTable t;
    t.columns = {{QStringLiteral("Runtime"), QStringLiteral("s")}};
    t.rows = {{{ReportCell::ranged(2.99, 1.81, 4.17)}, {}}, {{ReportCell::number(1.5)}, {}}};
    t.fitDecimals(0, 3);
    QCOMPARE(t.columns[0].decimals, 2);
    QCOMPARE(t.cellText(t.rows[0].cells[0], 0), QStringLiteral("2.99 (1.81–4.17)"));
    QCOMPARE(t.cellText(t.rows[1].cells[0], 0), QStringLiteral("1.50"));   // same decimals as the column
    QCOMPARE(t.headerText(0), QStringLiteral("Runtime [s]"));
}

void TstReportFormat::strongScalingTableText()
{
    const StudyChartData data = StudyChartData::build(bigStudy());
    const ReportTable t = ScalingReportTables::strongScaling(data);
    QCOMPARE(t.rows.size(), 4 + data.analysis().predictions().size());
    // 1 GPU: the median of 36,000 and 37,000 s with its range; throughput the same way.
    QCOMPARE(t.cellText(t.rows[0].cells[2], 2), QStringLiteral("36,500 (36,000–37,000)"));
    QCOMPARE(t.cellText(t.rows[0].cells[5], 5), QStringLiteral("11,111 (10,988–11,235)"));
    QCOMPARE(t.cellText(t.rows[3].cells[5], 5), QStringLiteral("79,311"));
    QCOMPARE(t.cellText(t.rows[3].cells[3], 3), QStringLiteral("7.16×"));   // 36,500 / 5,100
    QCOMPARE(t.cellText(t.rows[3].cells[4], 4), QStringLiteral("89.5 %"));
    QCOMPARE(t.cellText(t.rows[0].cells[7], 7), QStringLiteral("10.1"));   // GPU-hours: the median
    QCOMPARE(t.cellText(t.rows[0].cells[3], 3), QStringLiteral("1.00× (0.99–1.01)"));
    for (const ReportRow &r : t.rows)
        for (int c = 0; c < r.cells.size(); ++c)
            noExponentNorBrokenNumber(t.cellText(r.cells[c], c, Grouping::None));
}

void TstReportFormat::markdownTables()
{
    const QList<RunMetricsRow> rows = bigStudy();
    const StudyChartData data = StudyChartData::build(rows);
    StudyRecord study;
    study.name = QStringLiteral("resnet on lumi");
    const ScalingReportModel m = ScalingReportModel::build(study, RunMetricsTable{rows}, data, {}, QDateTime());
    const QString md = m.markdown();
    QVERIFY(md.startsWith(QStringLiteral("# Scaling report: resnet on lumi\n")));
    QVERIFY(md.contains(QStringLiteral("- **Slurm version**: 23.02.7 (reported by sbatch --version on the cluster)")));
    QVERIFY(md.contains(QStringLiteral("## Recommendation\n\n") + data.analysis().summary()));
    QVERIFY(md.contains(QStringLiteral("| GPUs | Runs used | Runtime [s] | Speedup | Efficiency | "
                                       "Throughput [samples/s] | Accuracy | GPU-hours |\n| --- | ---: |")));
    QVERIFY(md.contains(QStringLiteral("| *completed runs* | *train_time_s median* |")));
    QVERIFY2(md.contains(QStringLiteral("| 8 | 1 | 5,100 | 7.16× | 89.5 % | 79,311 | – | 11.3 |")), qPrintable(md));
    QVERIFY(md.contains(QStringLiteral("| 5 | 7005 | 8 | COMPLETED | 5,100 | 79,311 | – |")));   // runs table
    QVERIFY(md.contains(QStringLiteral("Amdahl estimate: not measured")));
    QVERIFY(!md.contains(QStringLiteral("† did not complete")));   // every run completed: no mark to explain
    noExponentNorBrokenNumber(md);
}

void TstReportFormat::csvTable()
{
    const ReportTable t = ScalingReportTables::strongScaling(StudyChartData::build(bigStudy()));
    const QStringList lines = t.csv().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("GPUs,Runs used,Runtime [s],Runtime min [s],Runtime max [s],Speedup [×],"
                                           "Speedup min [×],Speedup max [×],Efficiency [%],Throughput [samples/s],"
                                           "Throughput min [samples/s],Throughput max [samples/s],Accuracy,"
                                           "GPU-hours,Note"));
    QCOMPARE(lines[1], QStringLiteral("1,2,36500,36000,37000,1.00,0.99,1.01,100.0,11111,10988,11235,,10.1,"));
    QCOMPARE(lines[4], QStringLiteral("8,1,5100,5100,5100,7.16,7.16,7.16,89.5,79311,79311,79311,,11.3,"));
    QVERIFY(lines.last().endsWith(QStringLiteral("Amdahl estimate: not measured")));
    const qsizetype fields = lines.first().count(u',');
    for (const QString &l : lines) {
        QCOMPARE(l.count(u','), fields);   // no separator inside a number
        noExponentNorBrokenNumber(l);
    }
}

void TstReportFormat::resourcesTableHasEnergyWhenMeasured()
{
    QList<RunMetricsRow> rows = bigStudy();
    const StudyChartData data = StudyChartData::build(rows);
    // No run measured energy: no energy columns.
    QCOMPARE(ScalingReportTables::resources(rows, data.input()).columns.size(), 6);
    rows[0].metrics.insert(metric::EnergyWh, MetricRecord{1, metric::EnergyWh, 12345.678, {}, metric::SourceGpu});
    rows[0].metrics.insert(metric::EnergyJPerSample,
                           MetricRecord{1, metric::EnergyJPerSample, 0.1099, {}, metric::SourceGpu});
    const ReportTable t = ScalingReportTables::resources(rows, data.input());
    QCOMPARE(t.columns.size(), 8);
    QCOMPARE(t.headerText(6), QStringLiteral("Energy [Wh]"));
    QCOMPARE(t.headerText(7), QStringLiteral("Energy per sample [J]"));
    QCOMPARE(t.cellText(t.rows[0].cells[6], 6), QStringLiteral("12,346"));
    QCOMPARE(t.cellText(t.rows[0].cells[7], 7), QStringLiteral("0.110"));
    QCOMPARE(t.cellText(t.rows[1].cells[6], 6), QStringLiteral("–"));   // not measured
    const QStringList lines = t.csv().split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QVERIFY2(lines.first().endsWith(QStringLiteral("Energy [Wh],Energy per sample [J],Note")),
             qPrintable(lines.first()));
    QVERIFY2(lines[1].endsWith(QStringLiteral(",12346,0.110,")), qPrintable(lines[1]));
    StudyRecord study;
    study.name = QStringLiteral("resnet on lumi");
    const QString md = ScalingReportModel::build(study, RunMetricsTable{rows}, data, {}, QDateTime()).markdown();
    QVERIFY2(md.contains(QStringLiteral("| Energy [Wh] | Energy per sample [J] |")), qPrintable(md));
    noExponentNorBrokenNumber(md);
}

void TstReportFormat::scriptsOnceWithDiffs()
{
    QList<RunMetricsRow> rows = bigStudy();
    rows[1].run.script = rows[0].run.script;   // the two 1-GPU runs share theirs
    const QList<ScriptVariant> v = ScriptVariants::group(rows);
    QCOMPARE(v.size(), 4);   // 1, 2, 4 and 8 GPUs
    QCOMPARE(v[0].runIds, (QList<qint64>{1, 2}));
    QCOMPARE(v[0].runsText(), QStringLiteral("runs 1, 2 (jobs 7001, 7002; 1 GPU)"));
    QVERIFY(v[0].diff.identical());
    QCOMPARE(v[1].runsText(), QStringLiteral("run 3 (job 7003; 2 GPUs)"));
    QCOMPARE(v[3].diff.added, 1);
    QCOMPARE(ScriptVariants::changedLines(v[3].diff),
             QStringLiteral("   2 - #SBATCH --gpus-per-node=1\n   2 + #SBATCH --gpus-per-node=8"));
}

void TstReportFormat::conditionsNameGpuTypeAndSlurm()
{
    QList<RunMetricsRow> rows = bigStudy();
    rows[0].run.slurmVersion.clear();
    rows[1].run.slurmVersion.clear();
    SacctRecord acct;
    acct.state = JobState::Completed;
    acct.allocTres = QStringLiteral("billing=8,cpu=8,gres/gpu:mi250=1,gres/gpu=1,node=1");
    acct.submit = QStringLiteral("2026-03-02T08:00:00");
    acct.end = QStringLiteral("2026-03-02T18:00:00");
    rows[0].accounting = acct;
    const DocumentedFactsOf documented = [](const RunRecord &) {
        return DocumentedFacts{QStringLiteral("22.05.10"), QStringLiteral("AMD MI250X (mi250)")};
    };
    const ScalingReportModel m = ScalingReportModel::build(StudyRecord{}, RunMetricsTable{rows},
                                                           StudyChartData::build(rows), documented, QDateTime());
    auto value = [&m](const QString &what) {
        for (const ReportRow &r : m.conditions.rows)
            if (r.cells[0].text == what)
                return r.cells[1].text;
        return QString();
    };
    QCOMPARE(value(QStringLiteral("Cluster")), QStringLiteral("lumi"));
    QCOMPARE(value(QStringLiteral("Partition")), QStringLiteral("standard-g"));
    QCOMPARE(value(QStringLiteral("GPU type")), QStringLiteral("mi250 (allocated, sacct AllocTRES), AMD MI250X (mi250) "
                                                               "(documented by the lumi profile)"));
    QCOMPARE(value(QStringLiteral("Slurm version")),
             QStringLiteral("22.05.10 (documented by the lumi profile), 23.02.7 "
                            "(reported by sbatch --version on the cluster)"));
    QCOMPARE(value(QStringLiteral("First submitted")), QStringLiteral("2026-03-02T08:00:00"));
    QCOMPARE(value(QStringLiteral("Last ended")), QStringLiteral("2026-03-02T18:00:00"));
}

QTEST_GUILESS_MAIN(TstReportFormat)
#include "tst_reportformat.moc"
