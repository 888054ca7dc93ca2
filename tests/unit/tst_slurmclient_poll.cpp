// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient against a scripted executor, after submission: polling load (one
// squeue, one sacct), the controller down, half-written sacct records, the poll
// scheduler and follow-up polls; the version probe, --test-only, cancel, fetch
// and tail. Submitting and reconciling are in tst_slurmclient_submit.cpp.
#include "SlurmClientFixtures.h"
#include "core/base/ShellQuote.h"
#include "core/client/PollScheduler.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

using namespace scalelab;
using namespace scalelab::testing;
using scalelab::test::kUserText;

class TestSlurmClientPoll : public QObject, protected SlurmClientFixture {
    Q_OBJECT
private Q_SLOTS:
    void init() { setUpClient(); }
    void cleanup() { tearDownClient(); }

    void pollOneSqueueOneSacct();
    void pollStoresExpectedStart();
    void pollControllerDown();
    void pollWaitsForAHalfWrittenSacctRecord();
    void pollNothingActiveSendsNothing();
    void pollScheduler();
    void followUpPollsAfterSubmitAndCancel();

    void detectVersionOnce();
    void testOnly();
    void cancel();
    void fetchAndTail();
    void fetchBringsMetricFiles();
    void fetchLooksWhereTheSpecAndArgumentsSay();
};

void TestSlurmClientPoll::pollOneSqueueOneSacct()
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

void TestSlurmClientPoll::pollWaitsForAHalfWrittenSacctRecord()
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

// squeue's %S of a pending job (what `squeue --start` prints) is stored with
// the run, in the same squeue; it goes once the job runs.
void TestSlurmClientPoll::pollStoresExpectedStart()
{
    const qint64 a = createRun();
    QCOMPARE(m_client->submit(a).kind, SubmitOutcome::Kind::Submitted);
    m_exec->calls.clear();
    PollResult p = m_client->pollOnce();
    QCOMPARE(m_store->run(a).value().expectedStart, QString());   // "N/A": not known yet
    m_slurm->jobs[0].startTime = QStringLiteral("2026-11-27T08:24:58");
    p = m_client->pollOnce();
    QCOMPARE(p.updates.size(), 1);   // only the estimate changed: the views hear of it
    QCOMPARE(m_store->run(a).value().expectedStart, QStringLiteral("2026-11-27T08:24:58"));
    QCOMPARE(m_store->run(a).value().reason, QStringLiteral("Resources"));
    p = m_client->pollOnce();
    QCOMPARE(p.updates.size(), 0);
    QCOMPARE(m_exec->countCommands("squeue --me"), 3);
    m_slurm->jobs[0].state = JobState::Running;
    p = m_client->pollOnce();
    QCOMPARE(m_store->run(a).value().expectedStart, QString());
}

void TestSlurmClientPoll::pollControllerDown()
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

void TestSlurmClientPoll::pollNothingActiveSendsNothing()
{
    createRun();   // intent only
    const PollResult p = m_client->pollOnce();
    QVERIFY(p.ok());
    QCOMPARE(m_exec->calls.size(), 0);
}

void TestSlurmClientPoll::pollScheduler()
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

void TestSlurmClientPoll::followUpPollsAfterSubmitAndCancel()
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

void TestSlurmClientPoll::detectVersionOnce()
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

void TestSlurmClientPoll::testOnly()
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

void TestSlurmClientPoll::cancel()
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

void TestSlurmClientPoll::fetchAndTail()
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

