// SPDX-License-Identifier: GPL-3.0-or-later
// Every store write of the submit protocol fails once (an SQLite trigger
// refuses exactly that write), then the run is recovered the way the CLI and
// the window do it (RunLifecycle::reconcileUnresolved). Whatever write failed:
// Slurm holds exactly one job for the run, the store holds the run with that
// job's id, and nothing was sent when the failure came before sbatch. The
// writes of reconcile itself fail the same way (failedReconcileWrite...).
// A new store write in SlurmClient::submit/reconcile needs its row here.
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

// Where the submit before a failing reconcile left the run.
enum class Left { DirectoryOnly, LostBeforeSbatch, LostAfterJobIdFile, SbatchDiedSilently, ControllerDown };

const QString kInjector = QStringLiteral("injector");

// Makes the store refuse exactly one kind of write, as a failing disk or a
// locked database would: a trigger, through a connection of its own,
// BEFORE `on` ("UPDATE ON runs") WHEN `when`. "" or the reason it failed.
QString injectFailure(const RunStore &store, const QString &on, const QString &when)
{
    QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), kInjector);
    raw.setDatabaseName(store.databasePath());
    if (!raw.open())
        return raw.lastError().text();
    QSqlQuery q(raw);
    if (!q.exec(QStringLiteral("CREATE TRIGGER injected BEFORE %1 WHEN %2 "
                               "BEGIN SELECT RAISE(ABORT, 'injected store failure'); END")
                    .arg(on, when)))
        return q.lastError().text();
    return {};
}

QString removeFailure()
{
    QString error;
    {
        QSqlDatabase raw = QSqlDatabase::database(kInjector);
        QSqlQuery q(raw);
        if (!q.exec(QStringLiteral("DROP TRIGGER injected")))
            error = q.lastError().text();
        raw.close();
    }
    QSqlDatabase::removeDatabase(kInjector);
    return error;
}

// The run has exactly one job in Slurm and the store holds it.
void checkOneJobStored(const FakeSlurm &slurm, RunStore &store, const RunRecord &run)
{
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

}   // namespace

class TestSubmitStoreFaults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void failedWriteLosesNothing_data();
    void failedWriteLosesNothing();
    void failedReconcileWriteLosesNothing_data();
    void failedReconcileWriteLosesNothing();
    void failedStateWriteAfterReconcile();
    void batchStoreFailureSendsNothing();
};

