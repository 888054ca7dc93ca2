// SPDX-License-Identifier: GPL-3.0-or-later
// Smoke test of the loopback test cluster itself (tests/cluster/testcluster),
// using only the OpenSSH client binary: if this fails, every other cluster
// test would fail for reasons that have nothing to do with ScaleLab.

#include "TestClusterEnv.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using scalelab::test::TestClusterEnv;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    QString describe() const { return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(exitCode).arg(out, err); }
};

Run runProgram(const QString &program, const QStringList &args,
               const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 60000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10000)) {
        r.err = p.errorString();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

}   // namespace

class TestTestCluster : public QObject {
    Q_OBJECT

    TestClusterEnv m_env;

    // `remote` is one shell string, parsed by the login shell of the target user.
    Run ssh(const QString &host, const QString &remote, const QStringList &extra = {})
    {
        QStringList args{QStringLiteral("-F"), m_env.sshConfig, QStringLiteral("-o"), QStringLiteral("BatchMode=yes")};
        args << extra << host << remote;
        return runProgram(QStringLiteral("ssh"), args);
    }

    // Polls sacct through ssh until the job leaves the queue; returns "State|AllocTRES".
    QString waitForFinalState(const QString &jobId, int timeoutMs = 60000)
    {
        static const QSet<QString> finals{QStringLiteral("COMPLETED"), QStringLiteral("FAILED"),
                                          QStringLiteral("CANCELLED"), QStringLiteral("TIMEOUT"),
                                          QStringLiteral("NODE_FAIL"), QStringLiteral("OUT_OF_MEMORY")};
        QElapsedTimer t;
        t.start();
        QString last;
        while (t.elapsed() < timeoutMs) {
            const Run r =
                ssh(QStringLiteral("testbed"), QStringLiteral("sacct -X -n -P -j %1 -o State,AllocTRES").arg(jobId));
            last = r.out.trimmed();
            const QString state = last.section(QLatin1Char('|'), 0, 0).section(QLatin1Char(' '), 0, 0);
            if (r.exitCode == 0 && finals.contains(state))
                return last;
            QThread::msleep(300);
        }
        return QStringLiteral("still not finished after %1 ms: %2").arg(timeoutMs).arg(last);
    }

    QString submit(const QString &host, const QString &sbatchArgs)
    {
        const Run r = ssh(host, QStringLiteral("sbatch --parsable ") + sbatchArgs);
        if (r.exitCode != 0 || !QRegularExpression(QStringLiteral("^\\d+$")).match(r.out.trimmed()).hasMatch()) {
            qWarning("sbatch on %s failed: %s", qPrintable(host), qPrintable(r.describe()));
            return {};
        }
        return r.out.trimmed();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(QFile::exists(m_env.sshConfig));
        QCOMPARE(qEnvironmentVariable("SLURM_CONF"), m_env.slurmConf);
        QVERIFY2(!m_env.totpSecret().isEmpty(), qPrintable(m_env.totpSecretFile));
    }

    void exportLineParsing()
    {
        QString k, v;
        QVERIFY(TestClusterEnv::parseExportLine(QStringLiteral("export A='x y'"), &k, &v));
        QCOMPARE(k, QStringLiteral("A"));
        QCOMPARE(v, QStringLiteral("x y"));
        QVERIFY(TestClusterEnv::parseExportLine(QStringLiteral("export B='it'\\''s'"), &k, &v));
        QCOMPARE(v, QStringLiteral("it's"));
        QVERIFY(TestClusterEnv::parseExportLine(QStringLiteral("export C=\"a\\\"b\"c"), &k, &v));
        QCOMPARE(v, QStringLiteral("a\"bc"));
        QVERIFY(!TestClusterEnv::parseExportLine(QStringLiteral("echo hi"), &k, &v));
        QVERIFY(!TestClusterEnv::parseExportLine(QStringLiteral("export D='open"), &k, &v));
    }

