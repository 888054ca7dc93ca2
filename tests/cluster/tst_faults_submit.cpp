// SPDX-License-Identifier: GPL-3.0-or-later
// A TCP proxy cutting the SSH connection at each phase of a submit → exactly
// one job on the cluster and a reconciled store. Real SshSession, real sshd
// and real sbatch; the proxy (tests/support/TcpCutProxy.h) drops the
// transport, a decorator around the session arms it at the right call.
// Recovery is what the CLI does (app/cli/SlurmCommandSupport.cpp reconcileCluster):
// reconcile every unresolved run, submit those that certainly never ran.
// Needs the loopback cluster (tests/cluster/testcluster up); fails without it.
#include "NoQuestions.h"
#include "ProfileFixtures.h"
#include "core/client/RunDraft.h"
#include "core/client/RunLifecycle.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClient.h"
#include "core/ssh/SshSession.h"
#include "TcpCutProxy.h"
#include "TestClusterEnv.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace scalelab;
using scalelab::test::TcpCutProxy;

using scalelab::test::NoQuestions;

namespace {

enum class Fault {
    ConnectKex,   // cut during the key exchange
    ConnectAuth,   // cut during authentication
    DuringUpload,   // cut while job.sbatch is being written over SFTP
    BeforeSbatch,   // cut just before the sbatch command is sent
    AfterSbatchSent,   // the exec request reaches sshd, then the cut
    SbatchReplyHeld,   // sbatch runs; its reply is swallowed by the proxy, then the cut
    SbatchReplyDropped,   // sbatch returned over the wire; cut before SlurmClient reads it
};

bool isSubmitCommand(const QStringList &argv)
{
    return argv.size() == 3 && argv[0] == QLatin1String("sh") && argv[2].contains(QLatin1String("sbatch --parsable"));
}

// Arms the proxy around specific calls of the wrapped session.
class FaultExecutor : public RemoteExecutor {
public:
    FaultExecutor(RemoteExecutor &inner, TcpCutProxy &proxy, Fault fault)
        : m_inner(inner)
        , m_proxy(proxy)
        , m_fault(fault)
    {}
    bool fired = false;
    std::optional<SubmitStep> cutAtStep;   // cut the connection when submit reports this step

    void reached(SubmitStep step) override
    {
        if (!fired && cutAtStep == step) {
            fired = true;
            m_proxy.cutAll();
        }
    }

    RemoteResult run(const QStringList &argv, int timeoutMs) override
    {
        if (fired || !isSubmitCommand(argv))
            return m_inner.run(argv, timeoutMs);
        fired = true;
        switch (m_fault) {
        case Fault::BeforeSbatch:
            m_proxy.cutAll();
            break;
        case Fault::AfterSbatchSent:
            // The channel-open packet is < 150 bytes; the exec request carrying
            // the ~400-character command is well above: it is forwarded, then cut.
            m_proxy.cutAfterClientBytes(150);
            break;
        case Fault::SbatchReplyHeld:
            m_proxy.holdRepliesAfterClientBytes(150, 5000);
            break;
        case Fault::SbatchReplyDropped: {
            const RemoteResult real = m_inner.run(argv, timeoutMs);
            m_proxy.cutAll();
            RemoteResult lost;
            lost.transportError = QStringLiteral("connection cut by the test proxy (sbatch had exited %1: %2)")
                                      .arg(real.exitCode)
                                      .arg(QString::fromUtf8(real.out + real.err).trimmed());
            return lost;
        }
        default:
            break;
        }
        return m_inner.run(argv, timeoutMs);
    }
    RemoteResult runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs) override
    {
        return m_inner.runWithInput(argv, input, timeoutMs);
    }
    Result<void> mkdirs(const QString &dir) override { return m_inner.mkdirs(dir); }
    Result<void> upload(const QString &path, const QByteArray &data, int mode) override
    {
        if (!fired && m_fault == Fault::DuringUpload) {
            fired = true;
            m_proxy.cutAfterClientBytes(200);   // the SFTP open goes through, the write does not
        }
        return m_inner.upload(path, data, mode);
    }
    RemoteFileChunk download(const QString &path, qint64 offset, qint64 maxBytes) override
    {
        return m_inner.download(path, offset, maxBytes);
    }
    QString homeDirectory() override { return m_inner.homeDirectory(); }

private:
    RemoteExecutor &m_inner;
    TcpCutProxy &m_proxy;
    Fault m_fault;
};

}   // namespace

Q_DECLARE_METATYPE(Fault)

class TestFaultsSubmit : public QObject {
    Q_OBJECT

