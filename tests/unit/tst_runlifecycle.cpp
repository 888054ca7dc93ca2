// SPDX-License-Identifier: GPL-3.0-or-later
// RunLifecycle against the fake Slurm: a batch is validated and stored whole
// before anything is sent; unresolved runs are reconciled and sent once; a run
// that finishes is fetched and its metrics stored in the poll cycle that saw
// it finish (no Results place, no extra step); a run left finished without
// metrics (the process ended before its ingest) is ingested by the next poll
// cycle, or without any connection by RunLifecycle::ingestMissed.
#include "FakeSlurm.h"
#include "ProfileFixtures.h"
#include "core/client/RunLifecycle.h"
#include "core/client/SlurmClient.h"
#include "core/store/RunStore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;
using scalelab::test::FakeSlurm;

namespace {

QList<SubmitRequest> study(const QList<int> &gpus)
{
    QList<SubmitRequest> out;
    for (int g : gpus)
        out << SubmitRequest{
            test::testbedSpec(QStringLiteral("a researcher's scaling run"), g, QStringLiteral("train.py")),
            &test::repoProfile(QStringLiteral("testbed")), QStringLiteral("testbed")};
    return out;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}   // namespace

class TestRunLifecycle : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();

    void batchStoredWholeThenSent();
    void invalidBatchStoresAndSendsNothing();
    void unresolvedRunIsSentOnce();
    void finishedRunHasMetricsAfterItsPollCycle();
    void runFinishedWithoutMetricsIsIngestedLate();

private:
    QTemporaryDir *m_dir = nullptr;
    RunStore *m_store = nullptr;
    FakeRemoteExecutor *m_exec = nullptr;
    FakeSlurm *m_slurm = nullptr;
    SlurmClient *m_client = nullptr;
    RunLifecycle *m_lifecycle = nullptr;
};

void TestRunLifecycle::init()
{
    m_dir = new QTemporaryDir;
    m_store = new RunStore(m_dir->path());
    QCOMPARE(m_store->open().errorText(), QString());
    m_exec = new FakeRemoteExecutor;
    m_slurm = new FakeSlurm(*m_exec);
    m_client = new SlurmClient(*m_exec, *m_store, "testbed");
    m_lifecycle = new RunLifecycle(*m_client, *m_store);
}

void TestRunLifecycle::cleanup()
{
    delete m_lifecycle;
    delete m_client;
    delete m_slurm;
    delete m_exec;
    delete m_store;
    delete m_dir;
}

void TestRunLifecycle::batchStoredWholeThenSent()
{
    const auto stored = RunLifecycle::storeBatch(*m_store, study({1, 2, 4}), "a researcher's study");
    QVERIFY2(stored.ok(), qPrintable(stored.errorText()));
    QCOMPARE(stored->size(), 3);
    QCOMPARE(m_exec->calls.size(), 0);   // storing sends nothing
    const qint64 studyId = stored->front().studyId;
    QVERIFY(studyId > 0);
    QCOMPARE(m_store->study(studyId).value().name, QStringLiteral("a researcher's study"));
    QList<qint64> ids;
    for (const RunRecord &r : *stored) {
        QCOMPARE(r.studyId, studyId);
        QCOMPARE(r.submitState, SubmitState::Intent);
        ids << r.id;
    }
    QCOMPARE(QList<int>({stored->at(0).gpus, stored->at(1).gpus, stored->at(2).gpus}), QList<int>({1, 2, 4}));

    const QList<SentRun> sent = m_lifecycle->sendBatch(ids);
    QCOMPARE(sent.size(), 3);
    QStringList jobs;
    for (const SentRun &s : sent) {
        QCOMPARE(s.outcome.kind, SubmitOutcome::Kind::Submitted);
        jobs << s.outcome.jobId;
    }
    QCOMPARE(jobs, QStringList({"100", "101", "102"}));
    QCOMPARE(m_exec->countCommands("sbatch --parsable"), 3);
    QCOMPARE(m_store->run(ids[2]).value().jobId, QStringLiteral("102"));
}