    void sinfoShowsTwoGpuNodes()
    {
        const Run r = ssh(QStringLiteral("testbed"), QStringLiteral("sinfo -h -N -p gpu -o '%N|%G|%t'"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QSet<QString> nodes;
        for (const QString &line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QStringList f = line.trimmed().split(QLatin1Char('|'));
            QCOMPARE(f.size(), 3);
            QCOMPARE(f.at(1), QStringLiteral("gpu:v100:4"));
            nodes.insert(f.at(0));
        }
        QCOMPARE(nodes, (QSet<QString>{QStringLiteral("tb-node1"), QStringLiteral("tb-node2")}));

        const Run parts = ssh(QStringLiteral("testbed"), QStringLiteral("sinfo -h -o '%P|%l|%D'"));
        QVERIFY2(parts.exitCode == 0, qPrintable(parts.describe()));
        QVERIFY2(parts.out.contains(QStringLiteral("gpu*|3-00:00:00|2")), qPrintable(parts.out));
        QVERIFY2(parts.out.contains(QStringLiteral("gputest|15:00|2")), qPrintable(parts.out));
        QVERIFY2(parts.out.contains(QStringLiteral("gpusmall|")), qPrintable(parts.out));
        QVERIFY2(parts.out.contains(QStringLiteral("gpumedium|")), qPrintable(parts.out));
    }

    void eightGpuJobCompletes()
    {
        const QString id = submit(QStringLiteral("testbed"),
                                  QStringLiteral("-N2 --gres=gpu:v100:4 -A project_2001234 --wrap 'srun hostname'"));
        QVERIFY(!id.isEmpty());
        const QString fin = waitForFinalState(id);
        QVERIFY2(fin.startsWith(QStringLiteral("COMPLETED|")), qPrintable(fin));
        QVERIFY2(fin.contains(QStringLiteral("gres/gpu=8")), qPrintable(fin));
        QVERIFY2(fin.contains(QStringLiteral("node=2")), qPrintable(fin));
    }

    void gpusmallRejectsThreeGpus()
    {
        const Run r = ssh(QStringLiteral("testbed"), QStringLiteral("sbatch -p gpusmall --gres=gpu:3 --wrap true"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("QOSMaxGRESPerJob")), qPrintable(r.describe()));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    }

    void jobRunsSystemPythonWithTorchInHome()
    {
        const QString id =
            submit(QStringLiteral("testbed"), QStringLiteral("-o tb-torch-%j.out --wrap 'pwd; python3 -c \"import "
                                                             "torch; print(\\\"torch\\\", torch.__version__)\"'"));
        QVERIFY(!id.isEmpty());
        const QString fin = waitForFinalState(id, 120000);
        QVERIFY2(fin.startsWith(QStringLiteral("COMPLETED|")), qPrintable(fin));
        const Run out = ssh(QStringLiteral("testbed"),
                            QStringLiteral("cat tb-torch-%1.out && rm -f tb-torch-%1.out && echo $HOME").arg(id));
        QVERIFY2(out.exitCode == 0, qPrintable(out.describe()));
        const QStringList lines = out.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 3, qPrintable(out.out));
        QCOMPARE(lines.first(), lines.last());   // job's working dir == researcher's home
        QVERIFY2(lines.at(1).startsWith(QStringLiteral("torch ")), qPrintable(out.out));
        const Run rss =
            ssh(QStringLiteral("testbed"), QStringLiteral("sacct -n -P -j %1.batch -o MaxRSS,TotalCPU").arg(id));
        QVERIFY2(rss.exitCode == 0 && rss.out.trimmed().contains(QRegularExpression(QStringLiteral("^\\d+K\\|"))),
                 qPrintable(rss.describe()));
    }

    // Tests write job programs to /tmp and look for injection canaries there:
    // that only proves something if the cluster's /tmp is this host's. It is
    // for 22.05 (on the host) and for 24.11 (the root bind-mounts /tmp).
    void clusterSharesTheHostsTmp()
    {
        const QString dir = QStringLiteral("/tmp/scalelab-tc-tmp-%1").arg(QCoreApplication::applicationPid());
        QVERIFY(QDir().mkpath(dir));
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                       | QFileDevice::ReadOther | QFileDevice::ExeOther);
        QFile token(dir + QStringLiteral("/token.txt"));
        QVERIFY(token.open(QIODevice::WriteOnly));
        token.write("written on the host\n");
        token.close();
        QFile::setPermissions(token.fileName(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
        const QString id =
            submit(QStringLiteral("testbed"), QStringLiteral("-o tb-tmp-%j.out --wrap 'cat %1'").arg(token.fileName()));
        QVERIFY(!id.isEmpty());
        const QString fin = waitForFinalState(id);
        QVERIFY2(fin.startsWith(QStringLiteral("COMPLETED|")), qPrintable(fin));
        const Run out =
            ssh(QStringLiteral("testbed"), QStringLiteral("cat tb-tmp-%1.out && rm -f tb-tmp-%1.out").arg(id));
        QVERIFY2(out.exitCode == 0, qPrintable(out.describe()));
        QCOMPARE(out.out, QStringLiteral("written on the host\n"));
        const QString back = dir + QStringLiteral("-login");
        const Run touch = ssh(QStringLiteral("testbed"), QStringLiteral("touch ") + back);
        QVERIFY2(touch.exitCode == 0, qPrintable(touch.describe()));
        QVERIFY2(QFile::exists(back), qPrintable(back));
        QFile::remove(back);
        QDir(dir).removeRecursively();
    }

    void jumpHostReachesTarget()
    {
        const Run r = ssh(QStringLiteral("testbed-jump"), QStringLiteral("echo \"$SLURM_CONF\""));
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(r.out.trimmed(), m_env.slurmConf);
        QFile log(m_env.jumpSshdLog);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(log.readAll().contains("Accepted publickey for researcher"));
    }

    void keyIsRequired()
    {
        // Our config always adds the key, so bypass it: no key, no agent.
        const QString knownHosts = m_env.clusterDir + QStringLiteral("/ssh/known_hosts");
        const Run r = runProgram(QStringLiteral("ssh"),
                                 {QStringLiteral("-F"), QStringLiteral("/dev/null"), QStringLiteral("-p"),
                                  QStringLiteral("2222"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                                  QStringLiteral("-o"), QStringLiteral("IdentitiesOnly=yes"), QStringLiteral("-o"),
                                  QStringLiteral("IdentityAgent=none"), QStringLiteral("-o"),
                                  QStringLiteral("IdentityFile=") + m_env.clusterDir + QStringLiteral("/no-such-key"),
                                  QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + knownHosts,
                                  QStringLiteral("researcher@127.0.0.1"), QStringLiteral("true")});
        QCOMPARE(r.exitCode, 255);
        QVERIFY2(r.err.contains(QStringLiteral("Permission denied (publickey)")), qPrintable(r.describe()));
    }

    void mfaHostAsksForVerificationCode()
    {
        // Without a second factor: the key is accepted only partially.
        const Run partial = ssh(QStringLiteral("testbed-mfa"), QStringLiteral("true"), {QStringLiteral("-v")});
        QCOMPARE(partial.exitCode, 255);
        QVERIFY2(partial.err.contains(QStringLiteral("partial success")), qPrintable(partial.err));
        QVERIFY2(partial.err.contains(QStringLiteral("Authentications that can continue: keyboard-interactive")),
                 qPrintable(partial.err));

        // With the TOTP code answered through SSH_ASKPASS: logged in, and the prompt was PAM's.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString prompts = dir.filePath(QStringLiteral("prompts"));
        const QString askpass = dir.filePath(QStringLiteral("askpass.sh"));
        QFile f(askpass);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '%1'\nexec oathtool --totp -b \"$(cat '%2')\"\n")
                    .arg(prompts, m_env.totpSecretFile)
                    .toUtf8());
        f.close();
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SSH_ASKPASS"), askpass);
        env.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("force"));
        const Run full = runProgram(QStringLiteral("ssh"),
                                    {QStringLiteral("-F"), m_env.sshConfig, QStringLiteral("-o"),
                                     QStringLiteral("NumberOfPasswordPrompts=1"), QStringLiteral("testbed-mfa"),
                                     QStringLiteral("echo mfa-ok")},
                                    env);
        QVERIFY2(full.exitCode == 0 && full.out.trimmed() == QStringLiteral("mfa-ok"), qPrintable(full.describe()));
        QFile p(prompts);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY2(p.readAll().contains("Verification code"), "the MFA sshd did not ask for a verification code");
    }

    void eachShellUserCanSubmit_data()
    {
        QTest::addColumn<QString>("shell");
        for (const char *s : {"dash", "zsh", "fish", "tcsh"})
            QTest::newRow(s) << QString::fromLatin1(s);
    }

    void eachShellUserCanSubmit()
    {
        QFETCH(QString, shell);
        const QString host = QStringLiteral("testbed-") + shell;
        const Run login = ssh(host, QStringLiteral("echo $SHELL"));
        QVERIFY2(login.exitCode == 0 && login.out.trimmed().endsWith(QLatin1Char('/') + shell),
                 qPrintable(login.describe()));
        const QString id = submit(host, QStringLiteral("--wrap true"));
        QVERIFY(!id.isEmpty());
        const QString fin = waitForFinalState(id);
        QVERIFY2(fin.startsWith(QStringLiteral("COMPLETED|")), qPrintable(fin));
    }
};

QTEST_GUILESS_MAIN(TestTestCluster)
#include "tst_testcluster.moc"
