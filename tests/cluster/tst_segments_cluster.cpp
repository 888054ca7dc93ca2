// SPDX-License-Identifier: GPL-3.0-or-later
// A run longer than its time limit on the real loopback cluster: a spec with a
// 1-minute limit and "until-done" segments trains the example program for 32
// one-second epochs, which no single segment can finish (Slurm signals it 30 s
// before the limit, the script's trap queues the next segment with sbatch from
// inside the job and passes SIGUSR1 on, the program checkpoints and the next
// segment resumes; a segment does 14-23 epochs, fewer under load). The submit
// creates one job; the run ends COMPLETED with every segment COMPLETED, each
// but the last ended on its limit and queued the next, none queued for nothing;
// its last epoch is the 32nd (what one long run would reach), every epoch
// appears once and in order, and the run's elapsed time is the sum of its segments'.
#include "CliRunner.h"
#include "TestClusterEnv.h"

#include "core/slurm/SlurmTime.h"
#include "core/store/RunStore.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::test::runCli;
using namespace scalelab;

namespace {
constexpr int kEpochs = 32;
}

class TestSegmentsCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void segmentsUntilDoneFinishOneRun();
    void cleanupTestCase();

private:
    QString runState(qint64 runId);
    QTemporaryDir m_data;
    QTemporaryDir m_files;
    QString m_programs;
    QString m_runFolder;   // on the cluster (this machine): the run folder with its checkpoint
    bool m_passed = false;   // a failed run's folders stay for a look
};

void TestSegmentsCluster::cleanupTestCase()
{
    if (!m_passed)
        return;
    QDir(m_programs).removeRecursively();
    if (m_runFolder.contains(QLatin1String("/.scalelab/runs/sl-")))
        QDir(m_runFolder).removeRecursively();
}

void TestSegmentsCluster::initTestCase()
{
    const auto env = scalelab::test::TestClusterEnv::load();
    QVERIFY2(env.error.isEmpty(), qPrintable(env.error));
    qputenv("SCALELAB_DATA_DIR", m_data.path().toUtf8());
    // Jobs run as the cluster's researcher account: the program must be world-readable.
    m_programs = QStringLiteral("/tmp/scalelab-segments-test-%1").arg(QCoreApplication::applicationPid());
    QDir().mkpath(m_programs);
    const auto readable =
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther | QFileDevice::ReadGroup;
    QFile::setPermissions(m_programs, readable | QFileDevice::ExeOwner | QFileDevice::ExeOther | QFileDevice::ExeGroup);
    const QString program = m_programs + QStringLiteral("/pytorch_ddp_digits.py");
    QFile::remove(program);
    QVERIFY(QFile::copy(QStringLiteral(SCALELAB_TESTS_DIR "/../resources/examples/pytorch_ddp_digits.py"), program));
    QFile::setPermissions(program, readable);
}

QString TestSegmentsCluster::runState(qint64 runId)
{
    const auto doc = QJsonDocument::fromJson(runCli({QStringLiteral("runs"), QStringLiteral("--json")}).out.toUtf8());
    for (const auto &v : doc.object().value(QStringLiteral("runs")).toArray())
        if (v.toObject().value(QStringLiteral("id")).toInteger() == runId)
            return v.toObject().value(QStringLiteral("state")).toString();
    return {};
}

