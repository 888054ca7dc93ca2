// SPDX-License-Identifier: GPL-3.0-or-later
// Where fetch looks for a job's metric files (MetricFileLocations) and the
// spec field that names more (monitoring.metricDirs).
#include "core/compose/JobValidator.h"
#include "core/model/JobSpecJson.h"
#include "core/model/MetricFileLocations.h"

#include <QTest>

using namespace scalelab;

class TestMetricFileLocations : public QObject {
    Q_OBJECT
private slots:
    void runFolderFirstThenSpecThenArguments();
    void environmentMovesFrameworkFolders();
    void unusableFoldersAreSkippedAndReported();
    void specFieldRoundTrips();
    void specFieldOfTheWrongTypeIsNamed();
};

namespace {

QStringList paths(const QList<MetricFileLocation> &l)
{
    QStringList out;
    for (const MetricFileLocation &x : l)
        out << x.path;
    return out;
}

}   // namespace

void TestMetricFileLocations::runFolderFirstThenSpecThenArguments()
{
    JobSpec s;
    s.metricDirs = {QStringLiteral("/scratch/$USER/tb/"), QStringLiteral("logs")};
    s.args = {QStringLiteral("--output_dir"),
              QStringLiteral("out"),
              QStringLiteral("--logging_dir=/scratch/$USER/tb"),
              QStringLiteral("--trainer.default_root_dir"),
              QStringLiteral("${SCRATCH}/pl"),
              QStringLiteral("--output_dir")};   // the last one has no value: nothing
    const QList<MetricFileLocation> l = MetricFileLocations::of(s);
    QCOMPARE(paths(l), QStringList({".", "/scratch/$USER/tb", "logs", "out", "${SCRATCH}/pl"}));
    QCOMPARE(l.at(0).source, QStringLiteral("the run folder"));
    QCOMPARE(l.at(1).source, QStringLiteral("monitoring.metricDirs"));
    QCOMPARE(l.at(3).source, QStringLiteral("--output_dir"));
    QCOMPARE(l.at(4).source, QStringLiteral("--trainer.default_root_dir"));
}

void TestMetricFileLocations::environmentMovesFrameworkFolders()
{
    JobSpec s;
    s.environment.variables = {{QStringLiteral("WANDB_DIR"), QStringLiteral("/scratch/$USER/wb")},
                               {QStringLiteral("MLFLOW_TRACKING_URI"), QStringLiteral("file:///scratch/ml")},
                               {QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("8")}};
    QCOMPARE(paths(MetricFileLocations::of(s)), QStringList({".", "/scratch/$USER/wb", "/scratch/ml"}));
    // A tracking server is not a folder.
    s.environment.variables = {{QStringLiteral("MLFLOW_TRACKING_URI"), QStringLiteral("http://127.0.0.1:5000")}};
    QCOMPARE(paths(MetricFileLocations::of(s)), QStringList({"."}));
}

void TestMetricFileLocations::unusableFoldersAreSkippedAndReported()
{
    JobSpec s;
    s.metricDirs = {QStringLiteral("$(rm -rf ~)"), QStringLiteral("a\nb"), QStringLiteral("/"), QStringLiteral("ok")};
    s.args = {QStringLiteral("--logdir"), QStringLiteral("`id`")};
    QCOMPARE(paths(MetricFileLocations::of(s)), QStringList({".", "/", "ok"}));
    const Diagnostics d = MetricFileLocations::check(s);
    QCOMPARE(d.size(), 3);
    QCOMPARE(d.at(0).rule, QStringLiteral("metric-dir-invalid"));
    QCOMPARE(d.at(0).severity, Severity::Error);
    QCOMPARE(d.at(0).field, QStringLiteral("monitoring.metricDirs"));
    QCOMPARE(d.at(1).rule, QStringLiteral("metric-dir-invalid"));
    QCOMPARE(d.at(2).rule, QStringLiteral("metric-dir-wide"));
    QCOMPARE(d.at(2).severity, Severity::Warning);
}

void TestMetricFileLocations::specFieldRoundTrips()
{
    JobSpec s;
    s.profile = QStringLiteral("testbed");
    s.gpus = 2;
    s.program = QStringLiteral("train.py");
    s.metricDirs = {QStringLiteral("/scratch/$USER/tb"), QStringLiteral("with space")};
    const JobSpecParseResult back = parseJobSpec(jobSpecToJson(s));
    QVERIFY(back.spec);
    QCOMPARE(back.spec->metricDirs, s.metricDirs);
    QVERIFY(*back.spec == s);
    // Unset, the field is not written at all.
    QVERIFY(!jobSpecToJson(JobSpec{}).contains("metricDirs"));
}

void TestMetricFileLocations::specFieldOfTheWrongTypeIsNamed()
{
    const JobSpecParseResult r =
        parseJobSpec(R"({"profile": "testbed", "gpus": 2, "framework": "pytorch-ddp", "program": "train.py",
                                                  "monitoring": {"metricDirs": "out"}})",
                     QStringLiteral("s.json"));
    QVERIFY(!r.spec);
    QCOMPARE(r.errors.size(), 1);
    QCOMPARE(r.errors.at(0).field, QStringLiteral("monitoring.metricDirs"));
    QVERIFY2(r.errors.at(0).message.contains(QStringLiteral("array of strings")), qPrintable(r.errors.at(0).message));
}

QTEST_GUILESS_MAIN(TestMetricFileLocations)
#include "tst_metricfilelocations.moc"