// The frameworks' metric files under the job's folder come back at the same
// relative path (so the readers see their layout); names that are not
// theirs, unsafe paths and files over 16 MB are not fetched (the last listed).
void TestSlurmClientPoll::fetchBringsMetricFiles()
{
    const qint64 id = createRun();
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    const QString dir = m_store->run(id).value().remoteDir;
    m_exec->files.insert(dir + "/out/trainer_state.json", "{\"log_history\": []}");
    m_exec->files.insert(dir + "/mlruns/0/abc/metrics/loss", "1 2.5 0\n");
    m_exec->onRun = [](const QStringList &argv) {
        RemoteResult r;
        r.exitCode = 0;
        if (argv.value(0) == "find" && argv.contains("6"))
            r.out = "19 out/trainer_state.json\n8 mlruns/0/abc/metrics/loss\n10 data/train.csv\n"
                    "99999999 runs/events.out.tfevents.1.node1\n5 ../x/metrics.csv\n";
        return r;
    };
    const FetchResult f = m_client->fetch(id, 1000);
    QVERIFY2(f.ok(), qPrintable(f.errors.join("; ")));
    QCOMPARE(f.files.size(), 2);
    QCOMPARE(f.truncated, QStringList({dir + "/runs/events.out.tfevents.1.node1"}));
    const QString local = m_store->runFilesDirectory(id) + "/metricfiles/";
    QCOMPARE(QFileInfo(local + "out/trainer_state.json").size(), 19);
    QCOMPARE(QFileInfo(local + "mlruns/0/abc/metrics/loss").size(), 8);
    QCOMPARE(m_store->files(id).value().size(), 2);
}

// Metric files outside the run folder: where the spec says (a relative
// folder; $USER expanded by the cluster's sh, nothing else) and where the
// program's --output_dir points; a file reached twice is fetched once.
void TestSlurmClientPoll::fetchLooksWhereTheSpecAndArgumentsSay()
{
    RunRecord r = newRun();
    r.specJson =
        R"({"profile": "testbed", "gpus": 2, "framework": "pytorch-ddp", "program": "train.py", "args": ["--output_dir", "/data/$USER/hf"],
                     "monitoring": {"metricDirs": ["tb/", "/scratch/$USER/out;rm -rf ~"]}})";
    const qint64 id = m_store->createRun(r).value().id;
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    const QString dir = m_store->run(id).value().remoteDir;
    const QString out = "/scratch/researcher/out;rm -rf ~";
    m_exec->files.insert(dir + "/tb/events.out.tfevents.1.node1", "tb");
    m_exec->files.insert(out + "/checkpoint-10/trainer_state.json", "{\"log_history\": []}");
    QStringList bodies;
    m_exec->onRun = [&](const QStringList &argv) {
        RemoteResult res;
        res.exitCode = 0;
        if (argv.value(0) == "find" && argv.contains("6"))
            res.out = "2 tb/events.out.tfevents.1.node1\n";
        if (argv.value(0) == "sh" && argv.value(1) == "-c") {
            bodies << argv.value(2);
            if (argv.value(2).contains("-- \"tb\" "))
                res.out = (dir + "/tb\n2 events.out.tfevents.1.node1\n").toUtf8();
            else if (argv.value(2).contains("/scratch/"))
                res.out = (out + "\n19 checkpoint-10/trainer_state.json\n").toUtf8();
        }
        return res;
    };
    const FetchResult f = m_client->fetch(id, 1000);
    QVERIFY2(f.ok(), qPrintable(f.errors.join("; ")));
    QCOMPARE(bodies.size(), 3);
    QVERIFY2(bodies.at(0).startsWith("cd " + ShellQuote::quote(dir) + " ||"), qPrintable(bodies.at(0)));
    // The spec's folder travels double-quoted: $USER expands, ; and ~ do not.
    QVERIFY2(bodies.at(1).contains(R"(cd -- "/scratch/$USER/out;rm -rf ~")"), qPrintable(bodies.at(1)));
    // The argument as the script gives it to the program: $USER expands there too.
    QVERIFY2(bodies.at(2).contains(R"(cd -- "/data/$USER/hf")"), qPrintable(bodies.at(2)));
    QCOMPARE(f.files.size(), 2);   // tb/ inside the run folder: once
    const QString local = m_store->runFilesDirectory(id) + "/metricfiles/";
    QCOMPARE(QFileInfo(local + "tb/events.out.tfevents.1.node1").size(), 2);
    QCOMPARE(QFileInfo(local + "location-2/checkpoint-10/trainer_state.json").size(), 19);
    QCOMPARE(f.files.last().remotePath, out + "/checkpoint-10/trainer_state.json");
}

QTEST_GUILESS_MAIN(TestSlurmClientPoll)
#include "tst_slurmclient_poll.moc"
