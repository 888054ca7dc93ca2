// SPDX-License-Identifier: GPL-3.0-or-later
// The shipped example spec parses, and the example's output feeds the log
// extractor and the scaling analysis.
#include "core/model/JobSpecJson.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/analysis/ScalingAnalysis.h"

#include <QFile>
#include <QTest>

using namespace scalelab;

namespace {
const QString kExamples = QStringLiteral(SCALELAB_TESTS_DIR "/../resources/examples/");
QString ingest(const char *name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/") + QLatin1String(name);
}
}   // namespace

class TstIngestExamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void specParses();
    void scriptPrintsWhatTheExtractorReads();
    void recordedRunsGiveTruthfulAdvice();
};

void TstIngestExamples::specParses()
{
    QFile f(kExamples + QStringLiteral("pytorch-ddp-digits.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const JobSpecParseResult r = parseJobSpec(f.readAll(), f.fileName());
    QVERIFY2(r.spec, qPrintable(r.errors.value(0).message));
    const JobSpec &s = *r.spec;
    QCOMPARE(s.profile, QStringLiteral("testbed"));
    QCOMPARE(s.partition, QStringLiteral("gpu"));
    QCOMPARE(s.gpus, 2);
    QCOMPARE(s.framework, Framework::PytorchDdp);
    QCOMPARE(s.time, QStringLiteral("00:10:00"));
    QCOMPARE(s.account, QStringLiteral("project_2001234"));
    QCOMPARE(s.jobName, QStringLiteral("ddp-digits"));
    QCOMPARE(s.program, QStringLiteral("/tmp/scalelab-testcluster/examples/pytorch_ddp_digits.py"));
    QCOMPARE(s.args, (QStringList{"--epochs", "20"}));
    QCOMPARE(s.cpusPerGpu, 1);
    QCOMPARE(s.gpuSampleSeconds, 2);
}

void TstIngestExamples::scriptPrintsWhatTheExtractorReads()
{
    QFile f(kExamples + QStringLiteral("pytorch_ddp_digits.py"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray py = f.readAll();
    for (const char *fmt : {"test_accuracy {", "test_loss {", "train_time_s {", "samples_per_s {", "samples/s {"})
        QVERIFY2(py.contains(fmt), fmt);
    const LogMetricResult r = LogMetricExtractor().extractFile(ingest("ddp-digits-2proc.out"));
    for (const char *name :
         {"test_accuracy", "test_loss", "train_time_s", "samples_per_s", "epoch_time_s", "throughput", "train_loss"})
        QVERIFY2(r.find(QLatin1String(name)), name);
}

void TstIngestExamples::recordedRunsGiveTruthfulAdvice()
{
    QList<ScalingRun> runs;
    for (auto [file, gpus] : {std::pair{"ddp-digits-1proc.out", 1}, std::pair{"ddp-digits-2proc.out", 2}}) {
        const LogMetricResult r = LogMetricExtractor().extractFile(ingest(file));
        ScalingRun run;
        run.gpus = gpus;
        run.runtimeSeconds = r.value(QStringLiteral("train_time_s"));
        run.throughput = r.value(QStringLiteral("samples_per_s"));
        run.accuracy = r.value(QStringLiteral("test_accuracy"));
        runs.append(run);
    }
    const ScalingAnalysis a = ScalingAnalysis::analyze(runs);
    QVERIFY(a.tooSmallToScale());
    QCOMPARE(a.recommendedGpus(), 1);
    QVERIFY2(a.summary().contains(QLatin1String("slower")), qPrintable(a.summary()));
}

QTEST_GUILESS_MAIN(TstIngestExamples)
#include "tst_ingest_examples.moc"
