// SPDX-License-Identifier: GPL-3.0-or-later
// Runs longer than the time limit (JobSpec::segments): the spec fields and
// their checks, the script's signal, trap and chain decisions (run in a real
// bash with a stand-in srun), the submit command that chains the segments,
// the store's one run with several jobs, the poll that follows them and the
// accounting that adds them up.
#include "ProfileFixtures.h"
#include "SlurmClientFixtures.h"

#include "core/base/ShellQuote.h"
#include "core/analysis/JobsTree.h"
#include "core/client/RunLifecycle.h"
#include "core/compose/JobValidator.h"
#include "core/compose/SbatchRenderer.h"
#include "core/compose/SegmentScript.h"
#include "core/ingest/AccountingMetrics.h"
#include "core/ingest/SegmentLog.h"
#include "core/model/JobSpecJson.h"
#include "core/scriptimport/ScriptFile.h"
#include "core/discovery/ProfileJson.h"
#include "core/profiles/ProfileLoader.h"
#include "core/slurm/SegmentAccounting.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace scalelab;
using scalelab::test::repoProfile;
using scalelab::test::testbedSpec;

class TestSegments : public QObject, protected scalelab::testing::SlurmClientFixture {
    Q_OBJECT
private Q_SLOTS:
    void init() { setUpClient(); }
    void cleanup() { tearDownClient(); }
    void specFieldsReadAndWritten();
    void specErrorsNameTheField();
    void validatorNeedsTimeAndShorterLead();
    void rendererWritesSignalAndTrap();
    void scriptEndsSegmentOnSignal();
    void scriptStopsChainAfterFailure();
    void submitCommandChainsSegments();
    void storeKeepsOneRunWithSegments();
    void olderStoreGainsSegments();
    void jobsShowTheSegment();
    void accountingAddsUp();
    void pollFollowsChainAndCancelCancelsIt();
    void segmentLogsJoinInOrder();
    void chainedStudyWaitsForLastSegment();
    void jobsElapsedAddsTheSegments();
    void importGivesTheSpecBack();
    void leadCoversCheckpointAndRequeueAllowed();
    void untilDoneSubmitsOneJob();
    void untilDoneSegmentQueuesTheNextOnce();
    void untilDonePollFollowsQueuedSegments();

private:
    static JobSpec segmentedSpec();
    struct ScriptRun {
        int exitCode = -1;
        QString out;
    };
    ScriptRun runScript(const QString &dir, const QString &jobId, int segment, int segments, bool signal,
                        const JobSpec &spec = segmentedSpec());
    QTemporaryDir m_bin;
};

JobSpec TestSegments::segmentedSpec()
{
    JobSpec s = testbedSpec(QStringLiteral("long"), 1, QStringLiteral("/tmp/train.py"));
    s.time = QStringLiteral("00:01:00");
    s.segments.count = 3;
    s.segments.signalLeadSeconds = 30;
    return s;
}

void TestSegments::specFieldsReadAndWritten()
{
    const auto parsed = parseJobSpec(R"({"profile": "testbed", "gpus": 1, "framework": "pytorch-ddp",
        "program": "x.py", "time": "01:00:00",
        "segments": {"count": 4, "signalLead": 90, "signal": "USR2", "requeue": true}})");
    QVERIFY2(parsed.spec, qPrintable(parsed.errors.value(0).message));
    QCOMPARE(parsed.spec->segments.count, 4);
    QCOMPARE(parsed.spec->segments.signalLeadSeconds, 90);
    QCOMPARE(parsed.spec->segments.signal, QStringLiteral("USR2"));
    QVERIFY(parsed.spec->segments.requeue);
    QCOMPARE(parseJobSpec(jobSpecToJson(*parsed.spec)).spec->segments, parsed.spec->segments);
    const auto untilDone = parseJobSpec(R"({"profile": "testbed", "gpus": 1, "framework": "pytorch-ddp",
        "program": "x.py", "segments": {"count": "until-done"}})");
    QVERIFY(untilDone.spec);
    QVERIFY(untilDone.spec->segments.untilDone);
    QCOMPARE(untilDone.spec->segments.planned(), SegmentSpec::kUntilDoneSegments);
    QCOMPARE(parseJobSpec(jobSpecToJson(*untilDone.spec)).spec->segments, untilDone.spec->segments);
    // No segments: nothing written, nothing read back.
    QVERIFY(!jobSpecToJson(testbedSpec(QStringLiteral("a"), 1, QStringLiteral("x.py"))).contains("segments"));
}

void TestSegments::specErrorsNameTheField()
{
    const QList<QPair<QByteArray, QString>> cases = {
        {R"("segments": {"count": "forever"})", QStringLiteral("segments.count")},
        {R"("segments": {"count": 51})", QStringLiteral("segments.count")},
        {R"("segments": {"count": 2, "signal": "HUP"})", QStringLiteral("segments.signal")},
        {R"("segments": {"count": 2, "signalLead": 0})", QStringLiteral("segments.signalLead")},
        {R"("segments": {"count": 2, "requeue": "yes"})", QStringLiteral("segments.requeue")},
        {R"("segments": {"count": 2, "lead": 5})", QStringLiteral("segments.lead")},
        {R"("segments": 3)", QStringLiteral("segments")},
    };
    for (const auto &[fragment, field] : cases) {
        const auto parsed = parseJobSpec(R"({"profile": "testbed", "gpus": 1, "framework": "pytorch-ddp",
            "program": "x.py", )" + fragment
                                         + "}");
        QVERIFY2(!parsed.spec, fragment.constData());
        QCOMPARE(parsed.errors.value(0).field, field);
        QVERIFY2(parsed.errors.value(0).message.contains(field), qPrintable(parsed.errors.value(0).message));
    }
}