void TestRunLifecycle::invalidBatchStoresAndSendsNothing()
{
    QList<SubmitRequest> batch = study({1, 2, 4});
    batch[1].spec.gpus = 4096;   // more than the testbed has
    const Diagnostics errors = RunLifecycle::validateBatch(batch);
    QVERIFY(hasErrors(errors));
    QVERIFY2(errors.front().message.startsWith("4096 GPU(s): "), qPrintable(errors.front().message));
    const auto stored = RunLifecycle::storeBatch(*m_store, batch, "a researcher's study");
    QVERIFY(stored.failedWith(ErrorCode::InvalidValue));
    QCOMPARE(m_store->runs().value().size(), 0);
    QCOMPARE(m_store->studies().value().size(), 0);
    QCOMPARE(m_exec->calls.size(), 0);

    QList<SubmitRequest> unknown = study({1});
    unknown[0].profile = nullptr;
    QCOMPARE(RunLifecycle::validateBatch(unknown).front().rule, QStringLiteral("unknown-profile"));
    QVERIFY(RunLifecycle::storeBatch(*m_store, unknown, {}).failedWith(ErrorCode::InvalidValue));
}

void TestRunLifecycle::unresolvedRunIsSentOnce()
{
    const auto stored = RunLifecycle::storeBatch(*m_store, study({2}), {});
    QVERIFY(stored.ok());
    const qint64 id = stored->front().id;
    // A crash right after "sbatch is about to run" was recorded, before it ran.
    QVERIFY(m_store->setSubmitState(id, SubmitState::Unknown, "crash").ok());
    // A run stored after the caller looked is left to its own send task.
    QCOMPARE(m_lifecycle->reconcileUnresolved(id - 1).runs.size(), 0);
    const ReconcileReport first = m_lifecycle->reconcileUnresolved();
    QCOMPARE(first.runs.size(), 1);
    QCOMPARE(first.runs.front().outcome.kind, ReconcileOutcome::Kind::NotSubmitted);
    QVERIFY(first.runs.front().resubmit.has_value());
    QCOMPARE(first.runs.front().resubmit->kind, SubmitOutcome::Kind::Submitted);
    QVERIFY(first.changed());
    const ReconcileReport second = m_lifecycle->reconcileUnresolved();
    QCOMPARE(second.runs.size(), 0);
    QVERIFY(!second.changed());
    QCOMPARE(m_exec->countCommands("sbatch --parsable"), 1);
    QCOMPARE(m_store->run(id).value().jobId, QStringLiteral("100"));
}

