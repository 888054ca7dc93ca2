// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient against a scripted executor, submitting: exactly-once submission
// with the connection lost at every phase, rejection, unsafe values refused,
// reconciling an unknown outcome, and the shell bodies run in real shells.
// Polling, cancel and fetch are in tst_slurmclient_poll.cpp.
#include "SlurmClientFixtures.h"
#include "core/base/ShellQuote.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;
using namespace scalelab::testing;
using scalelab::test::FakeSlurm;

class TestSlurmClientSubmit : public QObject, protected SlurmClientFixture {
    Q_OBJECT
private Q_SLOTS:
    void init() { setUpClient(); }
    void cleanup() { tearDownClient(); }

    void submitHappyPath();
    void submitRejectedStoresSlurmText();
    void submitControllerDownIsRetryable();
    void submitRefusesUnsafeValues();
    void lossBeforeUpload();
    void lossAfterUploadBeforeSbatch();
    void lossAfterSbatchBeforeReply_data();
    void lossAfterSbatchBeforeReply();
    void sbatchDiedSilently_data();
    void sbatchDiedSilently();
    void reconcileNothingToDo();
    void shellBodiesRunInRealShells();
};

void TestSlurmClientSubmit::submitHappyPath()
{
    const qint64 id = createRun();
    const RunRecord before = m_store->run(id).value();
    const SubmitOutcome o = m_client->submit(id);
    QCOMPARE(o.kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(o.jobId, QStringLiteral("100"));
    const RunRecord r = m_store->run(id).value();
    QCOMPARE(r.submitState, SubmitState::Submitted);
    QCOMPARE(r.jobId, QStringLiteral("100"));
    QCOMPARE(r.state, JobState::Pending);
    const QString dir = "/home/researcher/.scalelab/runs/" + before.token;
    QCOMPARE(r.remoteDir, dir);
    QCOMPARE(m_exec->files.value(dir + "/job.sbatch"), before.script.toUtf8());
    QCOMPARE(m_exec->files.value(dir + "/jobid"), QByteArray("100\n"));
    QCOMPARE(m_exec->countCommands("sbatch --parsable"), 1);
    QCOMPARE(m_exec->countCommands("sbatch --version"), 1);   // the version probe, once per client
    QCOMPARE(r.slurmVersion, QStringLiteral("22.05.8"));
    QCOMPARE(m_slurm->jobs.size(), 1);
    QCOMPARE(m_slurm->jobs[0].token, before.token);
    // no user text in any command
    QVERIFY(!m_exec->anyArgumentContains("researcher's"));
    QVERIFY(!m_exec->anyArgumentContains("train.py"));
    // the command is `sh -c '<one line>'` with validated values only
    const QStringList argv = m_exec->commands().last();
    QCOMPARE(argv.size(), 3);
    QCOMPARE(argv[0], QStringLiteral("sh"));
    QVERIFY(!argv[2].contains('\n'));
    QVERIFY(!argv[2].contains('\''));
    QVERIFY(!argv[2].contains('!'));
    QVERIFY(!argv[2].contains('\\'));
    QVERIFY(argv[2].contains("--comment=" + before.token));
    QVERIFY(argv[2].contains("--chdir=" + dir));
    QVERIFY(ShellQuote::isSafeForRemote(argv[2]));
    // The protocol's steps as the executor heard them (what the crash hook names).
    QCOMPARE(m_exec->steps,
             (QList<SubmitStep>{SubmitStep::DirectoryStored, SubmitStep::ScriptUploaded, SubmitStep::UnknownStored,
                                SubmitStep::SbatchReturned, SubmitStep::OutcomeStored}));
    QStringList ids;
    for (SubmitStep step : std::as_const(m_exec->steps))
        ids << submitStepId(step);
    QCOMPARE(ids, QStringList(
                      {"directory-stored", "script-uploaded", "unknown-stored", "sbatch-returned", "outcome-stored"}));
    QVERIFY(submitStepFromId(QStringLiteral("sbatch-returned")) == SubmitStep::SbatchReturned);
    QVERIFY(!submitStepFromId(QStringLiteral("sbatch --parsable")));
    // exactly once: a second submit sends nothing
    const int callsBefore = m_exec->calls.size();
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
    QCOMPARE(m_exec->calls.size(), callsBefore);
    QCOMPARE(m_exec->steps.size(), 5);
}

void TestSlurmClientSubmit::submitRejectedStoresSlurmText()
{
    const qint64 id = createRun();
    m_slurm->rejectWith = "sbatch: error: QOSMaxGRESPerJob\nsbatch: error: Batch job submission failed: Job violates "
                          "accounting/QOS policy (job submit limit, user's size and/or time limits)\n\x1b[31m";
    const SubmitOutcome o = m_client->submit(id);
    QCOMPARE(o.kind, SubmitOutcome::Kind::Rejected);
    QVERIFY(o.message.startsWith("sbatch: error: QOSMaxGRESPerJob\nsbatch: error: Batch job submission failed: Job "
                                 "violates accounting/QOS policy"));
    QVERIFY(!o.message.contains(QChar(0x1b)));
    const RunRecord r = m_store->run(id).value();
    QCOMPARE(r.submitState, SubmitState::Rejected);
    QCOMPARE(r.rejection, o.message);
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
    QCOMPARE(m_exec->countCommands("sbatch --parsable"), 1);
}

void TestSlurmClientSubmit::submitControllerDownIsRetryable()
{
    const qint64 id = createRun();
    m_slurm->controllerDown = true;
    const SubmitOutcome o = m_client->submit(id);
    QCOMPARE(o.kind, SubmitOutcome::Kind::NotSent);
    QVERIFY(o.controllerDown);
    QCOMPARE(m_store->run(id).value().submitState, SubmitState::Uploaded);
    m_slurm->controllerDown = false;
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(m_slurm->jobs.size(), 1);
}

void TestSlurmClientSubmit::submitRefusesUnsafeValues()
{
    RunRecord bad = newRun();
    bad.token = "sl-X; rm -rf /";
    const qint64 badToken = m_store->createRun(bad).value().id;
    QCOMPARE(m_client->submit(badToken).kind, SubmitOutcome::Kind::Refused);
    RunRecord other = newRun();
    other.clusterAlias = "elsewhere";
    QCOMPARE(m_client->submit(m_store->createRun(other).value().id).kind, SubmitOutcome::Kind::Refused);
    QCOMPARE(m_client->submit(424242).kind, SubmitOutcome::Kind::Refused);
    QCOMPARE(m_exec->calls.size(), 0);

    m_exec->home = "/home/a researcher";
    const qint64 id = createRun();
    const SubmitOutcome o = m_client->submit(id);
    QCOMPARE(o.kind, SubmitOutcome::Kind::NotSent);
    QVERIFY(o.message.contains("home directory"));
    QCOMPARE(m_exec->commands().size(), 0);
    QCOMPARE(m_store->run(id).value().submitState, SubmitState::Intent);
}

void TestSlurmClientSubmit::lossBeforeUpload()
{
    const qint64 id = createRun();
    m_exec->failMkdirs = "connection lost";
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::NotSent);
    QCOMPARE(m_store->run(id).value().submitState, SubmitState::Intent);
    QCOMPARE(m_exec->countCommands("sbatch"), 0);
    const ReconcileOutcome rec = m_client->reconcile(id);
    QCOMPARE(rec.kind, ReconcileOutcome::Kind::NotSubmitted);
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(m_slurm->jobs.size(), 1);

    const qint64 id2 = createRun();
    m_exec->failUpload = "connection lost";
    QCOMPARE(m_client->submit(id2).kind, SubmitOutcome::Kind::NotSent);
    QCOMPARE(m_client->reconcile(id2).kind, ReconcileOutcome::Kind::NotSubmitted);
    QCOMPARE(m_client->submit(id2).kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(m_slurm->jobs.size(), 2);
}

void TestSlurmClientSubmit::lossAfterUploadBeforeSbatch()
{
    const qint64 id = createRun();
    m_slurm->drop = FakeSlurm::Drop::BeforeCommand;
    const SubmitOutcome o = m_client->submit(id);
    QCOMPARE(o.kind, SubmitOutcome::Kind::Unknown);
    QCOMPARE(m_store->run(id).value().submitState, SubmitState::Unknown);
    // unknown: submit refuses until reconciled
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
    const ReconcileOutcome rec = m_client->reconcile(id);
    QCOMPARE(rec.kind, ReconcileOutcome::Kind::NotSubmitted);
    QCOMPARE(m_store->run(id).value().submitState, SubmitState::Uploaded);
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(m_slurm->jobs.size(), 1);
}

void TestSlurmClientSubmit::lossAfterSbatchBeforeReply_data()
{
    QTest::addColumn<int>("drop");
    QTest::newRow("after mv") << int(FakeSlurm::Drop::AfterMv);
    QTest::newRow("between sbatch and mv") << int(FakeSlurm::Drop::AfterSbatchBeforeMv);
}

void TestSlurmClientSubmit::lossAfterSbatchBeforeReply()
{
    QFETCH(int, drop);
    const qint64 id = createRun();
    m_slurm->drop = FakeSlurm::Drop(drop);
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Unknown);
    QCOMPARE(m_slurm->jobs.size(), 1);
    const ReconcileOutcome rec = m_client->reconcile(id);
    QCOMPARE(rec.kind, ReconcileOutcome::Kind::Found);
    QCOMPARE(rec.jobId, QStringLiteral("100"));
    const RunRecord r = m_store->run(id).value();
    QCOMPARE(r.submitState, SubmitState::Reconciled);
    QCOMPARE(r.jobId, QStringLiteral("100"));
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
    QCOMPARE(m_client->reconcile(id).kind, ReconcileOutcome::Kind::NothingToDo);
    QCOMPARE(m_slurm->jobs.size(), 1);
    QCOMPARE(m_exec->countCommands("sbatch --parsable"), 1);
}