void TestSegments::validatorNeedsTimeAndShorterLead()
{
    const ClusterProfile &profile = repoProfile(QStringLiteral("testbed"));
    auto errorsOf = [&](const JobSpec &s) {
        QStringList out;
        for (const Diagnostic &d : validateJob(s, profile))
            if (d.severity == Severity::Error)
                out << d.rule + QLatin1Char(':') + d.field;
        return out;
    };
    QCOMPARE(errorsOf(segmentedSpec()), QStringList());
    JobSpec noTime = segmentedSpec();
    noTime.time.clear();
    QVERIFY(errorsOf(noTime).contains(QStringLiteral("segments-time:time")));
    JobSpec longLead = segmentedSpec();
    longLead.segments.signalLeadSeconds = 60;
    QCOMPARE(errorsOf(longLead), QStringList{QStringLiteral("segments-lead:segments.signalLead")});
    JobSpec twice = segmentedSpec();
    twice.slurmOptions << qMakePair(QStringLiteral("signal"), QStringLiteral("B:USR1@60"));
    QCOMPARE(errorsOf(twice), QStringList{QStringLiteral("segments-signal-twice:slurmOptions")});
}

void TestSegments::rendererWritesSignalAndTrap()
{
    const ClusterProfile &profile = repoProfile(QStringLiteral("testbed"));
    const QString script = renderSbatch(segmentedSpec(), profile);
    QVERIFY2(script.contains(QLatin1String("\n#SBATCH --signal=B:USR1@30\n")), qPrintable(script));
    QVERIFY(!script.contains(QLatin1String("--requeue")));
    QVERIFY(script.contains(QLatin1String("\ntrap scalelab_on_limit USR1\n")));
    QVERIFY(script.contains(QLatin1String("SCALELAB_SEGMENTS=\"${SCALELAB_SEGMENTS:-3}\"")));
    QVERIFY(script.contains(QLatin1String("/tmp/train.py &\nSCALELAB_LAUNCH_PID=$!\n")));
    JobSpec submitit = segmentedSpec();
    submitit.segments.signal = QStringLiteral("USR2");
    submitit.segments.requeue = true;
    const QString usr2 = renderSbatch(submitit, profile);
    QVERIFY(usr2.contains(QLatin1String("\n#SBATCH --signal=B:USR2@30\n#SBATCH --requeue\n")));
    QVERIFY(usr2.contains(QLatin1String("kill -USR2 \"$SCALELAB_LAUNCH_PID\"")));
    // A run of one job: no signal, no trap, the launch in the foreground as before.
    const QString plain = renderSbatch(testbedSpec(QStringLiteral("a"), 1, QStringLiteral("/tmp/train.py")), profile);
    QVERIFY(!plain.contains(QLatin1String("--signal")));
    QVERIFY(!plain.contains(QLatin1String("trap scalelab_on_limit")));
    QVERIFY(!plain.contains(QLatin1String("SCALELAB_SEGMENT")));
    QVERIFY(plain.contains(QLatin1String("/tmp/train.py\nrc=$?\n")));
}