void TestSubmitStoreFaults::failedWriteLosesNothing_data()
{
    QTest::addColumn<QString>("on");   // the write refused: "UPDATE ON runs", "INSERT ON state_history"
    QTest::addColumn<QString>("when");   // trigger condition on the row written
    QTest::addColumn<int>("drop");   // FakeSlurm::Drop
    QTest::addColumn<bool>("controllerDown");
    QTest::addColumn<QByteArray>("rejectWith");
    QTest::addColumn<int>("sbatch");
    QTest::addColumn<int>("expectedKind");   // SubmitOutcome::Kind of the failed submit
    QTest::addColumn<int>("sbatchBeforeRecovery");

    using K = SubmitOutcome::Kind;
    using D = FakeSlurm::Drop;
    // Writes before sbatch: refused, nothing sent.
    QTest::newRow("remote dir") << "UPDATE ON runs"
                                << "NEW.remote_dir <> OLD.remote_dir" << int(D::None) << false << QByteArray()
                                << int(Sbatch::Normal) << int(K::Refused) << 0;
    QTest::newRow("uploaded") << "UPDATE ON runs"
                              << "NEW.submit_state = 'uploaded' AND OLD.submit_state = 'intent'" << int(D::None)
                              << false << QByteArray() << int(Sbatch::Normal) << int(K::Refused) << 0;
    // The Slurm version is kept with the run before sbatch: a failed write sends nothing.
    QTest::newRow("slurm version") << "UPDATE ON runs"
                                   << "NEW.slurm_version <> OLD.slurm_version" << int(D::None) << false << QByteArray()
                                   << int(Sbatch::Normal) << int(K::Refused) << 0;
    QTest::newRow("unknown before sbatch")
        << "UPDATE ON runs"
        << "NEW.submit_state = 'unknown' AND OLD.submit_state <> 'unknown'" << int(D::None) << false << QByteArray()
        << int(Sbatch::Normal) << int(K::Refused) << 0;
    // Writes after sbatch (the six that used to be ignored): the run stays
    // "unknown" and is resolved by reconcile, never sent twice.
    QTest::newRow("connection lost") << "UPDATE ON runs"
                                     << "NEW.submit_state = 'unknown' AND OLD.submit_state = 'unknown'"
                                     << int(D::AfterMv) << false << QByteArray() << int(Sbatch::Normal)
                                     << int(K::Unknown) << 1;
    QTest::newRow("no job id printed") << "UPDATE ON runs"
                                       << "NEW.submit_state = 'unknown' AND OLD.submit_state = 'unknown'"
                                       << int(D::None) << false << QByteArray() << int(Sbatch::NoJobId)
                                       << int(K::Unknown) << 1;
    QTest::newRow("job id") << "UPDATE ON runs"
                            << "NEW.job_id <> ''" << int(D::None) << false << QByteArray() << int(Sbatch::Normal)
                            << int(K::Unknown) << 1;
    // The job id and its first state (PENDING) are one transaction: the
    // history row failing takes the job id with it.
    QTest::newRow("job id: state history") << "INSERT ON state_history"
                                           << "NEW.state = 'PENDING'" << int(D::None) << false << QByteArray()
                                           << int(Sbatch::Normal) << int(K::Unknown) << 1;
    QTest::newRow("controller down") << "UPDATE ON runs"
                                     << "NEW.submit_state = 'uploaded' AND OLD.submit_state = 'unknown'" << int(D::None)
                                     << true << QByteArray() << int(Sbatch::Normal) << int(K::Unknown) << 1;
    QTest::newRow("rejected") << "UPDATE ON runs"
                              << "NEW.submit_state = 'rejected'" << int(D::None) << false
                              << QByteArray("sbatch: error: Batch job submission failed: Invalid partition\n")
                              << int(Sbatch::Normal) << int(K::Unknown) << 1;
    QTest::newRow("submit command failed")
        << "UPDATE ON runs"
        << "NEW.submit_state = 'unknown' AND OLD.submit_state = 'unknown'" << int(D::None) << false << QByteArray()
        << int(Sbatch::ShellFails) << int(K::Unknown) << 1;
}

void TestSubmitStoreFaults::failedWriteLosesNothing()
{
    QFETCH(QString, on);
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

    QCOMPARE(injectFailure(store, on, when), QString());

    const SubmitOutcome failed = client.submit(run.id);
    QCOMPARE(int(failed.kind), expectedKind);
    QVERIFY2(failed.message.contains("injected store failure"), qPrintable(failed.message));
    QCOMPARE(exec.countCommands("sbatch --parsable"), sbatchBeforeRecovery);
    const RunRecord afterFailure = store.run(run.id).value();
    if (sbatchBeforeRecovery == 0)
        QVERIFY(afterFailure.submitState == SubmitState::Intent || afterFailure.submitState == SubmitState::Uploaded);
    else
        QCOMPARE(afterFailure.submitState, SubmitState::Unknown);   // sent: only reconcile may decide

    QCOMPARE(removeFailure(), QString());
    slurm.controllerDown = false;

    // Recovery as the CLI and the window do it; a run refused before sbatch
    // is simply submitted again by the researcher (its state allows it).
    RunLifecycle lifecycle(client, store);
    const ReconcileReport rep = lifecycle.reconcileUnresolved();
    if (store.run(run.id).value().submitState == SubmitState::Intent
        || store.run(run.id).value().submitState == SubmitState::Uploaded)
        QCOMPARE(client.submit(run.id).kind, SubmitOutcome::Kind::Submitted);
    Q_UNUSED(rep);

    checkOneJobStored(slurm, store, run);
}