void TestSlurmClientSubmit::sbatchDiedSilently_data()
{
    QTest::addColumn<bool>("jobExists");
    QTest::addColumn<bool>("recent");
    QTest::addColumn<bool>("inQueue");
    QTest::newRow("job in squeue") << true << true << true;
    QTest::newRow("job only in sacct") << true << false << false;
    QTest::newRow("no job, old attempt") << false << false << false;
    QTest::newRow("no job, recent attempt") << false << true << false;
}

void TestSlurmClientSubmit::sbatchDiedSilently()
{
    QFETCH(bool, jobExists);
    QFETCH(bool, recent);
    QFETCH(bool, inQueue);
    const qint64 id = createRun();
    m_slurm->drop = FakeSlurm::Drop::SbatchDiesSilently;
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Unknown);
    if (!jobExists)
        m_slurm->jobs.clear();
    else if (!inQueue)
        m_slurm->jobs[0].state = JobState::Completed;
    m_slurm->tmpRecent = recent;
    const ReconcileOutcome rec = m_client->reconcile(id);
    if (jobExists) {
        QCOMPARE(rec.kind, ReconcileOutcome::Kind::Found);
        QCOMPARE(m_store->run(id).value().jobId, QStringLiteral("100"));
        QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
        QCOMPARE(m_slurm->jobs.size(), 1);
    } else if (recent) {
        QCOMPARE(rec.kind, ReconcileOutcome::Kind::StillUnknown);
        QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
    } else {
        QCOMPARE(rec.kind, ReconcileOutcome::Kind::NotSubmitted);
        QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
        QCOMPARE(m_slurm->jobs.size(), 1);
    }
    // the lookups carry no user text either
    QVERIFY(!m_exec->anyArgumentContains("researcher's"));
}

