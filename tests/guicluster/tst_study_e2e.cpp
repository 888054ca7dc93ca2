// SPDX-License-Identifier: GPL-3.0-or-later
// The result explorer end to end on the real cluster: a 1-, 2- and 4-process
// PyTorch DDP study of the shipped example is composed from one spec,
// submitted over SSH (`scalelab study`), watched (`scalelab status`), fetched
// and ingested; the explorer's charts must show exactly what sacct and the
// training logs say, and the report PDF must carry the advisor's sentence
// and the job scripts.
#include "ui/common/AppServices.h"
#include "CliRunner.h"
#include "ui/results/ResultsPlace.h"
#include "core/store/RunStore.h"
#include "ScreenshotDir.h"
#include "ui/results/StudyCharts.h"
#include "TestClusterEnv.h"
#include "core/slurm/TresString.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;
using scalelab::test::runCli;

class TestStudyE2E : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void studyRunsAndChartsMatchAccountingAndLogs();

private:
    QTemporaryDir m_data;
    QTemporaryDir m_files;
    QString m_programs;
};

void TestStudyE2E::initTestCase()
{
    const auto env = scalelab::test::TestClusterEnv::load();
    QVERIFY2(env.error.isEmpty(), qPrintable(env.error));
    qputenv("SCALELAB_DATA_DIR", m_data.path().toUtf8());
    // The example runs as the cluster's researcher account: world-readable copy.
    m_programs = QStringLiteral("/tmp/scalelab-study-e2e-%1").arg(QCoreApplication::applicationPid());
    QDir().mkpath(m_programs);
    QFile::setPermissions(m_programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                          | QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup
                                          | QFileDevice::ExeGroup);
    const QString program = m_programs + QStringLiteral("/pytorch_ddp_digits.py");
    QFile::remove(program);
    QVERIFY(QFile::copy(QStringLiteral(SCALELAB_TESTS_DIR "/../resources/examples/pytorch_ddp_digits.py"), program));
    QFile::setPermissions(program, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther
                                       | QFileDevice::ReadGroup);
}

