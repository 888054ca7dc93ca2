// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient against a scripted executor: exactly-once submission with the
// connection lost at every phase, rejection, polling load, cancel, fetch.
#include "FakeSlurm.h"
#include "core/client/PollScheduler.h"
#include "core/slurm/SacctParser.h"
#include "core/base/ShellQuote.h"
#include "core/client/SlurmClient.h"
#include "core/slurm/SqueueParser.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;
using scalelab::test::FakeSlurm;
using scalelab::test::kUserText;

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
    r.specJson = "{\"jobName\":\"a researcher's job\"}";
    r.script = "#!/bin/bash\n#SBATCH --job-name='" + kUserText + "'\nsrun python train.py --lr 0.1 'x y'\n";
    return r;
}

}   // namespace

class TestSlurmClient : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();

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

    void pollOneSqueueOneSacct();
    void pollControllerDown();
    void pollWaitsForAHalfWrittenSacctRecord();
    void pollNothingActiveSendsNothing();
    void pollScheduler();
    void followUpPollsAfterSubmitAndCancel();

    void detectVersionOnce();
    void testOnly();
    void cancel();
    void fetchAndTail();

private:
    QTemporaryDir *m_dir = nullptr;
    RunStore *m_store = nullptr;
    FakeRemoteExecutor *m_exec = nullptr;
    FakeSlurm *m_slurm = nullptr;
    SlurmClient *m_client = nullptr;
    qint64 createRun() { return m_store->createRun(newRun()).value().id; }
};

void TestSlurmClient::init()
{
    m_dir = new QTemporaryDir;
    m_store = new RunStore(m_dir->path());
    QCOMPARE(m_store->open().errorText(), QString());
    m_exec = new FakeRemoteExecutor;
    m_slurm = new FakeSlurm(*m_exec);
    m_client = new SlurmClient(*m_exec, *m_store, "testbed");
}

void TestSlurmClient::cleanup()
{
    delete m_client;
    delete m_slurm;
    delete m_exec;
    delete m_store;
    delete m_dir;
}

void TestSlurmClient::submitHappyPath()
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

void TestSlurmClient::submitRejectedStoresSlurmText()
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

void TestSlurmClient::submitControllerDownIsRetryable()
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

void TestSlurmClient::submitRefusesUnsafeValues()
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

void TestSlurmClient::lossBeforeUpload()
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

void TestSlurmClient::lossAfterUploadBeforeSbatch()
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

void TestSlurmClient::lossAfterSbatchBeforeReply_data()
{
    QTest::addColumn<int>("drop");
    QTest::newRow("after mv") << int(FakeSlurm::Drop::AfterMv);
    QTest::newRow("between sbatch and mv") << int(FakeSlurm::Drop::AfterSbatchBeforeMv);
}

void TestSlurmClient::lossAfterSbatchBeforeReply()
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

void TestSlurmClient::sbatchDiedSilently_data()
{
    QTest::addColumn<bool>("jobExists");
    QTest::addColumn<bool>("recent");
    QTest::addColumn<bool>("inQueue");
    QTest::newRow("job in squeue") << true << true << true;
    QTest::newRow("job only in sacct") << true << false << false;
    QTest::newRow("no job, old attempt") << false << false << false;
    QTest::newRow("no job, recent attempt") << false << true << false;
}

void TestSlurmClient::sbatchDiedSilently()
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

void TestSlurmClient::reconcileNothingToDo()
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

void TestSlurmClient::shellBodiesRunInRealShells()
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

