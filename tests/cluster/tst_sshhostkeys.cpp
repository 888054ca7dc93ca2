// SPDX-License-Identifier: GPL-3.0-or-later
// Host key decisions of SshSession against the real loopback test cluster
// (tests/cluster/testcluster), all before authentication: an unknown key
// rejected, accepted once or remembered (also by the CLI's
// --accept-new-host-key), a changed, other-type or revoked key refused with
// the known_hosts line named. Fails (never skips) without the cluster.
#include "core/ssh/CliSshCallbacks.h"
#include "core/ssh/KnownHostsFile.h"
#include "core/ssh/SshSession.h"
#include "RecordingSshCallbacks.h"
#include "TestClusterEnv.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace scalelab;
using test::fileSize;
using test::readFrom;
using test::RecordingCallbacks;

namespace {

QString sshKeygenFingerprint(const QString &pubFile)
{
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), pubFile});
    p.waitForFinished(10000);
    return QString::fromLatin1(p.readAllStandardOutput()).section(QLatin1Char(' '), 1, 1);
}

}   // namespace

class TestSshHostKeys : public QObject {
    Q_OBJECT

    test::TestClusterEnv m_env;
    QTemporaryDir m_tmp;

    SshConnectionSettings settings(const QString &alias, const QString &config = QString()) const
    {
        return test::clusterSettings(m_env, alias, config);
    }

    // A config of our own for the main sshd, with a known_hosts file we control.
    QString privateConfig(const QString &name, const QString &knownHostsContent)
    {
        const QString kh = m_tmp.filePath(name + QStringLiteral(".known_hosts"));
        QFile k(kh);
        if (!k.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(kh));
        k.write(knownHostsContent.toUtf8());
        k.close();
        const QString cfg = m_tmp.filePath(name + QStringLiteral(".config"));
        QFile c(cfg);
        if (!c.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(cfg));
        c.write(QStringLiteral("Host private\n  HostName 127.0.0.1\n  Port 2222\n  User researcher\n"
                               "  IdentityFile %1/ssh/id_ed25519\n  IdentitiesOnly yes\n  UserKnownHostsFile %2\n")
                    .arg(m_env.clusterDir, kh)
                    .toUtf8());
        return cfg;
    }