void TestSegmentsCluster::segmentsUntilDoneFinishOneRun()
{
    const QString spec = m_files.filePath(QStringLiteral("segments.json"));
    QFile f(spec);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral(R"({"profile": "testbed", "partition": "gpu", "gpus": 1, "framework": "pytorch-ddp",
  "launcher": "srun", "time": "00:01:00", "account": "project_2001234", "jobName": "segments", "cpusPerGpu": 1,
  "program": "%1/pytorch_ddp_digits.py", "args": ["--epochs", "%2", "--min-epoch-seconds", "1"],
  "monitoring": {"gpuSampleSeconds": 0},
  "segments": {"count": "until-done", "signalLead": 30}})")
                .arg(m_programs)
                .arg(kEpochs)
                .toUtf8());
    f.close();
    const auto sent = runCli({QStringLiteral("submit"), spec});
    QVERIFY2(sent.exitCode == 0, qPrintable(sent.out + sent.err));
    const auto m = QRegularExpression(QStringLiteral("run (\\d+): submitted as job (\\d+)")).match(sent.out);
    QVERIFY2(m.hasMatch(), qPrintable(sent.out));
    const qint64 runId = m.captured(1).toLongLong();

    RunStore store(m_data.path());
    QCOMPARE(store.open().errorText(), QString());
    const auto chain = store.segments(runId);
    QVERIFY(chain.ok());
    QCOMPARE(chain->size(), 1);   // the first only: each segment on its limit queues the next
    QCOMPARE(chain->first().jobId, m.captured(2));
    m_runFolder = store.run(runId).value().remoteDir;

    // Wait (one poll cycle at a time) until the run ended: 2-3 segments of ~1.5 min.
    QElapsedTimer t;
    t.start();
    QString state;
    while (t.elapsed() < 420000) {
        const auto polled = runCli({QStringLiteral("status")});
        QVERIFY2(polled.exitCode == 0, qPrintable(polled.out + polled.err));
        state = runState(runId);
        if (state != QLatin1String("PENDING") && state != QLatin1String("RUNNING") && !state.isEmpty())
            break;
        QThread::msleep(2000);
    }
    QCOMPARE(state, QStringLiteral("COMPLETED"));

    const auto segments = store.segments(runId);
    QVERIFY(segments.ok());
    QVERIFY2(segments->size() >= 2 && segments->size() <= 4, qPrintable(QString::number(segments->size())));
    qint64 elapsedSum = 0;
    QList<QByteArray> texts;
    for (const SegmentRecord &s : *segments) {
        QCOMPARE(SlurmJobState::id(s.state), QStringLiteral("COMPLETED"));
        elapsedSum += SlurmTime::parseSeconds(s.elapsed).value_or(0);
        QFile out(store.runFilesDirectory(runId) + QStringLiteral("/scalelab-%1.out").arg(s.jobId));
        QVERIFY2(out.open(QIODevice::ReadOnly), qPrintable(out.fileName()));
        texts << out.readAll();
        qInfo("segment %d (job %s, %s):\n%s", s.segment, qPrintable(s.jobId), qPrintable(s.elapsed),
              texts.last().constData());
    }
    // Every segment but the last reached its limit and queued the next. It saved a checkpoint,
    // unless the work ended just as the limit came: then the next one finds it done and ends.
    const QByteArray notNeeded = "not needed: the work is done";
    for (int i = 0; i + 1 < texts.size(); ++i) {
        QVERIFY2(texts[i].contains("reached its time limit"), "a segment before the last ended the work");
        QVERIFY2(texts[i].contains(QStringLiteral("segment %1 queued after this one").arg(i + 2).toUtf8()),
                 "the trap did not queue the next segment");
        QVERIFY2(texts[i].contains("checkpoint saved after epoch") || texts[i + 1].contains(notNeeded),
                 "a segment stopped on its limit without a checkpoint");
        QVERIFY2(!texts[i].contains(notNeeded), "a segment before the last was not needed");
    }
    QVERIFY2(!texts.last().contains("reached its time limit"), "the last segment stopped on its limit");
    QVERIFY2(!texts.last().contains("queued after this one"), "the last segment queued another");

    // The run's accounting adds the segments up; its epochs continue across them.
    const auto acct = store.accounting(runId);
    QVERIFY(acct.ok() && acct->has_value());
    QCOMPARE(SlurmTime::parseSeconds((*acct)->elapsed).value_or(-1), elapsedSum);
    const auto series = store.series(runId);
    QVERIFY(series.ok());
    bool seen = false;
    for (const MetricSeries &s : *series) {
        if (s.name != QLatin1String("train_loss"))
            continue;
        seen = true;
        QCOMPARE(s.steps.size(), kEpochs);
        for (int i = 0; i < kEpochs; ++i)
            QCOMPARE(s.steps.at(i), double(i + 1));
    }
    QVERIFY2(seen, "no train_loss series was stored");
    const auto metrics = store.metrics(runId);
    QVERIFY(metrics.ok());
    for (const MetricRecord &r : *metrics)
        if (r.name == QLatin1String("elapsed_s"))
            QCOMPARE(qint64(r.value), elapsedSum);
    m_passed = true;
}

QTEST_GUILESS_MAIN(TestSegmentsCluster)
#include "tst_segments_cluster.moc"
