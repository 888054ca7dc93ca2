// SPDX-License-Identifier: GPL-3.0-or-later
// Every store write of the submit protocol fails once (an SQLite trigger
// refuses exactly that write), then the run is recovered the way the CLI and
// the window do it (RunLifecycle::reconcileUnresolved). Whatever write failed:
// Slurm holds exactly one job for the run, the store holds the run with that
// job's id, and nothing was sent when the failure came before sbatch.
#include "FakeSlurm.h"
#include "core/client/RunLifecycle.h"
#include "core/client/SlurmClient.h"
#include "core/store/RunStore.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;
using scalelab::test::FakeSlurm;

namespace {

RunRecord newRun()
{
    RunRecord r;
    r.profile = "testbed";
    r.clusterAlias = "testbed";
    r.partition = "gpu";
    r.gpus = 2;
    r.nodes = 1;
    r.framework = "pytorch-ddp";
    r.script = "#!/bin/bash\n#SBATCH --job-name=a-researchers-job\nsrun python train.py\n";
    return r;
}

// How sbatch answers in a case (on top of FakeSlurm's own switches).
enum class Sbatch { Normal, NoJobId, ShellFails };

}   // namespace

class TestSubmitStoreFaults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void failedWriteLosesNothing_data();
    void failedWriteLosesNothing();
    void failedStateWriteAfterReconcile();
    void batchStoreFailureSendsNothing();
};

void TestSubmitStoreFaults::failedWriteLosesNothing_data()
{
    QTest::addColumn<QString>("when");   // trigger condition on the runs row
    QTest::addColumn<int>("drop");   // FakeSlurm::Drop
    QTest::addColumn<bool>("controllerDown");
    QTest::addColumn<QByteArray>("rejectWith");
    QTest::addColumn<int>("sbatch");
    QTest::addColumn<int>("expectedKind");   // SubmitOutcome::Kind of the failed submit
    QTest::addColumn<int>("sbatchBeforeRecovery");

    using K = SubmitOutcome::Kind;
    using D = FakeSlurm::Drop;
    // Writes before sbatch: refused, nothing sent.
    QTest::newRow("remote dir") << "NEW.remote_dir <> OLD.remote_dir" << int(D::None) << false << QByteArray()
                                << int(Sbatch::Normal) << int(K::Refused) << 0;
    QTest::newRow("uploaded") << "NEW.submit_state = 'uploaded' AND OLD.submit_state = 'intent'" << int(D::None)
                              << false << QByteArray() << int(Sbatch::Normal) << int(K::Refused) << 0;
    QTest::newRow("unknown before sbatch")
        << "NEW.submit_state = 'unknown' AND OLD.submit_state <> 'unknown'" << int(D::None) << false << QByteArray()
        << int(Sbatch::Normal) << int(K::Refused) << 0;
    // Writes after sbatch (the six that used to be ignored): the run stays
    // "unknown" and is resolved by reconcile, never sent twice.
    QTest::newRow("connection lost") << "NEW.submit_state = 'unknown' AND OLD.submit_state = 'unknown'"
                                     << int(D::AfterMv) << false << QByteArray() << int(Sbatch::Normal)
                                     << int(K::Unknown) << 1;
    QTest::newRow("no job id printed") << "NEW.submit_state = 'unknown' AND OLD.submit_state = 'unknown'"
                                       << int(D::None) << false << QByteArray() << int(Sbatch::NoJobId)
                                       << int(K::Unknown) << 1;
    QTest::newRow("job id") << "NEW.job_id <> ''" << int(D::None) << false << QByteArray() << int(Sbatch::Normal)
                            << int(K::Unknown) << 1;
    QTest::newRow("controller down") << "NEW.submit_state = 'uploaded' AND OLD.submit_state = 'unknown'" << int(D::None)
                                     << true << QByteArray() << int(Sbatch::Normal) << int(K::Unknown) << 1;
    QTest::newRow("rejected") << "NEW.submit_state = 'rejected'" << int(D::None) << false
                              << QByteArray("sbatch: error: Batch job submission failed: Invalid partition\n")
                              << int(Sbatch::Normal) << int(K::Unknown) << 1;
    QTest::newRow("submit command failed")
        << "NEW.submit_state = 'unknown' AND OLD.submit_state = 'unknown'" << int(D::None) << false << QByteArray()
        << int(Sbatch::ShellFails) << int(K::Unknown) << 1;
}