void TestSlurmClientSubmit::reconcileNothingToDo()
{
    const qint64 id = createRun();
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    const int before = m_exec->calls.size();
    QCOMPARE(m_client->reconcile(id).kind, ReconcileOutcome::Kind::NothingToDo);
    QCOMPARE(m_exec->calls.size(), before);
    // controller down while looking up: cannot tell
    const qint64 id2 = createRun();
    m_slurm->drop = FakeSlurm::Drop::SbatchDiesSilently;
    QCOMPARE(m_client->submit(id2).kind, SubmitOutcome::Kind::Unknown);
    m_slurm->jobs.clear();
    m_slurm->controllerDown = true;
    // sacct still answers but squeue cannot: not sure
    QCOMPARE(m_client->reconcile(id2).kind, ReconcileOutcome::Kind::StillUnknown);
}

void TestSlurmClientSubmit::shellBodiesRunInRealShells()
{
    // The bodies must work in sh; the outer quoting in bash (as a login shell would parse it).
    QTemporaryDir tmp;
    const QString dir = tmp.path() + "/runs/sl-00112233445566aa";
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(QDir().mkpath(tmp.path() + "/bin"));
    QFile fake(tmp.path() + "/bin/sbatch");
    QVERIFY(fake.open(QIODevice::WriteOnly));
    fake.write("#!/bin/sh\nfor a in \"$@\"; do echo \"$a\" >> \"$(pwd)/args\"; done\n"
               "if [ -e \"$(pwd)/reject\" ]; then echo 'sbatch: error: Invalid partition' >&2; exit 1; fi\n"
               "echo '4242;testbed'\n");
    fake.close();
    fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile(dir + "/job.sbatch").open(QIODevice::WriteOnly);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", tmp.path() + "/bin:" + env.value("PATH"));
    auto runLogin = [&](const QString &body) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start("bash", {"-c", ShellQuote::join({"sh", "-c", body})});
        p.waitForFinished(10000);
        return std::make_tuple(p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError());
    };
    auto [rc0, out0, err0] = runLogin(SlurmClient::reconcileShellBody(dir));
    QCOMPARE(out0, QByteArray("uploaded\n"));
    auto [rc1, out1, err1] = runLogin(SlurmClient::submitShellBody(dir, "sl-00112233445566aa"));
    QCOMPARE(rc1, 0);
    QCOMPARE(out1, QByteArray("4242;testbed\n"));
    QVERIFY(QFile::exists(dir + "/jobid"));
    QVERIFY(!QFile::exists(dir + "/jobid.tmp"));
    QFile args(dir + "/args");
    QVERIFY(args.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(args.readAll()).split('\n', Qt::SkipEmptyParts),
             QStringList({"--parsable", "--comment=sl-00112233445566aa", "--chdir=" + dir, "job.sbatch"}));
    auto [rc2, out2, err2] = runLogin(SlurmClient::reconcileShellBody(dir));
    QCOMPARE(out2, QByteArray("jobid\n4242;testbed\n"));
    // One at a time: the job waits for the previous one; anything but a job id is dropped.
    QFile::remove(dir + "/jobid");
    QFile::remove(dir + "/args");   // the fake sbatch appends
    auto [rcD, outD, errD] = runLogin(SlurmClient::submitShellBody(dir, "sl-00112233445566aa", QStringLiteral("4241")));
    QCOMPARE(rcD, 0);
    {
        QFile argsD(dir + "/args");
        QVERIFY(argsD.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(argsD.readAll()).split('\n', Qt::SkipEmptyParts),
                 QStringList({"--parsable", "--comment=sl-00112233445566aa", "--chdir=" + dir,
                              "--dependency=afterany:4241", "job.sbatch"}));
    }
    QVERIFY(!SlurmClient::submitShellBody(dir, "sl-00112233445566aa", QStringLiteral("1; rm -rf ~"))
                 .contains(QLatin1String("dependency")));
    QFile::remove(dir + "/jobid");
    QFile(dir + "/reject").open(QIODevice::WriteOnly);
    auto [rc3, out3, err3] = runLogin(SlurmClient::submitShellBody(dir, "sl-00112233445566aa"));
    QCOMPARE(rc3, 1);
    QCOMPARE(err3, QByteArray("sbatch: error: Invalid partition\n"));
    auto [rc4, out4, err4] = runLogin(SlurmClient::reconcileShellBody(dir));
    QCOMPARE(out4, QByteArray("tmp-recent\n"));
    auto [rc5, out5, err5] = runLogin(SlurmClient::reconcileShellBody(tmp.path() + "/nothing"));
    QCOMPARE(out5, QByteArray("nodir\n"));
}

QTEST_GUILESS_MAIN(TestSlurmClientSubmit)
#include "tst_slurmclient_submit.moc"
