// SPDX-License-Identifier: GPL-3.0-or-later
// Outages of the real loopback cluster while jobs are watched:
//  - sshd restarted under a live session → the next SlurmClient call reports a
//    transport error, SshSession::reconnect works, polling continues;
//  - slurmctld stopped → pollOnce says controllerDown with Slurm's text, the
//    PollScheduler backs off 30→60→120, stored states stay as they were (not
//    failed), `scalelab status --json` exits 1 with controllerDown; slurmctld
//    back → poll ok, scheduler back to 30 s, the job reaches COMPLETED.
// Outages are kept short and always undone (scope guard), even on failure.
// Needs `tests/cluster/testcluster up`; run the binary directly, not via ctest.
#include "ClusterClient.h"
#include "CliRunner.h"
#include "core/client/PollScheduler.h"
#include "ProfileFixtures.h"
#include "core/client/RunDraft.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClient.h"
#include "core/ssh/SshSession.h"
#include "TestClusterEnv.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace scalelab;

namespace {

QString testcluster(const QString &cmd, const QStringList &more = {})
{
    QProcess p;
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(test::TestClusterEnv::scriptPath(), QStringList{cmd} + more);
    if (!p.waitForFinished(90000)) {
        p.kill();
        p.waitForFinished(2000);
        return QStringLiteral("testcluster %1 did not finish").arg(cmd);
    }
    if (p.exitCode() != 0)
        return QStringLiteral("testcluster %1 failed: %2").arg(cmd, QString::fromLocal8Bit(p.readAllStandardError()));
    return {};
}

// Restarts slurmctld when the test leaves its scope, whatever happened.
struct CtldGuard {
    bool stopped = false;
    ~CtldGuard()
    {
        if (stopped) {
            const QString e = testcluster(QStringLiteral("start-ctld"));
            if (!e.isEmpty())
                qWarning("could not restart slurmctld: %s", qPrintable(e));
        }
    }
};

}   // namespace