void TestSubmitStoreFaults::failedWriteLosesNothing()
{
    QFETCH(QString, when);
    QFETCH(int, drop);
    QFETCH(bool, controllerDown);
    QFETCH(QByteArray, rejectWith);
    QFETCH(int, sbatch);
    QFETCH(int, expectedKind);
    QFETCH(int, sbatchBeforeRecovery);

    QTemporaryDir dir;
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    FakeRemoteExecutor exec;
    FakeSlurm slurm(exec);
    slurm.drop = FakeSlurm::Drop(drop);
    slurm.controllerDown = controllerDown;
    slurm.rejectWith = rejectWith;
    const auto inner = exec.onRun;
    bool odd = Sbatch(sbatch) != Sbatch::Normal;   // only the first sbatch answers oddly
    exec.onRun = [&, inner](const QStringList &argv) {
        const bool isSubmit = odd && argv.value(0) == "sh" && argv.value(2).contains("sbatch --parsable");
        if (isSubmit)
            odd = false;
        if (isSubmit && Sbatch(sbatch) == Sbatch::NoJobId) {
            RemoteResult r = inner(argv);
            r.out = "Submitted batch job\n";   // a site wrapper that prints prose
            return r;
        }
        if (isSubmit && Sbatch(sbatch) == Sbatch::ShellFails) {
            // The shell created jobid.tmp, then sbatch could not be started.
            const QString d = argv.value(2).section(' ', 1, 1).remove('\'');
            exec.files.insert(d + "/jobid.tmp", {});
            RemoteResult r;
            r.exitCode = 126;
            r.err = "sh: sbatch: Permission denied\n";
            return r;
        }
        return inner(argv);
    };
    SlurmClient client(exec, store, "testbed");
    const auto created = store.createRun(newRun());
    QVERIFY2(created.ok(), qPrintable(created.errorText()));
    const RunRecord run = *created;

    {
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "injector");
        raw.setDatabaseName(store.databasePath());
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY2(q.exec(QStringLiteral("CREATE TRIGGER injected BEFORE UPDATE ON runs WHEN %1 "
                                       "BEGIN SELECT RAISE(ABORT, 'injected store failure'); END")
                            .arg(when)),
                 qPrintable(q.lastError().text()));
    }

    const SubmitOutcome failed = client.submit(run.id);
    QCOMPARE(int(failed.kind), expectedKind);
    QVERIFY2(failed.message.contains("injected store failure"), qPrintable(failed.message));
    QCOMPARE(exec.countCommands("sbatch --parsable"), sbatchBeforeRecovery);
    const RunRecord afterFailure = store.run(run.id).value();
    if (sbatchBeforeRecovery == 0)
        QVERIFY(afterFailure.submitState == SubmitState::Intent || afterFailure.submitState == SubmitState::Uploaded);
    else
        QCOMPARE(afterFailure.submitState, SubmitState::Unknown);   // sent: only reconcile may decide

    {
        QSqlDatabase raw = QSqlDatabase::database("injector");
        QSqlQuery q(raw);
        QVERIFY(q.exec("DROP TRIGGER injected"));
        raw.close();
    }
    QSqlDatabase::removeDatabase("injector");
    slurm.controllerDown = false;

    // Recovery as the CLI and the window do it; a run refused before sbatch
    // is simply submitted again by the researcher (its state allows it).
    RunLifecycle lifecycle(client, store);
    const ReconcileReport rep = lifecycle.reconcileUnresolved();
    if (store.run(run.id).value().submitState == SubmitState::Intent
        || store.run(run.id).value().submitState == SubmitState::Uploaded)
        QCOMPARE(client.submit(run.id).kind, SubmitOutcome::Kind::Submitted);
    Q_UNUSED(rep);

    QList<FakeSlurm::Job> jobs;
    for (const auto &j : slurm.jobs)
        if (j.token == run.token)
            jobs << j;
    QCOMPARE(jobs.size(), 1);   // no duplicate job
    const auto all = store.runs();
    QCOMPARE(all.value().size(), 1);   // no lost (or extra) run
    const RunRecord settled = all.value().front();
    QCOMPARE(settled.jobId, jobs.front().id);
    QVERIFY(settled.submitState == SubmitState::Submitted || settled.submitState == SubmitState::Reconciled);
}