    QString hostKeyBase64(const QString &which) const
    {
        QFile f(m_env.clusterDir + QStringLiteral("/ssh/host_%1_ed25519.pub").arg(which));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 1, 1).trimmed();
    }

    // sshd log lines that show an authentication step.
    static QStringList authLines(const QByteArray &log)
    {
        QStringList out;
        for (const QByteArray &l : log.split('\n'))
            if (l.contains("Accepted") || l.contains("Failed") || l.contains("Postponed")
                || l.contains("authenticating user") || l.contains("Partial") || l.contains("Invalid user"))
                out << QString::fromUtf8(l);
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(m_tmp.isValid());
    }

    void unknownHostKeyRejectedBeforeAuth()
    {
        const QString cfg = privateConfig(QStringLiteral("unknown"), QString());
        const qint64 before = fileSize(m_env.sshdLog);
        RecordingCallbacks cb;
        cb.decision = SshCallbacks::HostKeyDecision::Reject;
        SshSession s(settings(QStringLiteral("private"), cfg), &cb);
        const QString err = s.connectToHost().errorText();
        QVERIFY(!err.isEmpty());
        QVERIFY(!s.isConnected());
        QCOMPARE(cb.unknownCalls.size(), 1);
        const HostKeyInfo info = cb.unknownCalls.first();
        QCOMPARE(info.host, QStringLiteral("127.0.0.1"));
        QCOMPARE(info.port, 2222);
        QCOMPARE(info.keyType, QStringLiteral("ssh-ed25519"));
        QCOMPARE(info.fingerprintSha256,
                 sshKeygenFingerprint(m_env.clusterDir + QStringLiteral("/ssh/host_main_ed25519.pub")));
        QCOMPARE(info.knownHostsPath, m_tmp.filePath(QStringLiteral("unknown.known_hosts")));
        s.disconnect();
        QThread::msleep(500);   // let sshd write its goodbye line
        const QByteArray log = readFrom(m_env.sshdLog, before);
        QVERIFY2(log.contains("Connection closed by 127.0.0.1") || log.contains("Disconnected from 127.0.0.1")
                     || log.contains("disconnect from 127.0.0.1"),
                 log.constData());
        QVERIFY2(authLines(log).isEmpty(), qPrintable(authLines(log).join(QLatin1Char('\n'))));
        QCOMPARE(fileSize(m_tmp.filePath(QStringLiteral("unknown.known_hosts"))), qint64(0));

        // CLI callbacks refuse unknown keys unless told to accept new ones.
        CliSshCallbacks cli(false, nullptr);
        SshSession s2(settings(QStringLiteral("private"), cfg), &cli);
        QVERIFY(!s2.connectToHost().ok());
    }

    void acceptAndRemember()
    {
        const QString cfg = privateConfig(QStringLiteral("accept"), QString());
        RecordingCallbacks cb;
        cb.decision = SshCallbacks::HostKeyDecision::AcceptAndRemember;
        SshSession s(settings(QStringLiteral("private"), cfg), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        QCOMPARE(cb.unknownCalls.size(), 1);
        QVERIFY(s.run({QStringLiteral("true")}).ok());
        const QString kh = m_tmp.filePath(QStringLiteral("accept.known_hosts"));
        const KnownHostsFile file(kh);
        QCOMPARE(file.lookup(QStringLiteral("127.0.0.1"), 2222, QStringLiteral("ssh-ed25519"),
                             hostKeyBase64(QStringLiteral("main")))
                     .status,
                 KnownHostsFile::Status::Match);
        s.disconnect();

        RecordingCallbacks again;
        SshSession s2(settings(QStringLiteral("private"), cfg), &again);
        QCOMPARE(s2.connectToHost().errorText(), QString());
        QCOMPARE(again.unknownCalls.size(), 0);

        // AcceptOnce connects but remembers nothing.
        const QString cfg3 = privateConfig(QStringLiteral("once"), QString());
        RecordingCallbacks once;
        once.decision = SshCallbacks::HostKeyDecision::AcceptOnce;
        SshSession s3(settings(QStringLiteral("private"), cfg3), &once);
        QCOMPARE(s3.connectToHost().errorText(), QString());
        QCOMPARE(fileSize(m_tmp.filePath(QStringLiteral("once.known_hosts"))), qint64(0));

        // Settings acceptNewHostKey (CLI flag) remembers without asking.
        const QString cfg4 = privateConfig(QStringLiteral("acceptnew"), QString());
        CliSshCallbacks cli(true, nullptr);
        SshSession s4(settings(QStringLiteral("private"), cfg4), &cli);
        QCOMPARE(s4.connectToHost().errorText(), QString());
        QVERIFY(fileSize(m_tmp.filePath(QStringLiteral("acceptnew.known_hosts"))) > 0);
    }

    void changedOrOtherTypeKeyRefused_data()
    {
        QTest::addColumn<QString>("entry");
        // Another ed25519 key (the jump host's) recorded for the main sshd.
        QTest::newRow("changed")
            << QStringLiteral("[127.0.0.1]:2222 ssh-ed25519 %1").arg(hostKeyBase64(QStringLiteral("jump")));
        QTest::newRow("other-type") << QStringLiteral(
            "[127.0.0.1]:2222 ecdsa-sha2-nistp256 "
            "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEd795hbXKJUIF+"
            "C0KDoHazuoKKzdBJKUMnuN7jDRJHKgvPsWBon68Ea3P664c8Xl5s8HFtc8tJNi4oHeo/CoLM=");
        QTest::newRow("revoked")
            << QStringLiteral("@revoked * ssh-ed25519 %1").arg(hostKeyBase64(QStringLiteral("main")));
    }

    void changedOrOtherTypeKeyRefused()
    {
        QFETCH(QString, entry);
        const QString name = QStringLiteral("bad-%1").arg(QTest::currentDataTag());
        const QString cfg =
            privateConfig(name, QStringLiteral("# first line is a comment\n") + entry + QLatin1Char('\n'));
        const qint64 before = fileSize(m_env.sshdLog);
        RecordingCallbacks cb;
        cb.decision = SshCallbacks::HostKeyDecision::AcceptAndRemember;   // must not even be asked
        SshSession s(settings(QStringLiteral("private"), cfg), &cb);
        const QString err = s.connectToHost().errorText();
        QVERIFY(!err.isEmpty());
        QCOMPARE(cb.unknownCalls.size(), 0);
        QCOMPARE(cb.refusedCalls.size(), 1);
        const QString where = m_tmp.filePath(name + QStringLiteral(".known_hosts")) + QStringLiteral(":2");
        QVERIFY2(err.contains(where), qPrintable(err));
        QVERIFY2(cb.refusedMessages.first().contains(where), qPrintable(cb.refusedMessages.first()));
        QCOMPARE(cb.refusedCalls.first().conflictingLine, 2);
        s.disconnect();
        QThread::msleep(300);
        QVERIFY2(authLines(readFrom(m_env.sshdLog, before)).isEmpty(),
                 "authentication was attempted after a bad host key");
    }
};

QTEST_GUILESS_MAIN(TestSshHostKeys)
#include "tst_sshhostkeys.moc"