class TestFaultsCtld : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;
    test::TestClusterEnv &m_env = m_cluster.env;
    std::unique_ptr<SshSession> &m_ssh = m_cluster.ssh;
    std::unique_ptr<RunStore> &m_store = m_cluster.store;
    std::unique_ptr<SlurmClient> &m_client = m_cluster.client;

    qint64 submitSleeper(const QString &name, int seconds)
    {
        JobSpec s = test::testbedSpec(name, 1, QStringLiteral("/bin/sleep"), {QString::number(seconds)});
        s.memory = QStringLiteral("500M");
        const auto created = m_store->createRun(draftRun(s, test::repoProfile("testbed"), "testbed"));
        if (!created.ok())
            return 0;
        const SubmitOutcome o = m_client->submit(created.value().id);
        if (o.kind != SubmitOutcome::Kind::Submitted) {
            qWarning("submit: %s", qPrintable(o.message));
            return 0;
        }
        return created.value().id;
    }

    JobState pollUntil(qint64 id, const QList<JobState> &wanted, int seconds)
    {
        m_cluster.pollUntil([&] { return wanted.contains(m_store->run(id).value().state); }, seconds);
        return m_store->run(id).value().state;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
    }

    void sshdRestartedThenReconnect()
    {
        const qint64 id = submitSleeper(QStringLiteral("faults-sshd-%1").arg(QCoreApplication::applicationPid()), 15);
        QVERIFY(id > 0);
        QVERIFY(m_client->pollOnce().ok());

        QCOMPARE(testcluster(QStringLiteral("restart-sshd"), {QStringLiteral("main")}), QString());
        const PollResult dropped = m_client->pollOnce();
        QVERIFY2(!dropped.transportError.isEmpty(), qPrintable("poll after the sshd restart: " + dropped.message));
        QVERIFY(!dropped.ok());
        QVERIFY(!m_ssh->isConnected());
        QCOMPARE(m_store->run(id).value().submitState, SubmitState::Submitted);
        QVERIFY(!m_store->run(id).value().isTerminal());

        QCOMPARE(m_ssh->reconnect(0).errorText(), QString());
        QVERIFY(m_ssh->isConnected());
        const PollResult again = m_client->pollOnce();
        QVERIFY2(again.ok(), qPrintable(again.message + again.transportError));
        QCOMPARE(again.activeRuns, 1);
        QCOMPARE(pollUntil(id, {JobState::Completed, JobState::Failed}, 90), JobState::Completed);
    }

    void controllerDownShownBackedOffRecovered()
    {
        const qint64 id = submitSleeper(QStringLiteral("faults-ctld-%1").arg(QCoreApplication::applicationPid()), 60);
        QVERIFY(id > 0);
        // Running, normally; a queue busy with other tests' jobs may keep it pending a while.
        const JobState started = pollUntil(id, {JobState::Running}, 60);
        QVERIFY2(started == JobState::Running || started == JobState::Pending, qPrintable(SlurmJobState::id(started)));
        const RunRecord before = m_store->run(id).value();
        const int historyBefore = int(m_store->stateHistory(id).value().size());

        PollScheduler scheduler;
        QCOMPARE(scheduler.nextDelaySeconds(), 30);
        {
            CtldGuard guard;
            QCOMPARE(testcluster(QStringLiteral("stop-ctld")), QString());
            guard.stopped = true;

            QList<int> delays;
            for (int i = 0; i < 2; ++i) {
                QElapsedTimer t;
                t.start();
                const PollResult p = m_client->pollOnce();
                qInfo("poll %d during the outage took %lld ms: %s", i + 1, t.elapsed(), qPrintable(p.message));
                QVERIFY2(p.controllerDown, qPrintable(p.message + p.transportError));
                QVERIFY(!p.ok());
                QVERIFY(p.transportError.isEmpty());
                QVERIFY2(p.message.contains(QLatin1String("Unable to contact slurm controller")),
                         qPrintable(p.message));
                QVERIFY(p.updates.isEmpty());
                QCOMPARE(p.sacctCalls, 0);   // nothing is concluded from accounting while squeue cannot answer
                scheduler.recordFailure();
                delays << scheduler.nextDelaySeconds();
                // The run keeps its state: a controller outage is not a failed job.
                const RunRecord now = m_store->run(id).value();
                QCOMPARE(now.state, before.state);
                QCOMPARE(now.jobId, before.jobId);
                QCOMPARE(int(m_store->stateHistory(id).value().size()), historyBefore);
            }
            QCOMPARE(delays, (QList<int>{60, 120}));
            QCOMPARE(scheduler.consecutiveFailures(), 2);

            // The CLI on the same store during the outage.
            QProcessEnvironment env;
            env.insert(QStringLiteral("SCALELAB_DATA_DIR"), m_data.path());
            env.insert(QStringLiteral("SCALELAB_SSH_CONFIG"), m_env.sshConfig);
            const auto cli = test::runCli({QStringLiteral("status"), QStringLiteral("--json")}, env, 120000);
            QCOMPARE(cli.exitCode, 1);
            QVERIFY2(cli.err.contains(QLatin1String("unreachable")), qPrintable(cli.err));
            const QJsonObject doc = QJsonDocument::fromJson(cli.out.toUtf8()).object();
            const QJsonArray clusters = doc.value(QStringLiteral("clusters")).toArray();
            QCOMPARE(clusters.size(), 1);
            QCOMPARE(clusters[0].toObject().value(QStringLiteral("cluster")).toString(), QStringLiteral("testbed"));
            QVERIFY2(clusters[0].toObject().value(QStringLiteral("controllerDown")).toBool(), qPrintable(cli.out));
            bool listed = false;
            for (const auto &v : doc.value(QStringLiteral("runs")).toArray())
                if (v.toObject().value(QStringLiteral("id")).toInteger() == id) {
                    listed = true;
                    QCOMPARE(v.toObject().value(QStringLiteral("state")).toString(), SlurmJobState::id(before.state));
                }
            QVERIFY(listed);
            QCOMPARE(m_store->run(id).value().state, before.state);

            QCOMPARE(testcluster(QStringLiteral("start-ctld")), QString());
            guard.stopped = false;
        }

        const PollResult back = m_client->pollOnce();
        QVERIFY2(back.ok(), qPrintable(back.message + back.transportError));
        QCOMPARE(back.activeRuns, 1);
        scheduler.recordSuccess();
        QCOMPARE(scheduler.nextDelaySeconds(), 30);
        QCOMPARE(scheduler.consecutiveFailures(), 0);
        QCOMPARE(pollUntil(id, {JobState::Completed, JobState::Failed, JobState::Cancelled}, 240), JobState::Completed);
        const RunRecord done = m_store->run(id).value();
        QCOMPARE(done.jobId, before.jobId);
        QVERIFY(m_store->accounting(id).value().has_value());
    }
};

QTEST_GUILESS_MAIN(TestFaultsCtld)
#include "tst_faults_ctld.moc"