void TestSubmitStoreFaults::failedStateWriteAfterReconcile()
{
    // reconcile() found the job by its token in squeue (sbatch died before
    // writing the id) and then could not store the job's RUNNING state.
    QTemporaryDir dir;
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    FakeRemoteExecutor exec;
    FakeSlurm slurm(exec);
    SlurmClient client(exec, store, "testbed");
    const qint64 id = store.createRun(newRun()).value().id;
    slurm.drop = FakeSlurm::Drop::SbatchDiesSilently;
    QCOMPARE(client.submit(id).kind, SubmitOutcome::Kind::Unknown);
    slurm.jobs.last().state = JobState::Running;
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "injector2");
        raw.setDatabaseName(store.databasePath());
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec("CREATE TRIGGER injected BEFORE INSERT ON state_history WHEN NEW.state = 'RUNNING' "
                       "BEGIN SELECT RAISE(ABORT, 'injected store failure'); END"));
    }
    const ReconcileOutcome o = client.reconcile(id);
    QCOMPARE(o.kind, ReconcileOutcome::Kind::Found);
    QVERIFY2(o.message.contains("its state RUNNING is not stored yet"), qPrintable(o.message));
    QVERIFY2(o.message.contains("injected store failure"), qPrintable(o.message));
    QCOMPARE(store.run(id).value().jobId, QStringLiteral("100"));
    QCOMPARE(store.run(id).value().state, JobState::Pending);
    {
        QSqlDatabase raw = QSqlDatabase::database("injector2");
        QSqlQuery q(raw);
        QVERIFY(q.exec("DROP TRIGGER injected"));
        raw.close();
    }
    QSqlDatabase::removeDatabase("injector2");
    // The next poll stores the state the failed write missed.
    const PollResult p = client.pollOnce();
    QVERIFY(p.ok());
    QCOMPARE(store.run(id).value().state, JobState::Running);
    QCOMPARE(exec.countCommands("sbatch --parsable"), 1);
}

void TestSubmitStoreFaults::batchStoreFailureSendsNothing()
{
    // The third run of a batch cannot be stored: nothing of the batch is
    // stored (not even the study) and nothing is sent.
    QTemporaryDir dir;
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "injector3");
        raw.setDatabaseName(store.databasePath());
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec("CREATE TRIGGER injected BEFORE INSERT ON runs WHEN NEW.gpus = 4 "
                       "BEGIN SELECT RAISE(ABORT, 'injected store failure'); END"));
        raw.close();
    }
    QSqlDatabase::removeDatabase("injector3");
    QList<RunRecord> runs;
    for (int g : {1, 2, 4, 8}) {
        RunRecord r = newRun();
        r.gpus = g;
        runs << r;
    }
    StudyRecord study;
    study.name = "a researcher's study";
    const auto stored = store.createRuns(runs, study);
    QVERIFY(stored.failedWith(ErrorCode::StoreFailed));
    QVERIFY2(stored.errorText().contains("injected store failure"), qPrintable(stored.errorText()));
    QCOMPARE(store.runs().value().size(), 0);
    QCOMPARE(store.studies().value().size(), 0);
}

QTEST_GUILESS_MAIN(TestSubmitStoreFaults)
#include "tst_submitstorefaults.moc"