void TestSlurmClient::pollOneSqueueOneSacct()
{
    const qint64 a = createRun();
    const qint64 b = createRun();
    const qint64 c = createRun();
    for (qint64 id : {a, b, c})
        QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    m_exec->calls.clear();

    // cycle 1: all pending -> one squeue, no sacct
    PollResult p = m_client->pollOnce();
    QVERIFY(p.ok());
    QCOMPARE(p.activeRuns, 3);
    QCOMPARE(p.squeueCalls, 1);
    QCOMPARE(p.sacctCalls, 0);
    QCOMPARE(p.updates.size(), 3);   // reason "Resources" arrives
    QCOMPARE(m_exec->commands().size(), 1);
    QCOMPARE(m_store->run(a).value().reason, QStringLiteral("Resources"));

    // cycle 2: a runs, b and c finished; sacct lags for nothing
    m_slurm->jobs[0].state = JobState::Running;
    m_slurm->jobs[1].state = JobState::Completed;
    m_slurm->jobs[2].state = JobState::Timeout;
    m_exec->calls.clear();
    p = m_client->pollOnce();
    QCOMPARE(m_exec->commands().size(), 2);
    QCOMPARE(m_exec->countCommands("squeue --me"), 1);
    QCOMPARE(m_exec->countCommands("sacct --jobs=101,102 "), 1);
    // Queries carry their own environment: rc files cannot reshape what is parsed.
    for (const QStringList &argv : m_exec->commands()) {
        QCOMPARE(argv.first(), QStringLiteral("env"));
        QVERIFY(argv.join(' ').contains("-u SQUEUE_FORMAT -u SQUEUE_FORMAT2 "));
        QVERIFY(argv.join(' ').contains("-u SACCT_FORMAT "));
        QVERIFY(argv.contains("SLURM_TIME_FORMAT=standard"));
        QVERIFY(!argv.join(' ').contains("SLURM_CONF"));
    }
    QCOMPARE(m_store->run(a).value().state, JobState::Running);
    QCOMPARE(m_store->run(b).value().state, JobState::Completed);
    QCOMPARE(m_store->run(c).value().state, JobState::Timeout);
    const auto acct = m_store->accounting(b).value();
    QVERIFY(acct.has_value());
    QCOMPARE(acct->maxRss, QStringLiteral("843688K"));
    QCOMPARE(acct->allocatedGpus(), 2);
    int finals = 0;
    for (const auto &u : p.updates)
        finals += u.final;
    QCOMPARE(finals, 2);

    // cycle 3: a finished but sacct still says RUNNING -> stays active
    m_slurm->jobs[0].state = JobState::Failed;
    m_slurm->sacctLags = true;
    m_exec->calls.clear();
    p = m_client->pollOnce();
    QCOMPARE(m_exec->countCommands("sacct --jobs=100 "), 1);   // terminal b, c never polled again
    QCOMPARE(m_store->run(a).value().state, JobState::Running);

    // cycle 4: sacct caught up
    m_slurm->sacctLags = false;
    p = m_client->pollOnce();
    QCOMPARE(m_store->run(a).value().state, JobState::Failed);
    const auto history = m_store->stateHistory(a).value();
    QCOMPARE(history.size(), 4);   // PENDING, PENDING/Resources, RUNNING, FAILED
    QCOMPARE(history.last().state, JobState::Failed);

    // nothing active: no commands
    m_exec->calls.clear();
    p = m_client->pollOnce();
    QCOMPARE(p.activeRuns, 0);
    QCOMPARE(m_exec->calls.size(), 0);
}