// The rendered script in a real bash, with a stand-in srun: it says it
// started, then ends 0 on SIGUSR1, or at once (finish-now), or fails (fail-now).
TestSegments::ScriptRun TestSegments::runScript(const QString &dir, const QString &jobId, int segment, int segments,
                                                bool signal, const JobSpec &spec)
{
    if (!QFile::exists(m_bin.filePath(QStringLiteral("srun")))) {
        QFile srun(m_bin.filePath(QStringLiteral("srun")));
        srun.open(QIODevice::WriteOnly);
        srun.write(
            "#!/bin/bash\ntrap 'echo signalled >> launch.log; exit 0' USR1\n"
            "[ -e fail-now ] && exit 3\n[ -e done-then-killed ] && { : > \"$SCALELAB_DONE_FILE\"; trap - USR1; }\n"
            "echo started > started\n[ -e finish-now ] && exit 0\n"
            "while :; do sleep 0.05; done\n");
        srun.close();
        srun.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QFile scontrol(m_bin.filePath(QStringLiteral("scontrol")));
        scontrol.open(QIODevice::WriteOnly);
        scontrol.write("#!/bin/sh\nexit 0\n");
        scontrol.close();
        scontrol.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // sbatch inside a segment ("until-done"): its arguments on one line each; ids 300, 301, ...
        QFile sbatch(m_bin.filePath(QStringLiteral("sbatch")));
        sbatch.open(QIODevice::WriteOnly);
        sbatch.write("#!/bin/sh\n[ -e refuse-sbatch ] && { echo 'sbatch: error: refused' >&2; exit 1; }\n"
                     "echo \"$*\" >> sbatch-args\necho \"$((299 + $(wc -l < sbatch-args)));testbed\"\n");
        sbatch.close();
        sbatch.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    QFile script(dir + QStringLiteral("/job.sbatch"));
    script.open(QIODevice::WriteOnly);
    script.write(renderSbatch(spec, repoProfile(QStringLiteral("testbed"))).toUtf8());
    script.close();
    QFile::remove(dir + QStringLiteral("/started"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), m_bin.path() + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    env.insert(QStringLiteral("SLURM_JOB_ID"), jobId);
    env.insert(QStringLiteral("SLURM_CPUS_PER_TASK"), QStringLiteral("1"));
    env.insert(QStringLiteral("SLURM_JOB_NODELIST"), QStringLiteral("tb-node1"));
    env.insert(QStringLiteral("SCALELAB_SEGMENT"), QString::number(segment));
    env.insert(QStringLiteral("SCALELAB_SEGMENTS"), QString::number(segments));
    env.insert(QStringLiteral("SCALELAB_TOKEN"), QStringLiteral("sl-00112233445566aa"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("bash"), {QStringLiteral("job.sbatch")});
    p.waitForStarted();
    if (signal) {
        // Slurm's --signal=B:USR1 goes to the batch shell once the launch runs.
        QElapsedTimer t;
        t.start();
        while (!QFile::exists(dir + QStringLiteral("/started")) && t.elapsed() < 20000)
            p.waitForFinished(20);
        ::kill(pid_t(p.processId()), SIGUSR1);
    }
    p.waitForFinished(30000);
    return ScriptRun{p.exitCode(), QString::fromUtf8(p.readAll())};
}

void TestSegments::scriptEndsSegmentOnSignal()
{
    QTemporaryDir run;
    const QString dir = run.path();
    const ScriptRun first = runScript(dir, QStringLiteral("77"), 1, 2, true);
    QVERIFY2(first.out.contains(QLatin1String("scalelab: segment 1 reached its time limit")), qPrintable(first.out));
    QVERIFY2(first.out.contains(QLatin1String("ended on its time limit (exit code 0); segment 2 continues")),
             qPrintable(first.out));
    QCOMPARE(first.exitCode, 0);
    QVERIFY(QFile::exists(dir + QStringLiteral("/") + SegmentScript::limitFileName(QStringLiteral("77"))));
    QVERIFY(QFile::exists(dir + QStringLiteral("/launch.log")));   // the launch got the signal
    QVERIFY(!QFile::exists(dir + QStringLiteral("/scalelab-done")));
    // The next segment ends the work before its limit: done.
    QFile(dir + QStringLiteral("/finish-now")).open(QIODevice::WriteOnly);
    const ScriptRun second = runScript(dir, QStringLiteral("78"), 2, 3, false);
    QCOMPARE(second.exitCode, 0);
    QVERIFY(QFile::exists(dir + QStringLiteral("/scalelab-done")));
    QVERIFY(!QFile::exists(dir + QStringLiteral("/") + SegmentScript::limitFileName(QStringLiteral("78"))));
    // Any segment after that ends at once without starting the program.
    const ScriptRun third = runScript(dir, QStringLiteral("79"), 3, 3, false);
    QCOMPARE(third.exitCode, 0);
    QVERIFY2(third.out.contains(QLatin1String("segment 3 of 3 not needed: the work is done")), qPrintable(third.out));
    QVERIFY(!QFile::exists(dir + QStringLiteral("/started")));
    // The last segment on its limit with the work not done: the run failed.
    QTemporaryDir other;
    const ScriptRun last = runScript(other.path(), QStringLiteral("80"), 2, 2, true);
    QCOMPARE(last.exitCode, 1);
    QVERIFY2(last.out.contains(QLatin1String("the work is not done after 2 segment(s)")), qPrintable(last.out));
}

void TestSegments::scriptStopsChainAfterFailure()
{
    // The limit's signal as the training ends: it wrote its done file, then the
    // signal killed it (exit 138). The work is done; nothing stops, nothing continues.
    QTemporaryDir late;
    QFile(late.filePath(QStringLiteral("done-then-killed"))).open(QIODevice::WriteOnly);
    const ScriptRun ended = runScript(late.path(), QStringLiteral("89"), 1, 3, true);
    QVERIFY2(ended.out.contains(QLatin1String("the work is done (exit code 138 after it)")), qPrintable(ended.out));
    QCOMPARE(ended.exitCode, 0);
    QVERIFY(QFile::exists(late.filePath(SegmentScript::doneFileName())));
    QVERIFY(!QFile::exists(late.filePath(SegmentScript::stopFileName())));

    QTemporaryDir run;
    QFile(run.filePath(QStringLiteral("fail-now"))).open(QIODevice::WriteOnly);
    const ScriptRun failed = runScript(run.path(), QStringLiteral("90"), 1, 3, false);
    QCOMPARE(failed.exitCode, 3);
    QFile stop(run.filePath(SegmentScript::stopFileName()));
    QVERIFY(stop.open(QIODevice::ReadOnly));
    QCOMPARE(stop.readAll().trimmed(), QByteArray("3"));
    QFile::remove(run.filePath(QStringLiteral("fail-now")));
    const ScriptRun next = runScript(run.path(), QStringLiteral("91"), 2, 3, false);
    QCOMPARE(next.exitCode, 1);
    QVERIFY2(next.out.contains(QLatin1String("not started: an earlier segment failed (exit code 3)")),
             qPrintable(next.out));
    QVERIFY(!QFile::exists(run.filePath(QStringLiteral("started"))));
}

void TestSegments::submitCommandChainsSegments()
{
    QTemporaryDir tmp;
    const QString dir = tmp.path() + "/runs/sl-00112233445566aa";
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(QDir().mkpath(tmp.path() + "/bin"));
    QFile fake(tmp.path() + "/bin/sbatch");
    QVERIFY(fake.open(QIODevice::WriteOnly));
    // Each call's arguments on one line; ids 500, 501, ...
    fake.write("#!/bin/sh\necho \"$*\" >> \"$(pwd)/args\"\nn=$(wc -l < \"$(pwd)/args\")\n"
               "echo \"$((499 + n));testbed\"\n");
    fake.close();
    fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", tmp.path() + "/bin:" + env.value("PATH"));
    auto runLogin = [&](const QString &body) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start("bash", {"-c", ShellQuote::join({"sh", "-c", body})});
        p.waitForFinished(10000);
        return std::make_pair(p.exitCode(), p.readAllStandardOutput());
    };
    const QString body = SlurmClient::submitShellBody(dir, "sl-00112233445566aa", QStringLiteral("42"), 3);
    QVERIFY(!body.contains(QLatin1Char('\n')) && !body.contains(QLatin1Char('!')) && !body.contains(QLatin1Char('\\')));
    const auto [rc, out] = runLogin(body);
    QCOMPARE(rc, 0);
    QCOMPARE(out, QByteArray("500;testbed\n501\n502\n"));
    QFile args(dir + "/args");
    QVERIFY(args.open(QIODevice::ReadOnly));
    const QString common = "--parsable --comment=sl-00112233445566aa --chdir=" + dir;
    QCOMPARE(QString::fromUtf8(args.readAll()).split('\n', Qt::SkipEmptyParts),
             QStringList({common
                              + " --dependency=afterany:42 --export=ALL,SCALELAB_SEGMENT=1,SCALELAB_SEGMENTS=3 "
                                "job.sbatch",
                          common
                              + " --dependency=afterany:500 --export=ALL,SCALELAB_SEGMENT=2,SCALELAB_SEGMENTS=3 "
                                "job.sbatch",
                          common
                              + " --dependency=afterany:501 --export=ALL,SCALELAB_SEGMENT=3,SCALELAB_SEGMENTS=3 "
                                "job.sbatch"}));
    QCOMPARE(runLogin(SlurmClient::reconcileShellBody(dir)).second, QByteArray("jobid\n500;testbed\n501\n502\n"));
}

void TestSegments::storeKeepsOneRunWithSegments()
{
    const qint64 id = createRun();
    QCOMPARE(m_store->segments(id).value().size(), 0);
    QVERIFY(m_store->markSubmittedSegments(id, {"11", "12", "13"}).ok());
    const RunRecord run = m_store->run(id).value();
    QCOMPARE(run.jobId, QStringLiteral("11"));
    QCOMPARE(run.submitState, SubmitState::Submitted);
    auto segments = m_store->segments(id).value();
    QCOMPARE(segments.size(), 3);
    QCOMPARE(segments.at(2).segment, 3);
    QCOMPARE(segments.at(2).jobId, QStringLiteral("13"));
    QVERIFY(!segments.at(0).ended());
    SacctRecord first;
    first.jobId = "11";
    first.state = JobState::Completed;
    first.stateText = "COMPLETED";
    first.elapsed = "00:00:50";
    QCOMPARE(m_store->recordSegmentEnd(id, first).value(), std::optional<QString>(QStringLiteral("12")));
    QCOMPARE(m_store->run(id).value().jobId, QStringLiteral("12"));
    QCOMPARE(m_store->run(id).value().state, JobState::Pending);
    segments = m_store->segments(id).value();
    QVERIFY(segments.at(0).ended());
    QCOMPARE(segments.at(0).elapsed, QStringLiteral("00:00:50"));
    SacctRecord last = first;
    last.jobId = "13";
    QCOMPARE(m_store->recordSegmentEnd(id, last).value(), std::nullopt);
    // The Jobs tree reads them with the run.
    const auto jobs = m_store->jobsRecords({id});
    QVERIFY(jobs.ok());
    QCOMPARE(jobs->runs.size(), 1);
    QCOMPARE(jobs->runs.first().segments.size(), 3);
    QCOMPARE(jobs->runs.first().segments.first().stateText, QStringLiteral("COMPLETED"));
    // A reconcile that finds the same jobs again changes nothing.
    QVERIFY(m_store->markSubmittedSegments(id, {"11", "12", "13"}, SubmitState::Reconciled).ok());
    QCOMPARE(m_store->segments(id).value().at(0).elapsed, QStringLiteral("00:00:50"));
    QVERIFY(m_store->deleteRun(id).ok());
    QCOMPARE(m_store->segments(id).value().size(), 0);
}

// A store of the ScaleLab before segments is migrated: its runs stay, each of one job.
void TestSegments::olderStoreGainsSegments()
{
    const qint64 id = createRun();
    const QString path = m_store->databasePath();
    m_store->closeThreadConnection();
    delete m_client;
    delete m_store;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("older"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("DROP TABLE run_segments")));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=%1").arg(RunStore::latestSchemaVersion() - 1)));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("older"));
    m_store = new RunStore(m_dir->path());
    m_client = new SlurmClient(*m_exec, *m_store, "testbed");
    QCOMPARE(m_store->open().errorText(), QString());
    QCOMPARE(m_store->schemaVersion().value(), RunStore::latestSchemaVersion());
    QVERIFY(m_store->run(id).ok());
    QCOMPARE(m_store->segments(id).value().size(), 0);
    QVERIFY(m_store->markSubmittedSegments(id, {"5", "6"}).ok());
    QCOMPARE(m_store->segments(id).value().size(), 2);
}

void TestSegments::jobsShowTheSegment()
{
    JobsRunRecord rec;
    rec.run.id = 1;
    rec.run.jobId = QStringLiteral("12");
    rec.run.state = JobState::Running;
    for (int i = 1; i <= 4; ++i) {
        SegmentRecord s;
        s.segment = i;
        s.jobId = QString::number(10 + i);
        s.stateText = i == 1 ? QStringLiteral("COMPLETED") : QString();
        rec.segments << s;
    }
    const JobsRow row = JobsRow::from(rec);
    QCOMPARE(row.segmentText, QStringLiteral("segment 2 of 4"));
    QCOMPARE(row.segmentStates, QStringLiteral("1 COMPLETED, 2 RUNNING, 3 waiting, 4 waiting"));
    QCOMPARE(JobsRow::from(JobsRunRecord{}).segmentText, QString());
}

// Jobs' elapsed for a run of segments: the ended segments' Elapsed plus the
// followed one's clock; it holds while the next segment waits (no drop to
// nothing) and leaves out the wait (no jump); the limit is per segment × segments.
void TestSegments::jobsElapsedAddsTheSegments()
{
    const QDateTime t0 = QDateTime(QDate(2026, 11, 27), QTime(10, 0), Qt::UTC);
    JobsRunRecord rec;
    rec.run.id = 1;
    rec.run.jobId = QStringLiteral("12");
    rec.run.state = JobState::Pending;
    rec.specTime = QStringLiteral("00:01:00");
    rec.history = {{1, JobState::Pending, {}, t0},
                   {1, JobState::Running, {}, t0.addSecs(10)},
                   {1, JobState::Completing, {}, t0.addSecs(70)},
                   {1, JobState::Pending, {}, t0.addSecs(75)}};
    for (int i = 1; i <= 3; ++i) {
        SegmentRecord s;
        s.segment = i;
        s.jobId = QString::number(10 + i);
        s.stateText = i == 1 ? QStringLiteral("COMPLETED") : QString();
        s.elapsed = i == 1 ? QStringLiteral("00:01:00") : QString();
        rec.segments << s;
    }
    // Segment 2 waits in the queue: the first segment's minute, not nothing.
    JobsRow row = JobsRow::from(rec);
    QCOMPARE(row.elapsedSeconds(t0.addSecs(300)), 60);
    QCOMPARE(row.limitSeconds, 180);
    // Segment 2 started 10 minutes after: 60 s + its own 20 s, not the 10 minutes between.
    rec.run.state = JobState::Running;
    rec.history << StateChange{1, JobState::Running, {}, t0.addSecs(600)};
    row = JobsRow::from(rec);
    QCOMPARE(row.elapsedSeconds(t0.addSecs(620)), 80);
    QVERIFY(row.active());
    QCOMPARE(row.progress(t0.addSecs(620)), 80.0 / 180.0);
}

// A script ScaleLab rendered for segments imports as the spec it came from
// (its segments, not a carried --signal the validator refuses beside them),
// and renders the same script again: a fixed point, for a number of segments
// and for "until-done".
void TestSegments::importGivesTheSpecBack()
{
    const ClusterProfile profile = repoProfile(QStringLiteral("testbed"));
    JobSpec fixed = segmentedSpec();
    fixed.gpuSampleSeconds = 10;   // a script without the sampler imports as the default; not this test's point
    fixed.segments.signal = QStringLiteral("USR2");
    fixed.segments.signalLeadSeconds = 45;
    fixed.segments.requeue = true;
    JobSpec untilDone = fixed;
    untilDone.segments.count = 0;
    untilDone.segments.untilDone = true;
    untilDone.segments.requeue = false;
    untilDone.segments.checkpointSeconds = 20;
    for (const JobSpec &spec : {fixed, untilDone}) {
        const QString rendered = renderSbatch(spec, profile);
        const ScriptImport imp = ScriptFile::importText(rendered, QString(), profile);
        QCOMPARE(imp.spec.segments, spec.segments);
        QCOMPARE(imp.spec.slurmOptions, spec.slurmOptions);
        QCOMPARE(renderSbatch(imp.spec, profile).split(QLatin1Char('\n')), rendered.split(QLatin1Char('\n')));
        const ScriptImport again = ScriptFile::importText(renderSbatch(imp.spec, profile), QString(), profile);
        QCOMPARE(again.spec, imp.spec);
        for (const Diagnostic &d : validateJob(imp.spec, profile))
            QVERIFY2(!d.rule.startsWith(QLatin1String("segments-")), qPrintable(d.message));
    }
}

// A lead shorter than the spec's checkpoint time is a warning on the lead;
// --requeue (the segments' or a script's own) on a partition whose profile
// says the site refuses it is an error, in the validator and in the linter;
// the profile's fact survives its file.
void TestSegments::leadCoversCheckpointAndRequeueAllowed()
{
    auto rules = [](const Diagnostics &ds) {
        QStringList out;
        for (const Diagnostic &d : ds)
            if (d.rule == QLatin1String("segments-lead-checkpoint") || d.rule == QLatin1String("requeue-forbidden"))
                out << d.rule + QLatin1Char(' ') + d.field;
        return out;
    };
    ClusterProfile profile = repoProfile(QStringLiteral("testbed"));
    JobSpec s = segmentedSpec();
    s.segments.checkpointSeconds = 45;
    QCOMPARE(rules(validateJob(s, profile)), QStringList{"segments-lead-checkpoint segments.signalLead"});
    QCOMPARE(parseJobSpec(jobSpecToJson(s)).spec->segments.checkpointSeconds, 45);
    QVERIFY(renderSbatch(s, profile).contains(QStringLiteral("export SCALELAB_CHECKPOINT_SECONDS=45\n")));
    QCOMPARE(ScriptFile::importText(renderSbatch(s, profile), QString(), profile).spec.segments, s.segments);
    s.segments.signalLeadSeconds = 50;
    QCOMPARE(rules(validateJob(s, profile)), QStringList());

    // The site refuses --requeue on the partition: declared in the profile's file, and written back.
    QFile file(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles/testbed.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray parts = doc.value(QStringLiteral("partitions")).toArray();
    QJsonObject gpu = parts.at(0).toObject();
    QCOMPARE(gpu.value(QStringLiteral("name")).toString(), s.partition);
    gpu.insert(QStringLiteral("requeue"),
               QJsonObject{{QStringLiteral("value"), false},
                           {QStringLiteral("source"), QStringLiteral("https://docs.example.org/requeue")}});
    parts.replace(0, gpu);
    doc.insert(QStringLiteral("partitions"), parts);
    const auto loaded = loadProfile(QJsonDocument(doc).toJson(), QStringLiteral("site.json"));
    QStringList problems;
    for (const Diagnostic &d : loaded.problems)
        problems << d.message;
    QVERIFY2(loaded.profile, qPrintable(problems.join(QLatin1Char('\n'))));
    QCOMPARE(loaded.profile->partition(s.partition)->requeue, std::optional<bool>(false));
    QCOMPARE(repoProfile(QStringLiteral("testbed")).partition(s.partition)->requeue, std::optional<bool>());
    const QJsonObject written = QJsonDocument::fromJson(ProfileJson::write(*loaded.profile)).object();
    QCOMPARE(written.value(QStringLiteral("partitions")).toArray().at(0).toObject().value(QStringLiteral("requeue")),
             gpu.value(QStringLiteral("requeue")));
    QCOMPARE(rules(validateJob(s, *loaded.profile)), QStringList());   // no requeue asked
    s.segments.requeue = true;
    QCOMPARE(rules(validateJob(s, *loaded.profile)), QStringList{"requeue-forbidden segments.requeue"});
    const QString script = QStringLiteral("#!/bin/bash\n#SBATCH --partition=%1\n#SBATCH --gres=gpu:1\n"
                                          "#SBATCH --time=01:00:00\n%2srun python /tmp/train.py\n")
                               .arg(s.partition);
    const auto lint = [&](const QString &text) {
        return rules(ScriptFile::importText(text, QString(), *loaded.profile).diagnostics);
    };
    QCOMPARE(lint(script.arg(QStringLiteral("#SBATCH --requeue\n"))), QStringList{"requeue-forbidden slurmOptions"});
    QCOMPARE(lint(script.arg(QString())), QStringList());
}

void TestSegments::accountingAddsUp()
{
    auto segment = [](const QString &id, const QString &submit, const QString &start, const QString &elapsed) {
        SacctRecord r;
        r.jobId = id;
        r.submit = submit;
        r.start = start;
        r.elapsed = elapsed;
        r.allocTres = "billing=4,cpu=2,gres/gpu=2,mem=2000M,node=1";
        r.lines = {{{"JobID", id},
                    {"Submit", submit},
                    {"Start", start},
                    {"Elapsed", elapsed},
                    {"AllocTRES", r.allocTres},
                    {"State", "COMPLETED"}}};
        return r;
    };
    const QList<SacctRecord> all = {segment("1", "2026-11-27T10:00:00", "2026-11-27T10:00:10", "00:01:00"),
                                    segment("2", "2026-11-27T10:00:01", "2026-11-27T10:01:15", "00:01:00"),
                                    segment("3", "2026-11-27T10:00:02", "2026-11-27T10:02:20", "00:00:40")};
    QCOMPARE(SegmentAccounting::elapsedSeconds(all), 160);
    const SacctRecord run = SegmentAccounting::combine(all);
    QCOMPARE(run.jobId, QStringLiteral("3"));
    QCOMPARE(run.elapsed, QStringLiteral("00:02:40"));
    const AccountingMetrics m = AccountingMetrics::fromRecords(run.lines).metrics;
    QCOMPARE(m.elapsedSeconds.value_or(-1), 160);
    QCOMPARE(m.queueWaitSeconds.value_or(-1), 10);   // the first segment's wait
    QCOMPARE(m.gpuHours.value_or(-1), 2 * 160 / 3600.0);
    QCOMPARE(m.billingHours.value_or(-1), 4 * 160 / 3600.0);
    QCOMPARE(SegmentAccounting::combine({all.first()}).elapsed, QStringLiteral("00:01:00"));
}

void TestSegments::pollFollowsChainAndCancelCancelsIt()
{
    RunRecord r = scalelab::testing::newRun();
    r.specJson = jobSpecToJson(segmentedSpec());
    const qint64 id = m_store->createRun(r).value().id;
    const SubmitOutcome sent = m_client->submit(id);
    QCOMPARE(sent.kind, SubmitOutcome::Kind::Submitted);
    QCOMPARE(m_slurm->jobs.size(), 3);
    QCOMPARE(m_store->segments(id).value().size(), 3);
    // The first segment ends on its limit: the run follows the second.
    m_slurm->jobs[0].state = JobState::Completed;
    m_slurm->jobs[0].elapsed = "00:01:00";
    PollResult p = m_client->pollOnce();
    QCOMPARE(p.updates.size(), 1);
    QVERIFY(!p.updates.first().final);
    QCOMPARE(m_store->run(id).value().jobId, m_slurm->jobs[1].id);
    QVERIFY(!m_store->run(id).value().isTerminal());
    // Cancel: the job followed now and the one after it.
    m_exec->calls.clear();
    QVERIFY(m_client->cancel(id).ok());
    QCOMPARE(m_exec->calls.last().argv, QStringList({"scancel", m_slurm->jobs[1].id, m_slurm->jobs[2].id}));
    // The second and third end: the run ends with the elapsed time of all three.
    m_slurm->jobs[1].state = JobState::Completed;
    m_slurm->jobs[1].elapsed = "00:01:00";
    m_slurm->jobs[2].state = JobState::Completed;
    m_slurm->jobs[2].elapsed = "00:00:05";
    QVERIFY(!m_client->pollOnce().updates.first().final);
    p = m_client->pollOnce();
    QVERIFY(p.updates.first().final);
    QCOMPARE(m_store->run(id).value().state, JobState::Completed);
    QCOMPARE(m_store->accounting(id).value()->elapsed, QStringLiteral("00:02:05"));
}

void TestSegments::segmentLogsJoinInOrder()
{
    QTemporaryDir tmp;
    QList<FileRecord> files;
    for (const auto &[job, text] : QList<QPair<QString, QByteArray>>{
             {"8", "epoch 3 loss 0.3\n"}, {"7", "epoch 1 loss 0.9\nepoch 2 loss 0.5"}, {"9", "epoch 4 loss 0.2\n"}}) {
        FileRecord f;
        f.remotePath = "/r/scalelab-" + job + ".out";
        f.localPath = tmp.filePath("scalelab-" + job + ".out");
        QFile out(f.localPath);
        out.open(QIODevice::WriteOnly);
        out.write(text);
        files << f;
    }
    const auto joined = SegmentLog::join(files, {"7", "8", "9"}, tmp.filePath("joined.out"));
    QVERIFY(joined.ok());
    QFile in(*joined);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QCOMPARE(in.readAll(), QByteArray("epoch 1 loss 0.9\nepoch 2 loss 0.5\nepoch 3 loss 0.3\nepoch 4 loss 0.2\n"));
    QVERIFY(!SegmentLog::join(files, {"1"}, tmp.filePath("none.out")).ok());
}

// A study sent one run at a time: the run after a run of segments waits for its last segment.
void TestSegments::chainedStudyWaitsForLastSegment()
{
    RunRecord r = scalelab::testing::newRun();
    r.specJson = jobSpecToJson(segmentedSpec());
    const qint64 first = m_store->createRun(r).value().id;
    const qint64 second = createRun();
    RunLifecycle lifecycle(*m_client, *m_store);
    const QList<SentRun> sent = lifecycle.sendBatch({first, second}, true);
    QCOMPARE(sent.size(), 2);
    QCOMPARE(m_slurm->jobs.size(), 4);
    QString body;
    for (const auto &c : m_exec->calls)
        if (c.argv.value(0) == QLatin1String("sh") && c.argv.value(2).contains(QLatin1String("sbatch --parsable")))
            body = c.argv.value(2);
    QVERIFY2(body.contains(QStringLiteral("--dependency=afterany:%1 ").arg(m_slurm->jobs[2].id)), qPrintable(body));
}

// "until-done" creates the first job only, with the token for the segments to
// pass on; SCALELAB_SEGMENTS stays the cap.
void TestSegments::untilDoneSubmitsOneJob()
{
    const QString body =
        SlurmClient::submitShellBody(QStringLiteral("/scratch/r/runs/sl-00112233445566aa"),
                                     QStringLiteral("sl-00112233445566aa"), {}, SegmentSpec::kUntilDoneSegments, 1);
    QVERIFY2(body.contains(QStringLiteral("--export=ALL,SCALELAB_SEGMENT=1,SCALELAB_SEGMENTS=20,SCALELAB_TOKEN="
                                          "sl-00112233445566aa job.sbatch")),
             qPrintable(body));
    QVERIFY(!body.contains(QStringLiteral("for k in")));
    JobSpec s = segmentedSpec();
    s.segments.count = 0;
    s.segments.untilDone = true;
    RunRecord r = scalelab::testing::newRun();
    r.specJson = jobSpecToJson(s);
    const qint64 id = m_store->createRun(r).value().id;
    const SubmitOutcome sent = m_client->submit(id);
    QCOMPARE(sent.kind, SubmitOutcome::Kind::Submitted);
    QVERIFY2(sent.message.isEmpty(), qPrintable(sent.message));   // not "only 1 of 20 segments"
    QCOMPARE(m_slurm->jobs.size(), 1);
    QCOMPARE(m_store->segments(id).value().size(), 1);
}

// In a real bash: an "until-done" segment that does the work before its
// limit queues nothing; one that reaches its limit queues the next one (after
// itself, with the run's token) once; requeued, it queues none; when sbatch
// refuses, it is the last segment and the run ends unfinished.
void TestSegments::untilDoneSegmentQueuesTheNextOnce()
{
    JobSpec s = segmentedSpec();
    s.segments.count = 0;
    s.segments.untilDone = true;
    QTemporaryDir quick;
    QFile(quick.filePath(QStringLiteral("finish-now"))).open(QIODevice::WriteOnly);
    QCOMPARE(runScript(quick.path(), QStringLiteral("76"), 1, 20, false, s).exitCode, 0);
    QVERIFY(QFile::exists(quick.filePath(SegmentScript::doneFileName())));
    QVERIFY(!QFile::exists(quick.filePath(QStringLiteral("sbatch-args"))));
    QTemporaryDir run;
    const ScriptRun first = runScript(run.path(), QStringLiteral("77"), 1, 20, true, s);
    QCOMPARE(first.exitCode, 0);
    QVERIFY2(first.out.contains(QLatin1String("segment 2 queued after this one: job 300;testbed")),
             qPrintable(first.out));
    QFile next(run.filePath(SegmentScript::nextJobFileName(QStringLiteral("2"))));
    QVERIFY(next.open(QIODevice::ReadOnly));
    QCOMPARE(next.readAll(), QByteArray("300;testbed\n"));
    QFile args(run.filePath(QStringLiteral("sbatch-args")));
    QVERIFY(args.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(args.readAll()).trimmed(),
             QStringLiteral("--parsable --comment=sl-00112233445566aa --chdir=%1 --dependency=afterany:77 "
                            "--export=ALL,SCALELAB_SEGMENT=2 job.sbatch")
                 .arg(QDir(run.path()).canonicalPath()));
    args.close();
    // Requeued (the same segment again): the next one exists already.
    const ScriptRun again = runScript(run.path(), QStringLiteral("77"), 1, 20, true, s);
    QCOMPARE(again.exitCode, 0);
    QVERIFY(args.open(QIODevice::ReadOnly));
    QCOMPARE(args.readAll().count('\n'), 1);
    args.close();
    // sbatch refuses segment 3: segment 2 is the last, its limit leaves the work unfinished.
    QFile(run.filePath(QStringLiteral("refuse-sbatch"))).open(QIODevice::WriteOnly);
    const ScriptRun second = runScript(run.path(), QStringLiteral("300"), 2, 20, true, s);
    QVERIFY2(second.out.contains(QLatin1String("segment 3 could not be queued; this segment is the last")),
             qPrintable(second.out));
    QVERIFY2(second.out.contains(QLatin1String("the work is not done after 2 segment(s)")), qPrintable(second.out));
    QCOMPARE(second.exitCode, 1);
    QVERIFY(!QFile::exists(run.filePath(SegmentScript::nextJobFileName(QStringLiteral("3")))));
}

// The poll learns the segment the chain queued when the one before ends and
// follows it; the last ends the run with both segments' time; cancel writes
// the stop file first, for a segment queued but not known yet.
void TestSegments::untilDonePollFollowsQueuedSegments()
{
    JobSpec s = segmentedSpec();
    s.segments.count = 0;
    s.segments.untilDone = true;
    RunRecord r = scalelab::testing::newRun();
    r.specJson = jobSpecToJson(s);
    const qint64 id = m_store->createRun(r).value().id;
    QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Submitted);
    const QString dir = m_store->run(id).value().remoteDir;
    // Segment 1 queued segment 2 when it started, then ended on its limit.
    m_slurm->jobs << test::FakeSlurm::Job{QStringLiteral("555"), r.token, dir, JobState::Pending};
    m_exec->files.insert(dir + QStringLiteral("/scalelab-segment-2.jobid"), "555;testbed\n");
    m_slurm->jobs[0].state = JobState::Completed;
    m_slurm->jobs[0].elapsed = "00:01:00";
    PollResult p = m_client->pollOnce();
    QCOMPARE(p.updates.size(), 1);
    QVERIFY(!p.updates.first().final);
    QCOMPARE(m_store->run(id).value().jobId, QStringLiteral("555"));
    QCOMPARE(m_store->segments(id).value().size(), 2);
    m_exec->calls.clear();
    QVERIFY(m_client->cancel(id).ok());
    QVERIFY(m_exec->files.contains(dir + QStringLiteral("/scalelab-chain-stop")));
    // Segment 2 did the work and queued none: the run ends with both segments' time.
    m_slurm->jobs[1].state = JobState::Completed;
    m_slurm->jobs[1].elapsed = "00:00:30";
    p = m_client->pollOnce();
    QVERIFY(p.updates.first().final);
    QCOMPARE(m_store->run(id).value().state, JobState::Completed);
    QCOMPARE(m_store->accounting(id).value()->elapsed, QStringLiteral("00:01:30"));
    QCOMPARE(m_store->segments(id).value().size(), 2);
}

QTEST_GUILESS_MAIN(TestSegments)
#include "tst_segments.moc"