void TestStudyE2E::studyRunsAndChartsMatchAccountingAndLogs()
{
    // The shipped example spec, pointed at the copy.
    QFile specIn(QStringLiteral(SCALELAB_TESTS_DIR "/../resources/examples/pytorch-ddp-digits.json"));
    QVERIFY(specIn.open(QIODevice::ReadOnly));
    QJsonObject spec = QJsonDocument::fromJson(specIn.readAll()).object();
    spec[QStringLiteral("program")] = m_programs + QStringLiteral("/pytorch_ddp_digits.py");
    spec[QStringLiteral("args")] = QJsonArray{QStringLiteral("--epochs"), QStringLiteral("5")};
    QFile specOut(m_files.filePath(QStringLiteral("spec.json")));
    QVERIFY(specOut.open(QIODevice::WriteOnly));
    specOut.write(QJsonDocument(spec).toJson());
    specOut.close();

    auto r = runCli({QStringLiteral("study"), specOut.fileName(), QStringLiteral("--gpus"), QStringLiteral("1,2,4"),
                     QStringLiteral("--name"), QStringLiteral("digits scaling")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const qint64 studyId = QRegularExpression(QStringLiteral("study (\\d+)")).match(r.out).captured(1).toLongLong();
    QVERIFY(studyId > 0);

    // Watch until every run finished (each poll is one squeue + one sacct).
    QElapsedTimer t;
    t.start();
    QJsonArray runs;
    bool allDone = false;
    while (!allDone && t.elapsed() < 300000) {
        QThread::msleep(3000);
        runCli({QStringLiteral("status")});
        runs = QJsonDocument::fromJson(runCli({QStringLiteral("runs"), QStringLiteral("--json")}).out.toUtf8())
                   .object()
                   .value(QStringLiteral("runs"))
                   .toArray();
        allDone = runs.size() == 3;
        for (const auto &v : runs) {
            const QString state = v.toObject().value(QStringLiteral("state")).toString();
            // A run that ended badly will never get its metrics: stop and say why.
            QVERIFY2(state != QLatin1String("FAILED") && state != QLatin1String("CANCELLED")
                         && state != QLatin1String("TIMEOUT"),
                     qPrintable(QJsonDocument(v.toObject()).toJson()));
            allDone =
                allDone && !v.toObject().value(QStringLiteral("accounting")).isNull()
                && v.toObject().value(QStringLiteral("metrics")).toObject().contains(QStringLiteral("test_accuracy"));
        }
    }
    QVERIFY2(allDone, qPrintable(QJsonDocument(runs).toJson()));

    // Expected values straight from sacct and the fetched logs.
    RunStore store;
    QCOMPARE(store.open().errorText(), QString());
    QMap<int, double> elapsedByGpus, accuracyByGpus, trainTimeByGpus, gpuHoursByGpus;
    for (const auto &v : runs) {
        const QJsonObject run = v.toObject();
        QCOMPARE(run.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
        const int gpus = run.value(QStringLiteral("gpus")).toInt();
        const QJsonObject acct = run.value(QStringLiteral("accounting")).toObject();
        QVERIFY(acct.value(QStringLiteral("allocTres")).toString().contains(QStringLiteral("gres/gpu=%1").arg(gpus)));
        const QStringList hms = acct.value(QStringLiteral("elapsed")).toString().split(QLatin1Char(':'));
        QCOMPARE(hms.size(), 3);
        elapsedByGpus[gpus] = hms[0].toInt() * 3600 + hms[1].toInt() * 60 + hms[2].toInt();
        gpuHoursByGpus[gpus] = gpus * elapsedByGpus[gpus] / 3600.0;
        // The log as fetched into the store.
        const QString dir = store.runFilesDirectory(run.value(QStringLiteral("id")).toInteger());
        QFile log(dir + QStringLiteral("/scalelab-%1.out").arg(run.value(QStringLiteral("jobId")).toString()));
        QVERIFY2(log.open(QIODevice::ReadOnly), qPrintable(log.fileName()));
        const QString text = QString::fromUtf8(log.readAll());
        const auto acc = QRegularExpression(QStringLiteral("test_accuracy ([0-9.]+)")).match(text);
        const auto tt = QRegularExpression(QStringLiteral("train_time_s ([0-9.]+)")).match(text);
        QVERIFY2(acc.hasMatch() && tt.hasMatch(), qPrintable(text.right(2000)));
        accuracyByGpus[gpus] = acc.captured(1).toDouble();
        trainTimeByGpus[gpus] = tt.captured(1).toDouble();
        QVERIFY(!text.contains(QLatin1String("no GPU samples")));   // the emulated nvidia-smi sampled
        // The per-epoch curves reached the store: rank 0's "epoch N loss X ... samples/s Y" lines.
        const qint64 runId = run.value(QStringLiteral("id")).toInteger();
        QVector<double> epochs, losses, rates;
        for (auto it =
                 QRegularExpression(QStringLiteral("epoch (\\d+) loss ([0-9.]+) time [0-9.]+ samples/s ([0-9.]+)"))
                     .globalMatch(text);
             it.hasNext();) {
            const auto m = it.next();
            epochs << m.captured(1).toDouble();
            losses << m.captured(2).toDouble();
            rates << m.captured(3).toDouble();
        }
        QCOMPARE(epochs.size(), 5);
        const auto series = store.series(runId);
        QVERIFY2(series.ok(), qPrintable(series.errorText()));
        QMap<QString, MetricSeries> byName;
        for (const MetricSeries &ms : series.value())
            byName.insert(ms.name, ms);
        QVERIFY2(byName.contains(QStringLiteral("train_loss")), qPrintable(QStringList(byName.keys()).join(u',')));
        QCOMPARE(byName[QStringLiteral("train_loss")].steps, epochs);
        QCOMPARE(byName[QStringLiteral("train_loss")].values, losses);
        QCOMPARE(byName[QStringLiteral("throughput")].steps, epochs);
        QCOMPARE(byName[QStringLiteral("throughput")].values, rates);
        // And every log value says where it came from.
        for (const MetricRecord &m : store.metrics(runId).value())
            if (m.name == QLatin1String("test_accuracy")) {
                QCOMPARE(m.rule, QStringLiteral("pytorch.example.test_accuracy"));
                QVERIFY2(m.file.endsWith(
                             QStringLiteral("/scalelab-%1.out").arg(run.value(QStringLiteral("jobId")).toString())),
                         qPrintable(m.file));
                QVERIFY(m.line > 0);
            }
    }
    QCOMPARE(elapsedByGpus.keys(), (QList<int>{1, 2, 4}));

    // The explorer, on the same store.
    AppServices services;
    ResultsPlace place(services);
    place.resize(1400, 900);
    place.show();
    QVERIFY(QTest::qWaitForWindowExposed(&place));
    place.showStudy(studyId);
    auto measured = [&](StudyChart c) {
        QMap<int, double> out;
        QCustomPlot *plot = place.charts()->chart(c);
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->objectName() == QLatin1String("measured"))
                for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
                    out[int(it->key)] = it->value;
        return out;
    };
    // The place loads on a pool thread, and choosing the study loads it again:
    // the charts are read once the last load is in and they show this study.
    QTRY_VERIFY2_WITH_TIMEOUT(
        !place.isLoading() && measured(StudyChart::Runtime).size() == elapsedByGpus.size(),
        qPrintable(QStringLiteral("runtime chart of %1: %2 measured points, %3")
                       .arg(place.charts()->input().runtimeMetric)
                       .arg(measured(StudyChart::Runtime).size())
                       .arg(place.isLoading() ? QStringLiteral("still loading") : QStringLiteral("loaded"))),
        20000);
    const QString runtimeMetric = place.charts()->input().runtimeMetric;
    const QMap<int, double> runtime = measured(StudyChart::Runtime);
    const QMap<int, double> &expectedRuntime =
        runtimeMetric == QLatin1String("elapsed_s") ? elapsedByGpus : trainTimeByGpus;
    QCOMPARE(runtime.keys(), expectedRuntime.keys());
    for (int g : expectedRuntime.keys())
        QVERIFY2(qFuzzyCompare(runtime[g], expectedRuntime[g]), qPrintable(QStringLiteral("%1 GPUs: chart %2, %3 %4")
                                                                               .arg(g)
                                                                               .arg(runtime[g])
                                                                               .arg(runtimeMetric)
                                                                               .arg(expectedRuntime[g])));
    const QMap<int, double> accuracy = measured(StudyChart::Accuracy);
    for (int g : accuracyByGpus.keys())
        QVERIFY2(qFuzzyCompare(accuracy.value(g, -1), accuracyByGpus[g]), qPrintable(QString::number(g)));
    const QMap<int, double> cost = measured(StudyChart::Cost);
    for (int g : gpuHoursByGpus.keys())
        QVERIFY2(std::abs(cost.value(g, -1) - gpuHoursByGpus[g]) < 1e-9, qPrintable(QString::number(g)));
    // Speedup is runtime(1)/runtime(N): the chart says the same.
    const QMap<int, double> speedup = measured(StudyChart::Speedup);
    for (int g : {2, 4})
        QVERIFY2(std::abs(speedup.value(g, -1) - expectedRuntime[1] / expectedRuntime[g]) < 1e-6,
                 qPrintable(QString::number(g)));
    // The advisor tells the truth about this 2-core machine either way.
    const QString advice = place.charts()->adviceText();
    QVERIFY(!advice.isEmpty());
    if (expectedRuntime[4] >= expectedRuntime[1])
        QVERIFY2(advice.contains(QLatin1String("slower")) || advice.contains(QLatin1String("1 GPU")),
                 qPrintable(advice));
    QTest::qWait(100);   // layout settled before the picture
    QVERIFY(place.grab().save(test::screenshotPath(QStringLiteral("results-study.png"))));

    // The report, headless, and its text.
    const QString pdf = m_files.filePath(QStringLiteral("report.pdf"));
    r = runCli({QStringLiteral("report"), QString::number(studyId), QStringLiteral("-o"), pdf});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(60000));
    const QString pdfText = QString::fromUtf8(text.readAllStandardOutput()).simplified();
    QVERIFY2(pdfText.contains(QLatin1String("#SBATCH --gres=gpu:v100:4")), qPrintable(pdfText.left(3000)));
    QVERIFY2(pdfText.contains(advice.simplified().left(40)),
             qPrintable(advice + QStringLiteral(" || ") + pdfText.left(3000)));
    QVERIFY(pdfText.contains(QLatin1String("testbed")));
}

QTEST_MAIN(TestStudyE2E)
#include "tst_study_e2e.moc"