void TestSlurmClient::pollWaitsForAHalfWrittenSacctRecord()
{
    // 22.05: a job just gone from squeue can have a sacct line without its
    // Partition for a moment. Its final state waits for the whole record, at
    // most three polls, then is taken as it is.
    const qint64 a = createRun();
    const qint64 b = createRun();
    QCOMPARE(m_client->submit(a).kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(m_client->submit(b).kind, SubmitOutcome::Kind::Submitted);
    m_slurm->jobs[0].state = JobState::Completed;
    m_slurm->sacctHalfWritten = true;
    PollResult p = m_client->pollOnce();
    QVERIFY(p.missingJobs.contains(m_slurm->jobs[0].id));
    QCOMPARE(m_store->run(a).value().state, JobState::Pending);
    QVERIFY(!m_store->accounting(a).value().has_value());
    // The whole record arrives at the next poll: taken, with its partition.
    m_slurm->sacctHalfWritten = false;
    p = m_client->pollOnce();
    QCOMPARE(m_store->run(a).value().state, JobState::Completed);
    QCOMPARE(m_store->accounting(a).value()->partition, QStringLiteral("gpu"));

    // A record that stays half-written is taken after three polls, not waited for forever.
    m_slurm->jobs[1].state = JobState::Failed;
    m_slurm->sacctHalfWritten = true;
    for (int i = 0; i < 3; ++i) {
        p = m_client->pollOnce();
        QCOMPARE(m_store->run(b).value().state, JobState::Pending);
    }
    p = m_client->pollOnce();
    QCOMPARE(m_store->run(b).value().state, JobState::Failed);
}

void TestSlurmClient::pollControllerDown()
{
    const qint64 a = createRun();
    QCOMPARE(m_client->submit(a).kind, SubmitOutcome::Kind::Submitted);
    m_slurm->controllerDown = true;
    m_exec->calls.clear();
    const PollResult p = m_client->pollOnce();
    QVERIFY(p.controllerDown);
    QVERIFY(!p.ok());
    QVERIFY(p.message.contains("Unable to contact slurm controller"));
    QCOMPARE(p.sacctCalls, 0);
    QCOMPARE(m_exec->commands().size(), 1);
    QCOMPARE(m_store->run(a).value().state, JobState::Pending);

    m_slurm->controllerDown = false;
    m_exec->onRun = [](const QStringList &) {
        RemoteResult r;
        r.transportError = "connection lost";
        return r;
    };
    const PollResult lost = m_client->pollOnce();
    QCOMPARE(lost.transportError, QStringLiteral("connection lost"));
    QVERIFY(!lost.ok());
}

void TestSlurmClient::pollNothingActiveSendsNothing()
{
    createRun();   // intent only
    const PollResult p = m_client->pollOnce();
    QVERIFY(p.ok());
    QCOMPARE(m_exec->calls.size(), 0);
}

void TestSlurmClient::pollScheduler()
{
    PollScheduler s;
    QCOMPARE(s.nextDelaySeconds(), 30);
    s.recordFailure();
    QCOMPARE(s.nextDelaySeconds(), 60);
    s.recordFailure();
    s.recordFailure();
    QCOMPARE(s.nextDelaySeconds(), 240);
    s.recordFailure();
    QCOMPARE(s.nextDelaySeconds(), 300);
    s.recordFailure();
    QCOMPARE(s.nextDelaySeconds(), 300);
    QCOMPARE(s.consecutiveFailures(), 5);
    s.recordSuccess();
    QCOMPARE(s.nextDelaySeconds(), 30);
    s.setBaseInterval(2);
    QCOMPARE(s.baseInterval(), 10);
    QCOMPARE(s.nextDelaySeconds(), 10);
    s.setBaseInterval(10000);
    QCOMPARE(s.baseInterval(), 300);
    QCOMPARE(PollScheduler(5).nextDelaySeconds(), 10);
}

void TestSlurmClient::followUpPollsAfterSubmitAndCancel()
{
    // After sbatch: one quick look while PENDING, none once the job started.
    FollowUpPolls submit(FollowUpPolls::After::Submit);
    QCOMPARE(submit.next(JobState::Pending), std::optional<int>(3000));
    QCOMPARE(submit.next(JobState::Pending), std::nullopt);
    QCOMPARE(FollowUpPolls(FollowUpPolls::After::Submit).next(JobState::Running), std::nullopt);
    // After scancel a run still RUNNING is not settled (the cancel only asked):
    // looks at 3, 6, 12 and 24 s, then the normal timer.
    FollowUpPolls cancel(FollowUpPolls::After::Cancel);
    QCOMPARE(cancel.next(JobState::Running), std::optional<int>(3000));
    QCOMPARE(cancel.next(JobState::Completing), std::optional<int>(6000));
    QCOMPARE(cancel.next(JobState::Running), std::optional<int>(12000));
    QCOMPARE(cancel.next(JobState::Running), std::optional<int>(24000));
    QCOMPARE(cancel.next(JobState::Running), std::nullopt);
    QCOMPARE(FollowUpPolls(FollowUpPolls::After::Cancel).next(JobState::Cancelled), std::nullopt);
}

void TestSlurmClient::detectVersionOnce()
{
    QCOMPARE(m_client->detectVersion().value(), QStringLiteral("22.05.8"));
    QCOMPARE(m_client->detectVersion().value(), QStringLiteral("22.05.8"));
    QCOMPARE(m_exec->countCommands("sbatch --version"), 1);
    FakeRemoteExecutor broken;
    SlurmClient other(broken, *m_store, "testbed");
    const Result<QString> failed = other.detectVersion();
    QVERIFY(failed.failedWith(ErrorCode::RemoteFailed));
    QVERIFY2(failed.errorText().startsWith("sbatch --version failed (exit 127)"), qPrintable(failed.errorText()));
}

void TestSlurmClient::testOnly()
{
    m_exec->onRun = [](const QStringList &argv) {
        RemoteResult r;
        r.exitCode = 0;
        if (argv.value(0) == "sbatch")
            r.err =
                "sbatch: Job 3 to start at 2026-11-22T10:08:24 using 2 processors on nodes tb-node1 in partition gpu\n";
        return r;
    };
    const TestOnlyResult t = m_client->testOnly("#!/bin/bash\n#SBATCH --job-name='" + kUserText + "'\n");
    QVERIFY(t.ok());
    QVERIFY(t.verdict.startsWith("sbatch: Job 3 to start"));
    const QList<QStringList> cmds = m_exec->commands();
    QCOMPARE(cmds.size(), 2);
    QCOMPARE(cmds[0].value(1), QStringLiteral("--test-only"));
    QVERIFY(cmds[0].value(3).startsWith("/home/researcher/.scalelab/test-only/sl-"));
    QCOMPARE(cmds[1].mid(0, 3), QStringList({"rm", "-rf", "--"}));
    QVERIFY(!m_exec->anyArgumentContains("researcher's"));
}

void TestSlurmClient::cancel()
{
    const qint64 id = createRun();
    QVERIFY(m_client->cancel(id).failedWith(ErrorCode::WrongState));   // no job yet
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    const Result<QString> c = m_client->cancel(id);
    QCOMPARE(c.errorText(), QString());
    QCOMPARE(*c, QStringLiteral("cancel requested for job 100"));
    QCOMPARE(m_exec->commands().last(), QStringList({"scancel", "100"}));
    QVERIFY(m_store->updateState(id, JobState::Cancelled, {}).ok());
    QVERIFY(m_client->cancel(id).failedWith(ErrorCode::WrongState));
}

void TestSlurmClient::fetchAndTail()
{
    const qint64 id = createRun();
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    const QString dir = m_store->run(id).value().remoteDir;
    // nothing written yet
    QVERIFY(m_client->tailOutput(id).missing);
    m_exec->files.insert(dir + "/scalelab-100.out", "line 1\n");
    TailResult t = m_client->tailOutput(id);
    QCOMPARE(t.data, QByteArray("line 1\n"));
    QCOMPARE(t.offset, 0);
    m_exec->files[dir + "/scalelab-100.out"] += "line 2\n";
    t = m_client->tailOutput(id);
    QCOMPARE(t.data, QByteArray("line 2\n"));
    QCOMPARE(t.offset, 7);
    t = m_client->tailOutput(id);
    QCOMPARE(t.data, QByteArray());
    const QString local = m_store->runFilesDirectory(id) + "/scalelab-100.out";
    QFile lf(local);
    QVERIFY(lf.open(QIODevice::ReadOnly));
    QCOMPARE(lf.readAll(), QByteArray("line 1\nline 2\n"));
    lf.close();

    m_exec->files.insert(dir + "/scalelab-gpu-100-tb-node1.csv", QByteArray(5000, 'x'));
    m_exec->onRun = [dir](const QStringList &argv) {
        RemoteResult r;
        r.exitCode = 0;
        if (argv.value(0) == "find")
            r.out = "14 scalelab-100.out\n5000 scalelab-gpu-100-tb-node1.csv\n3 scalelab-evil name\n"
                    "4 scalelab-../../x\n";
        return r;
    };
    const FetchResult f = m_client->fetch(id, 1000);
    QVERIFY2(f.ok(), qPrintable(f.errors.join("; ")));
    QCOMPARE(f.files.size(), 2);
    QCOMPARE(f.truncated, QStringList({dir + "/scalelab-gpu-100-tb-node1.csv"}));
    QCOMPARE(QFileInfo(m_store->runFilesDirectory(id) + "/scalelab-gpu-100-tb-node1.csv").size(), 1000);
    QCOMPARE(m_store->files(id).value().size(), 2);
    const QStringList find = m_exec->commands().last();
    QCOMPARE(find.value(0), QStringLiteral("find"));
    QCOMPARE(find.value(1), dir);
}

QTEST_GUILESS_MAIN(TestSlurmClient)
#include "tst_slurmclient.moc"