void TestRunLifecycle::finishedRunHasMetricsAfterItsPollCycle()
{
    const auto stored = RunLifecycle::storeBatch(*m_store, study({2}), {});
    QVERIFY(stored.ok());
    const qint64 id = stored->front().id;
    QCOMPARE(m_lifecycle->sendBatch({id}).front().outcome.kind, SubmitOutcome::Kind::Submitted);
    const QString dir = m_store->run(id).value().remoteDir;
    const QByteArray log = readAll(QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/ddp-digits-2proc.out"));
    QVERIFY(!log.isEmpty());
    m_exec->files.insert(dir + "/scalelab-100.out", log);
    // The fake Slurm knows no `find`: list the job's files as find -printf does.
    const auto slurm = m_exec->onRun;
    m_exec->onRun = [&, slurm](const QStringList &argv) {
        if (argv.value(0) != "find")
            return slurm(argv);
        RemoteResult r;
        r.exitCode = 0;
        r.out = QByteArray::number(log.size()) + " scalelab-100.out\n";
        return r;
    };

    // Running: the cycle tails nothing (not watched), fetches nothing.
    m_slurm->jobs[0].state = JobState::Running;
    PollCycleReport rep = m_lifecycle->pollCycle();
    QVERIFY(rep.poll.ok());
    QCOMPARE(rep.finalRuns, QList<qint64>());
    QVERIFY(rep.moreActive);
    QCOMPARE(m_store->metrics(id).value().size(), 0);

    // It finishes: the cycle that sees it stores its metrics before returning.
    m_slurm->jobs[0].state = JobState::Completed;
    rep = m_lifecycle->pollCycle();
    QVERIFY(rep.poll.ok());
    QCOMPARE(rep.finalRuns, QList<qint64>({id}));
    QCOMPARE(rep.fetchErrors, QStringList());
    QCOMPARE(rep.ingestErrors, QStringList());
    QVERIFY(!rep.moreActive);
    QCOMPARE(m_store->run(id).value().state, JobState::Completed);
    QMap<QString, double> metrics;
    for (const MetricRecord &m : m_store->metrics(id).value())
        metrics.insert(m.name, m.value);
    QCOMPARE(metrics.value("test_accuracy"), 0.9778);
    QCOMPARE(metrics.value("train_time_s"), 3.301);
    QCOMPARE(metrics.value("samples_per_s"), 8712.4);
    QCOMPARE(rep.metricsStored, int(m_store->metrics(id).value().size()));
    QCOMPARE(readAll(m_store->runFilesDirectory(id) + "/scalelab-100.out"), log);
}

void TestRunLifecycle::runFinishedWithoutMetricsIsIngestedLate()
{
    const auto stored = RunLifecycle::storeBatch(*m_store, study({2, 2}), {});
    QVERIFY(stored.ok());
    const qint64 late = stored->at(0).id;
    const qint64 running = stored->at(1).id;
    for (const SentRun &s : m_lifecycle->sendBatch({late, running}))
        QCOMPARE(s.outcome.kind, SubmitOutcome::Kind::Submitted);
    m_slurm->jobs[1].state = JobState::Running;
    // The first job's final state and accounting were stored, then the
    // process ended before its ingest. The second one's output tail is here.
    SacctRecord acct;
    acct.jobId = QStringLiteral("100");
    acct.state = JobState::Completed;
    acct.stateText = QStringLiteral("COMPLETED");
    acct.exitCode = QStringLiteral("0:0");
    acct.elapsed = QStringLiteral("00:10:00");
    acct.allocTres = QStringLiteral("billing=4,cpu=4,gres/gpu=2,node=1");
    QCOMPARE(m_store->recordFinal(late, acct).errorText(), QString());
    const QString tail = m_store->runFilesDirectory(running) + "/scalelab-101.out";
    QVERIFY(QDir().mkpath(m_store->runFilesDirectory(running)));
    QFile f(tail);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("epoch 1 loss=0.5\n");
    f.close();
    QCOMPARE(m_store->recordFile({running, "/scratch/run/scalelab-101.out", tail, 17, 17, {}}).errorText(), QString());
    QCOMPARE(m_store->runsAwaitingIngest().value().size(), 1);
    QCOMPARE(m_store->runsAwaitingIngest("another-cluster").value().size(), 0);

    const PollCycleReport rep = m_lifecycle->pollCycle();
    QVERIFY(rep.poll.ok());
    QCOMPARE(rep.finalRuns, QList<qint64>());
    QCOMPARE(rep.lateRuns, QList<qint64>({late}));
    QCOMPARE(rep.ingestErrors, QStringList());
    QMap<QString, double> metrics;
    for (const MetricRecord &m : m_store->metrics(late).value())
        metrics.insert(m.name, m.value);
    QCOMPARE(metrics.value("elapsed_s"), 600.0);
    QCOMPARE(metrics.value("gpus"), 2.0);
    QCOMPARE(rep.metricsStored, int(metrics.size()));
    QCOMPARE(m_store->metrics(running).value().size(), 0);   // still running: not ingested
    // Nothing is left to repair, with or without a connection.
    QCOMPARE(m_lifecycle->pollCycle().lateRuns, QList<qint64>());
    QCOMPARE(RunLifecycle::ingestMissed(*m_store).runs, QList<qint64>());
}

QTEST_GUILESS_MAIN(TestRunLifecycle)
#include "tst_runlifecycle.moc"
