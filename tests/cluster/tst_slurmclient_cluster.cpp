// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient over a real SshSession against the loopback Slurm cluster:
// rendered 1/2/4/8-GPU jobs complete with the right AllocTRES, a failing job,
// a timed-out job, a rejection with Slurm's text, --test-only, cancel, fetch,
// and reconcile of a submission whose reply was lost. Fails without the cluster.
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/store/RunStore.h"
#include "core/compose/SbatchRenderer.h"
#include "core/client/SlurmClient.h"
#include "core/ingest/MetricFileScanner.h"
#include "core/model/JobSpecJson.h"
#include "core/model/MetricNames.h"
#include "core/ssh/SshSession.h"
#include "TestClusterEnv.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace scalelab;

namespace {

JobSpec spec(int gpus, const QString &program, const QStringList &args, const QString &partition = "gpu",
             const QString &time = "00:05:00")
{
    JobSpec s = test::testbedSpec(QStringLiteral("a researcher's run; echo $(id)"), gpus, program, args);
    s.partition = partition;
    s.time = time;
    return s;
}

}   // namespace

class TestSlurmClientCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;
    test::TestClusterEnv &m_env = m_cluster.env;
    std::unique_ptr<SshSession> &m_ssh = m_cluster.ssh;
    std::unique_ptr<RunStore> &m_store = m_cluster.store;
    std::unique_ptr<SlurmClient> &m_client = m_cluster.client;

    qint64 createRun(const JobSpec &s)
    {
        RunRecord r;
        r.profile = s.profile;
        r.clusterAlias = "testbed";
        r.partition = s.partition;
        r.gpus = s.gpus;
        r.framework = frameworkId(s.framework);
        r.script = renderSbatch(s, test::repoProfile("testbed"));
        r.specJson = jobSpecToJson(s);
        auto c = m_store->createRun(r);
        if (!c.ok())
            qFatal("%s", qPrintable(c.errorText()));
        return c.value().id;
    }

    // Polls every 2 s until every run is final (or the deadline passes).
    bool pollUntilFinal(const QList<qint64> &runs, int seconds)
    {
        return m_cluster.pollUntil(
            [&] {
                return std::all_of(runs.begin(), runs.end(),
                                   [&](qint64 id) { return m_store->run(id).value().isTerminal(); });
            },
            seconds);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
    }

    void version()
    {
        const Result<QString> version = m_client->detectVersion();
        QVERIFY2(version, qPrintable(version.errorText()));
        QCOMPARE(*version, m_env.expectedSlurmVersion());
    }

    void testOnlyGivesSlurmVerdict()
    {
        const TestOnlyResult ok =
            m_client->testOnly(renderSbatch(spec(2, "/bin/true", {}), test::repoProfile("testbed")));
        QVERIFY2(ok.ok(), qPrintable(ok.verdict + ok.transportError));
        QVERIFY2(ok.verdict.contains("to start at"), qPrintable(ok.verdict));
        const TestOnlyResult bad =
            m_client->testOnly(renderSbatch(spec(3, "/bin/true", {}, "gpusmall"), test::repoProfile("testbed")));
        QVERIFY(!bad.ok());
        QVERIFY2(bad.verdict.contains("sbatch: error:"), qPrintable(bad.verdict));
    }

    void rejectedShowsSlurmMessage()
    {
        const qint64 id = createRun(spec(3, "/bin/true", {}, "gpusmall"));
        const SubmitOutcome o = m_client->submit(id);
        QCOMPARE(o.kind, SubmitOutcome::Kind::Rejected);
        QVERIFY2(o.message.contains("sbatch: error: Batch job submission failed: Job violates accounting/QOS policy"),
                 qPrintable(o.message));
        QCOMPARE(m_store->run(id).value().rejection, o.message);
        QCOMPARE(m_store->run(id).value().submitState, SubmitState::Rejected);
    }

    void jobsRunToTheirEnd()
    {
        QMap<qint64, int> gpuRuns;
        for (int gpus : {1, 2, 4, 8})
            gpuRuns.insert(createRun(spec(gpus, "/bin/sh", {"-c", "echo rank $SLURM_PROCID on $SLURMD_NODENAME"})),
                           gpus);
        const qint64 failing = createRun(spec(1, "/bin/sh", {"-c", "exit 3"}));
        const qint64 timeout = createRun(spec(1, "/bin/sleep", {"300"}, "gputest", "00:01:00"));
        const qint64 cancelled = createRun(spec(1, "/bin/sleep", {"300"}));
        QList<qint64> all = gpuRuns.keys();
        all << failing << timeout << cancelled;
        for (qint64 id : all) {
            const SubmitOutcome o = m_client->submit(id);
            QVERIFY2(o.kind == SubmitOutcome::Kind::Submitted, qPrintable(o.message));
        }
        const Result<QString> c = m_client->cancel(cancelled);
        QVERIFY2(c.ok(), qPrintable(c.errorText()));
        QVERIFY2(pollUntilFinal(all, 240), "jobs did not finish within 240 s");

        for (auto it = gpuRuns.begin(); it != gpuRuns.end(); ++it) {
            const RunRecord r = m_store->run(it.key()).value();
            QCOMPARE(r.state, JobState::Completed);
            const auto acct = m_store->accounting(it.key()).value();
            QVERIFY(acct.has_value());
            QCOMPARE(acct->allocatedGpus(), it.value());
            QVERIFY2(acct->workDir.endsWith(r.token),
                     qPrintable(acct->workDir + " / " + r.token + " / " + acct->rawLines.join("\n")));
        }
        QCOMPARE(m_store->run(failing).value().state, JobState::Failed);
        QCOMPARE(m_store->accounting(failing).value()->exitStatus(), 3);
        QCOMPARE(m_store->run(timeout).value().state, JobState::Timeout);
        QCOMPARE(m_store->run(cancelled).value().state, JobState::Cancelled);
        // state history recorded with timestamps; terminal runs are not polled any more
        QVERIFY(m_store->stateHistory(failing).value().size() >= 2);
        QVERIFY(m_store->activeRuns("testbed").value().isEmpty());

        // fetch the output of the 2-GPU job
        const qint64 two = gpuRuns.key(2);
        const FetchResult f = m_client->fetch(two);
        QVERIFY2(f.ok(), qPrintable(f.errors.join("; ")));
        const RunRecord r = m_store->run(two).value();
        const QString out = m_store->runFilesDirectory(two) + "/" + SlurmClient::outputFileName(r.jobId);
        QFile file(out);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(out));
        QVERIFY(file.readAll().contains("rank"));
        const TailResult t = m_client->tailOutput(two);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    }

    // A job that writes its metric file outside its run folder, where its
    // --output_dir says ($HOME as the job's shell expands it): fetch finds it
    // there, brings it back, and the reader takes its values.
    void metricFilesComeBackFromWhereTheJobWroteThem()
    {
        const QString folder = QStringLiteral("scalelab-test-metrics-%1").arg(QCoreApplication::applicationPid());
        const QString write = QStringLiteral("mkdir -p \"$HOME/$1\" && printf '%s' '{\"log_history\": [{\"loss\": "
                                             "0.5, \"step\": 10}]}' > \"$HOME/$1/trainer_state.json\"");
        JobSpec s = spec(1, "/bin/sh", {"-c", write, "sh", folder});
        s.metricDirs = {QStringLiteral("$HOME/") + folder};
        const qint64 id = createRun(s);
        const SubmitOutcome o = m_client->submit(id);
        QVERIFY2(o.kind == SubmitOutcome::Kind::Submitted, qPrintable(o.message));
        QVERIFY2(pollUntilFinal({id}, 240), "the job did not finish within 240 s");
        QCOMPARE(m_store->run(id).value().state, JobState::Completed);
        const FetchResult f = m_client->fetch(id);
        QVERIFY2(f.ok(), qPrintable(f.errors.join("; ")));
        (void)m_ssh->run(
            {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("rm -rf \"$HOME/%1\"").arg(folder)});
        const QString local = m_store->runFilesDirectory(id) + "/metricfiles/location-1/trainer_state.json";
        QVERIFY2(QFileInfo::exists(local), qPrintable(local));
        QVERIFY(std::any_of(f.files.begin(), f.files.end(), [&](const FileRecord &r) {
            return r.remotePath.endsWith(folder + "/trainer_state.json") && r.remotePath.startsWith(u'/');
        }));
        const MetricFileResult read = MetricFileScanner::readFiles({local});
        const FileMetric *loss = read.find(metric::TrainLoss);
        QVERIFY2(loss, qPrintable(read.diagnostics.value(0).message));
    }

    void reconcileAfterLostReply()
    {
        // Do what submit() does up to sbatch, run the real wrapper, and pretend
        // the reply never arrived: reconcile must find the job, not submit again.
        const qint64 id = createRun(spec(1, "/bin/true", {}));
        const RunRecord run = m_store->run(id).value();
        const QString dir = m_ssh->homeDirectory() + "/" + SlurmClient::runsRoot() + "/" + run.token;
        QCOMPARE(m_store->setRemoteDir(id, dir).errorText(), QString());
        QCOMPARE(m_ssh->mkdirs(dir).errorText(), QString());
        QCOMPARE(m_ssh->upload(dir + "/job.sbatch", run.script.toUtf8()).errorText(), QString());
        QCOMPARE(m_store->setSubmitState(id, SubmitState::Unknown, "lost").errorText(), QString());
        const RemoteResult r = m_ssh->run({"sh", "-c", SlurmClient::submitShellBody(dir, run.token)});
        QVERIFY2(r.ok(), r.err.constData());
        const QString jobId = QString::fromUtf8(r.out).trimmed();
        QCOMPARE(m_client->submit(id).kind, SubmitOutcome::Kind::Refused);
        const ReconcileOutcome rec = m_client->reconcile(id);
        QCOMPARE(rec.kind, ReconcileOutcome::Kind::Found);
        QCOMPARE(rec.jobId, jobId);

        // Same, but the jobid file is gone: found through squeue/sacct by the run dir.
        const qint64 id2 = createRun(spec(1, "/bin/true", {}));
        const RunRecord run2 = m_store->run(id2).value();
        const QString dir2 = m_ssh->homeDirectory() + "/" + SlurmClient::runsRoot() + "/" + run2.token;
        QCOMPARE(m_store->setRemoteDir(id2, dir2).errorText(), QString());
        QCOMPARE(m_ssh->mkdirs(dir2).errorText(), QString());
        QCOMPARE(m_ssh->upload(dir2 + "/job.sbatch", run2.script.toUtf8()).errorText(), QString());
        QCOMPARE(m_store->setSubmitState(id2, SubmitState::Unknown, "lost").errorText(), QString());
        const RemoteResult r2 = m_ssh->run({"sh", "-c", SlurmClient::submitShellBody(dir2, run2.token)});
        QVERIFY(r2.ok());
        QVERIFY(m_ssh->run({"sh", "-c", "cd " + dir2 + " && mv jobid jobid.tmp && : > jobid.tmp"}).ok());
        const ReconcileOutcome rec2 = m_client->reconcile(id2);
        QCOMPARE(rec2.kind, ReconcileOutcome::Kind::Found);
        QCOMPARE(rec2.jobId, QString::fromUtf8(r2.out).trimmed());
        QVERIFY(pollUntilFinal({id, id2}, 60));
    }
};

QTEST_GUILESS_MAIN(TestSlurmClientCluster)
#include "tst_slurmclient_cluster.moc"