    test::TestClusterEnv m_env;
    QTemporaryDir m_tmp;
    TcpCutProxy m_proxy;
    QString m_proxyConfig;
    NoQuestions m_callbacks;
    std::unique_ptr<SshSession> m_direct;   // straight to :2222, for checks
    qint64 m_connectBytes = 0;   // client bytes of one full connect + login

    SshConnectionSettings settings(const QString &alias, const QString &config) const
    {
        SshConnectionSettings s;
        s.alias = alias;
        s.configPath = config;
        s.connectTimeoutMs = 10000;
        return s;
    }

    JobSpec spec(const QString &name) const
    {
        JobSpec s = test::testbedSpec(name, 1, QStringLiteral("/bin/true"));
        s.partition = QStringLiteral("gputest");
        s.time = QStringLiteral("00:02:00");
        s.memory = QStringLiteral("500M");
        return s;
    }

    // Job ids carrying `name` in accounting (submitted jobs reach slurmdbd within a second or two).
    QStringList jobsNamed(const QString &name)
    {
        const RemoteResult r =
            m_direct->run({"sacct", "-X", "-n", "-P", "--starttime=now-2hours", "--name=" + name, "--format=JobID"});
        if (!r.ok())
            return {QStringLiteral("sacct failed: %1 %2").arg(r.transportError, QString::fromUtf8(r.err))};
        return QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
    }

    // What `scalelab submit`/`status` do first: reconcile each unresolved run;
    // submit the ones that certainly never reached Slurm. A run whose sbatch
    // was started < 5 min ago and left no job stays "unknown" that long: the
    // test checks that no job exists, then ages the marker instead of waiting.
    QString recover(SlurmClient &client, RunStore &store, const QString &alias, const QString &name, QStringList *log)
    {
        for (int round = 0; round < 8; ++round) {
            const auto unresolved = store.unresolvedRuns(alias);
            if (!unresolved.ok())
                return unresolved.errorText();
            if (unresolved.value().isEmpty())
                return {};
            for (const RunRecord &run : unresolved.value()) {
                const ReconcileOutcome r = client.reconcile(run.id);
                *log << QStringLiteral("reconcile: kind %1 job %2 (%3)").arg(int(r.kind)).arg(r.jobId, r.message);
                if (r.kind == ReconcileOutcome::Kind::NotSubmitted) {
                    const SubmitOutcome s = client.submit(run.id);
                    *log << QStringLiteral("submit: kind %1 job %2 (%3)").arg(int(s.kind)).arg(s.jobId, s.message);
                } else if (r.kind == ReconcileOutcome::Kind::StillUnknown) {
                    if (r.message.contains(QLatin1String("less than 5 minutes"))) {
                        const QStringList jobs = jobsNamed(name);
                        if (!jobs.isEmpty())
                            return QStringLiteral("reconcile says unknown, but sacct has %1").arg(jobs.join(','));
                        const QString old = QStringLiteral("@%1").arg(QDateTime::currentSecsSinceEpoch() - 600);
                        const RemoteResult t = m_direct->run({"touch", "-d", old, run.remoteDir + "/jobid.tmp"});
                        *log << QStringLiteral("aged jobid.tmp: exit %1").arg(t.exitCode);
                    } else {
                        QThread::msleep(2000);
                    }
                }
            }
        }
        return QStringLiteral("runs still unresolved after 8 rounds");
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(m_tmp.isValid());
        QCOMPARE(m_proxy.start(), QString());
        QString error;
        m_proxyConfig = m_proxy.writeSshConfig(m_env.clusterDir, m_tmp.path(), &error);
        QVERIFY2(!m_proxyConfig.isEmpty(), qPrintable(error));
        m_direct = std::make_unique<SshSession>(settings("testbed", m_env.sshConfig), &m_callbacks);
        QCOMPARE(m_direct->connectToHost().errorText(), QString());

        // The proxy itself: a clean session through it works and is counted.
        const int before = m_proxy.connectionCount();
        const qint64 bytesBefore = m_proxy.clientBytes();
        SshSession s(settings("testbed-proxy", m_proxyConfig), &m_callbacks);
        QCOMPARE(s.connectToHost().errorText(), QString());
        m_connectBytes = m_proxy.clientBytes() - bytesBefore;
        const RemoteResult r = s.run({"echo", "through the proxy"});
        QVERIFY2(r.ok(), qPrintable(r.transportError));
        QCOMPARE(r.out, QByteArray("through the proxy\n"));
        QCOMPARE(m_proxy.connectionCount(), before + 1);
        QVERIFY(m_connectBytes > 500);
        qInfo("one connect + login sends %lld bytes", m_connectBytes);

        // cutAll() really drops it: the next command reports a transport error.
        m_proxy.cutAll();
        const RemoteResult dead = s.run({"true"});
        QVERIFY(!dead.transportOk());
        QVERIFY(!s.isConnected());
        QVERIFY(m_proxy.cutCount() >= 1);
    }