void TestSubmitStoreFaults::failedReconcileWriteLosesNothing_data()
{
    QTest::addColumn<QString>("on");
    QTest::addColumn<QString>("when");
    QTest::addColumn<int>("left");   // Left
    // reconcile() reads the run's remote directory.
    QTest::newRow("no directory: intent") << "UPDATE ON runs"
                                          << "NEW.submit_state = 'intent'" << int(Left::DirectoryOnly);
    QTest::newRow("script only: uploaded")
        << "UPDATE ON runs"
        << "NEW.submit_state = 'uploaded' AND OLD.submit_state = 'unknown'" << int(Left::LostBeforeSbatch);
    QTest::newRow("job id file") << "UPDATE ON runs"
                                 << "NEW.submit_state = 'reconciled'" << int(Left::LostAfterJobIdFile);
    QTest::newRow("job id file: state history") << "INSERT ON state_history"
                                                << "NEW.state = 'PENDING'" << int(Left::LostAfterJobIdFile);
    // lookUpByToken(): squeue and sacct searched for the run's token. (The
    // state write after a job is found: failedStateWriteAfterReconcile.)
    QTest::newRow("found by token") << "UPDATE ON runs"
                                    << "NEW.submit_state = 'reconciled'" << int(Left::SbatchDiedSilently);
    QTest::newRow("no job carries the token")
        << "UPDATE ON runs"
        << "NEW.rejection = 'an earlier sbatch attempt left no job'" << int(Left::ControllerDown);
}

void TestSubmitStoreFaults::failedReconcileWriteLosesNothing()
{
    // A reconcile write that fails leaves the run unresolved as it was (no
    // job id, nothing sent again); the next reconcile settles it.
    QFETCH(QString, on);
    QFETCH(QString, when);
    QFETCH(int, left);

    QTemporaryDir dir;
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    FakeRemoteExecutor exec;
    FakeSlurm slurm(exec);
    SlurmClient client(exec, store, "testbed");
    const auto created = store.createRun(newRun());
    QVERIFY2(created.ok(), qPrintable(created.errorText()));
    const RunRecord run = *created;

    switch (Left(left)) {
    case Left::DirectoryOnly:
        exec.failMkdirs = "Disk quota exceeded";
        break;
    case Left::LostBeforeSbatch:
        slurm.drop = FakeSlurm::Drop::BeforeCommand;
        break;
    case Left::LostAfterJobIdFile:
        slurm.drop = FakeSlurm::Drop::AfterMv;
        break;
    case Left::SbatchDiedSilently:
        slurm.drop = FakeSlurm::Drop::SbatchDiesSilently;
        break;
    case Left::ControllerDown:
        slurm.controllerDown = true;
        break;
    }
    QVERIFY(client.submit(run.id).kind != SubmitOutcome::Kind::Submitted);
    slurm.controllerDown = false;
    const RunRecord before = store.run(run.id).value();
    QVERIFY(before.submitState != SubmitState::Submitted && before.submitState != SubmitState::Reconciled);
    const int sbatchBefore = exec.countCommands("sbatch --parsable");

    QCOMPARE(injectFailure(store, on, when), QString());
    RunLifecycle lifecycle(client, store);
    const ReconcileReport failed = lifecycle.reconcileUnresolved();
    QCOMPARE(failed.runs.size(), 1);
    QCOMPARE(failed.runs.front().outcome.kind, ReconcileOutcome::Kind::StillUnknown);
    QVERIFY2(failed.runs.front().outcome.message.contains("injected store failure"),
             qPrintable(failed.runs.front().outcome.message));
    QVERIFY(!failed.runs.front().resubmit);   // not known to be unsent: not sent again
    QCOMPARE(exec.countCommands("sbatch --parsable"), sbatchBefore);
    const RunRecord afterFailure = store.run(run.id).value();
    QCOMPARE(afterFailure.submitState, before.submitState);
    QCOMPARE(afterFailure.jobId, QString());
    QCOMPARE(removeFailure(), QString());

    const ReconcileReport rep = lifecycle.reconcileUnresolved();
    QCOMPARE(rep.runs.size(), 1);
    QVERIFY2(rep.runs.front().outcome.kind == ReconcileOutcome::Kind::Found
                 || (rep.runs.front().resubmit && rep.runs.front().resubmit->kind == SubmitOutcome::Kind::Submitted),
             qPrintable(rep.runs.front().outcome.message));
    checkOneJobStored(slurm, store, run);
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
    QCOMPARE(injectFailure(store, "INSERT ON state_history", "NEW.state = 'RUNNING'"), QString());
    const ReconcileOutcome o = client.reconcile(id);
    QCOMPARE(o.kind, ReconcileOutcome::Kind::Found);
    QVERIFY2(o.message.contains("its state RUNNING is not stored yet"), qPrintable(o.message));
    QVERIFY2(o.message.contains("injected store failure"), qPrintable(o.message));
    QCOMPARE(store.run(id).value().jobId, QStringLiteral("100"));
    QCOMPARE(store.run(id).value().state, JobState::Pending);
    QCOMPARE(removeFailure(), QString());
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