    void cutAtEachPhase_data()
    {
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<int>("expected");   // SubmitOutcome::Kind of the interrupted submit
        QTest::newRow("connect-kex") << Fault::ConnectKex << int(SubmitOutcome::Kind::NotSent);
        QTest::newRow("connect-auth") << Fault::ConnectAuth << int(SubmitOutcome::Kind::NotSent);
        QTest::newRow("upload") << Fault::DuringUpload << int(SubmitOutcome::Kind::NotSent);
        QTest::newRow("before-sbatch") << Fault::BeforeSbatch << int(SubmitOutcome::Kind::Unknown);
        QTest::newRow("sbatch-sent") << Fault::AfterSbatchSent << int(SubmitOutcome::Kind::Unknown);
        QTest::newRow("sbatch-reply-held") << Fault::SbatchReplyHeld << int(SubmitOutcome::Kind::Unknown);
        QTest::newRow("sbatch-reply-dropped") << Fault::SbatchReplyDropped << int(SubmitOutcome::Kind::Unknown);
    }

    void cutAtEachPhase()
    {
        QFETCH(Fault, fault);
        QFETCH(int, expected);
        const QString alias = QStringLiteral("testbed-proxy");
        const QString name = QStringLiteral("faults-%1-%2-%3")
                                 .arg(QString::fromLatin1(QTest::currentDataTag()))
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(QDateTime::currentMSecsSinceEpoch() % 100000000);
        QTemporaryDir data;
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        const auto created = store.createRun(draftRun(spec(name), test::repoProfile("testbed"), alias));
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        const qint64 id = created.value().id;
        const int cutsBefore = m_proxy.cutCount();

        // 1. The interrupted submission.
        {
            SshSession s(settings(alias, m_proxyConfig), &m_callbacks);
            if (fault == Fault::ConnectKex || fault == Fault::ConnectAuth) {
                m_proxy.cutAfterClientBytes(fault == Fault::ConnectKex ? 100 : m_connectBytes - 120);
                const QString err = s.connectToHost().errorText();
                QVERIFY2(!err.isEmpty(), "the connection was cut, connectToHost must fail");
                qInfo("connect failed as expected: %s", qPrintable(err));
            } else {
                QCOMPARE(s.connectToHost().errorText(), QString());
            }
            FaultExecutor fx(s, m_proxy, fault);
            SlurmClient client(fx, store, alias);
            const SubmitOutcome o = client.submit(id);
            m_proxy.disarm();
            qInfo("interrupted submit: kind %d, job '%s', %s", int(o.kind), qPrintable(o.jobId), qPrintable(o.message));
            QVERIFY2(m_proxy.cutCount() > cutsBefore, "the fault did not fire: the proxy cut nothing");
            QCOMPARE(int(o.kind), expected);
            QVERIFY(o.jobId.isEmpty());
            const RunRecord after = store.run(id).value();
            QVERIFY(after.jobId.isEmpty());
            QCOMPARE(after.submitState == SubmitState::Unknown, expected == int(SubmitOutcome::Kind::Unknown));
        }

        // 2. A new session through the healthy proxy; reconcile as the CLI does.
        const int connectionsBefore = m_proxy.connectionCount();
        SshSession s2(settings(alias, m_proxyConfig), &m_callbacks);
        QCOMPARE(s2.connectToHost().errorText(), QString());
        SlurmClient client2(s2, store, alias);
        QStringList log;
        const QString err = recover(client2, store, alias, name, &log);
        QVERIFY2(err.isEmpty(), qPrintable(err + "\n" + log.join('\n')));
        QCOMPARE(m_proxy.connectionCount(), connectionsBefore + 1);   // one login for the whole recovery

        // 3. Exactly one job with this name; the store holds its id.
        const RunRecord run = store.run(id).value();
        QVERIFY2(!run.jobId.isEmpty(), qPrintable(log.join('\n')));
        QVERIFY2(run.submitState == SubmitState::Submitted || run.submitState == SubmitState::Reconciled,
                 qPrintable(submitStateId(run.submitState)));
        QStringList jobs;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 15000 && (jobs = jobsNamed(name)).isEmpty())
            QThread::msleep(500);
        QThread::msleep(1500);   // a late duplicate would show up by now
        jobs = jobsNamed(name);
        QVERIFY2(jobs == QStringList{run.jobId},
                 qPrintable(QStringLiteral("sacct jobs named %1: [%2], store: %3 (%4)\n%5")
                                .arg(name, jobs.join(','), run.jobId, submitStateId(run.submitState), log.join('\n'))));
        qInfo("%s: job %s, %s; recovery: %s", QTest::currentDataTag(), qPrintable(run.jobId),
              qPrintable(submitStateId(run.submitState)), qPrintable(log.join(QLatin1String("; "))));
        // sbatch certainly ran there: the job must be found, never submitted again.
        if (fault == Fault::SbatchReplyDropped)
            QCOMPARE(run.submitState, SubmitState::Reconciled);
    }

    void cutAtEachProjectStep_data()
    {
        QTest::addColumn<int>("step");
        QTest::newRow("objects-pack-sent") << int(SubmitStep::ObjectsPackSent);
        QTest::newRow("snapshot-sent") << int(SubmitStep::SnapshotSent);
        QTest::newRow("snapshot-laid-out") << int(SubmitStep::SnapshotLaidOut);
    }

    // The connection cut at each step of a project folder's upload: nothing
    // reaches Slurm; the recovery sends what is missing and exactly one job,
    // whose run folder holds the whole snapshot.
    void cutAtEachProjectStep()
    {
        QFETCH(int, step);
        const QString alias = QStringLiteral("testbed-proxy");
        const QString name = QStringLiteral("faults-project-%1-%2-%3")
                                 .arg(QString::fromLatin1(QTest::currentDataTag()))
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(QDateTime::currentMSecsSinceEpoch() % 100000000);
        QTemporaryDir data, project;
        for (int i = 0; i < 600; ++i) {   // two packs
            QFile f(project.path() + QStringLiteral("/f%1.txt").arg(i));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::number(i) + name.toUtf8());
        }
        JobSpec js = spec(name);
        js.project = ProjectSpec{project.path(), QStringLiteral("~/scalelab-faults-%1").arg(name)};
        const ClusterProfile &profile = test::repoProfile("testbed");
        SubmitRequest request{js, &profile, alias, {}, std::nullopt};
        request.snapshot = RunLifecycle::snapshotProject(js, profile).value();
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        const auto created = RunLifecycle::storeBatch(store, {request}, {});
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        const qint64 id = created->front().id;
        {
            SshSession s(settings(alias, m_proxyConfig), &m_callbacks);
            QCOMPARE(s.connectToHost().errorText(), QString());
            FaultExecutor fx(s, m_proxy, Fault::ConnectKex);
            fx.cutAtStep = SubmitStep(step);
            SlurmClient client(fx, store, alias);
            const SubmitOutcome o = client.submit(id);
            m_proxy.disarm();
            QVERIFY2(fx.fired, "the step was never reached");
            QCOMPARE(o.kind, SubmitOutcome::Kind::NotSent);
            QVERIFY(store.run(id)->jobId.isEmpty());
        }
        QVERIFY(jobsNamed(name).isEmpty());
        SshSession s2(settings(alias, m_proxyConfig), &m_callbacks);
        QCOMPARE(s2.connectToHost().errorText(), QString());
        SlurmClient client2(s2, store, alias);
        QStringList log;
        const QString err = recover(client2, store, alias, name, &log);
        QVERIFY2(err.isEmpty(), qPrintable(err + "\n" + log.join('\n')));
        const RunRecord run = store.run(id).value();
        QVERIFY2(!run.jobId.isEmpty(), qPrintable(log.join('\n')));
        QVERIFY(client2.lastSync().has_value());
        if (SubmitStep(step) == SubmitStep::ObjectsPackSent)   // the first pack was kept
            QCOMPARE(client2.lastSync()->progress.filesPresent, ProjectSync::kPackFiles);
        QCOMPARE(client2.lastSync()->progress.filesPresent + client2.lastSync()->progress.filesSent, qsizetype(600));
        const RemoteResult check = m_direct->run(
            {"sh", "-c", "cd " + run.remoteDir + " && sha256sum -c --quiet .scalelab-snapshot.sha256 && ls | wc -l"});
        QVERIFY2(check.ok(), qPrintable(QString::fromUtf8(check.out + check.err) + check.transportError));
        QStringList jobs;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 15000 && (jobs = jobsNamed(name)).isEmpty())
            QThread::msleep(500);
        QThread::msleep(1500);
        QCOMPARE(jobsNamed(name), QStringList{run.jobId});
        const QString root = run.remoteDir.section(QStringLiteral("/runs/"), 0, 0);
        m_direct->run({"chmod", "-R", "u+w", "--", root});
        m_direct->run({"rm", "-rf", "--", root});
    }

    void cleanupTestCase()
    {
        if (m_direct)
            m_direct->disconnect();
        m_proxy.stop();
    }
};

QTEST_GUILESS_MAIN(TestFaultsSubmit)
#include "tst_faults_submit.moc"
