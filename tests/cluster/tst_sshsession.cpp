// SPDX-License-Identifier: GPL-3.0-or-later
// SshSession and ClusterConnection against the real loopback test cluster
// (tests/cluster/testcluster): key auth, SFTP, ProxyJump, key + TOTP,
// host key decisions before authentication, hostile argv under five login
// shells, a dropped connection. Fails (never skips) without the cluster.
#include "core/ssh/ClusterConnection.h"
#include "core/base/RemoteValidation.h"
#include "core/ssh/CliSshCallbacks.h"
#include "core/ssh/KnownHostsFile.h"
#include "core/ssh/SshSession.h"
#include "TestClusterEnv.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <atomic>

using namespace scalelab;

namespace {

// Records every question; answers host keys as told, and TOTP prompts with oathtool.
class RecordingCallbacks : public SshCallbacks {
public:
    HostKeyDecision decision = HostKeyDecision::Reject;
    QString totpSecret;
    QList<HostKeyInfo> unknownCalls;
    QList<HostKeyInfo> refusedCalls;
    QStringList refusedMessages;
    QList<QList<KbdPrompt>> kbdCalls;
    int passphraseCalls = 0;

    HostKeyDecision unknownHostKey(const HostKeyInfo &info) override
    {
        unknownCalls << info;
        return decision;
    }
    void hostKeyRefused(const HostKeyInfo &info, const QString &message) override
    {
        refusedCalls << info;
        refusedMessages << message;
    }
    std::optional<QString> passphrase(const QString &) override
    {
        ++passphraseCalls;
        return std::nullopt;
    }
    std::optional<QStringList> keyboardInteractive(const QString &, const QString &,
                                                   const QList<KbdPrompt> &prompts) override
    {
        kbdCalls << prompts;
        QStringList answers;
        for (const KbdPrompt &p : prompts) {
            if (p.echo || totpSecret.isEmpty())
                return std::nullopt;
            QProcess oath;
            oath.start(QStringLiteral("oathtool"), {QStringLiteral("--totp"), QStringLiteral("-b"), totpSecret});
            if (!oath.waitForFinished(10000) || oath.exitCode() != 0)
                return std::nullopt;
            answers << QString::fromLatin1(oath.readAllStandardOutput()).trimmed();
        }
        return answers;
    }
};

QString sshKeygenFingerprint(const QString &pubFile)
{
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), pubFile});
    p.waitForFinished(10000);
    return QString::fromLatin1(p.readAllStandardOutput()).section(QLatin1Char(' '), 1, 1);
}

QByteArray readFrom(const QString &path, qint64 offset)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    f.seek(offset);
    return f.readAll();
}

qint64 fileSize(const QString &path)
{
    return QFileInfo(path).size();
}

}   // namespace

class TestSshSession : public QObject {
    Q_OBJECT

    test::TestClusterEnv m_env;
    QTemporaryDir m_tmp;
    QString m_remoteBase;

    SshConnectionSettings settings(const QString &alias, const QString &config = QString()) const
    {
        SshConnectionSettings s;
        s.alias = alias;
        s.configPath = config.isEmpty() ? m_env.sshConfig : config;
        s.connectTimeoutMs = 10000;
        return s;
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
        m_remoteBase =
            QStringLiteral("scalelab-ssh-test-%1").arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    }

    void keyAuthAndRun()
    {
        RecordingCallbacks cb;
        SshSession s(settings(QStringLiteral("testbed")), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        QVERIFY(s.isConnected());
        QVERIFY2(s.serverBanner().contains(QStringLiteral("OpenSSH")), qPrintable(s.serverBanner()));
        QCOMPARE(cb.unknownCalls.size(), 0);   // the cluster's known_hosts knows the key
        QCOMPARE(cb.kbdCalls.size(), 0);

        RemoteResult r = s.run({QStringLiteral("uname")});
        QVERIFY2(r.transportOk(), qPrintable(r.transportError));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("Linux\n"));
        QCOMPARE(r.err, QByteArray());

        r = s.run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo out; echo err >&2; exit 3")});
        QVERIFY(r.transportOk());
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.out, QByteArray("out\n"));
        QCOMPARE(r.err, QByteArray("err\n"));
        QVERIFY(!r.ok());

        // Larger output than one read, and binary bytes kept as they are.
        r = s.run({QStringLiteral("sh"), QStringLiteral("-c"),
                   QStringLiteral("head -c 300000 /dev/zero; printf '\\033[31m'")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.size(), 300005);
        QVERIFY(r.out.endsWith("\033[31m"));
        QCOMPARE(RemoteValidation::sanitize("a\033[31mb\tc\nd\r\x07", {.trim = false}), QStringLiteral("a[31mb\tc\nd"));

        QCOMPARE(s.homeDirectory(), QStringLiteral("/home/researcher"));

        // A newline cannot be quoted safely for every shell: refused, not sent.
        r = s.run({QStringLiteral("printf"), QStringLiteral("%s"), QStringLiteral("a\nb")});
        QVERIFY(!r.transportOk());
        QVERIFY(s.isConnected());

        // A command exceeding its timeout: outcome unknown, connection still usable.
        QElapsedTimer t;
        t.start();
        r = s.run({QStringLiteral("sleep"), QStringLiteral("10")}, 1000);
        QVERIFY(!r.transportOk());
        QVERIFY2(t.elapsed() < 5000, "run() did not honour its timeout");
        r = s.run({QStringLiteral("true")});
        QVERIFY2(r.ok(), qPrintable(r.transportError));
        s.disconnect();
        QVERIFY(!s.isConnected());
    }

    void sftpUploadDownload()
    {
        RecordingCallbacks cb;
        SshSession s(settings(QStringLiteral("testbed")), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        const QString dir = QStringLiteral("~/%1/a/b").arg(m_remoteBase);
        QCOMPARE(s.mkdirs(dir).errorText(), QString());
        QCOMPARE(s.mkdirs(dir).errorText(), QString());   // -p semantics
        const QString absDir = QStringLiteral("/home/researcher/%1/a/b").arg(m_remoteBase);
        const QString file = absDir + QStringLiteral("/job.sh");

        QCOMPARE(s.upload(file, "#!/bin/bash\necho first\n", 0750).errorText(), QString());
        RemoteResult r = s.run({QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%a"), file});
        QCOMPARE(r.out.trimmed(), QByteArray("750"));
        // Overwrite: rename over the old file, no temporary left behind.
        QByteArray big;
        for (int i = 0; i < 20000; ++i)
            big += QByteArray::number(i) + '\n';
        QCOMPARE(s.upload(file, big, 0600).errorText(), QString());
        r = s.run({QStringLiteral("ls"), QStringLiteral("-A"), absDir});
        QCOMPARE(r.out, QByteArray("job.sh\n"));
        r = s.run({QStringLiteral("stat"), QStringLiteral("-c"), QStringLiteral("%a %s"), file});
        QCOMPARE(r.out.trimmed(), QByteArray("600 ") + QByteArray::number(big.size()));

        RemoteFileChunk c = s.download(file);
        QCOMPARE(c.error, QString());
        QVERIFY(!c.missing);
        QCOMPARE(c.fileSize, qint64(big.size()));
        QCOMPARE(c.data, big);
        c = s.download(file, 10, 7);
        QCOMPARE(c.offset, qint64(10));
        QCOMPARE(c.data, big.mid(10, 7));
        c = s.download(file, -12);   // tail
        QCOMPARE(c.data, big.right(12));
        QCOMPARE(c.offset, qint64(big.size() - 12));
        c = s.download(file, big.size());   // nothing new yet
        QCOMPARE(c.data, QByteArray());
        QCOMPARE(c.error, QString());

        c = s.download(absDir + QStringLiteral("/no-such-file.out"));
        QVERIFY(c.missing);
        QVERIFY(!c.error.isEmpty());
        const Result<void> forbidden = s.upload(QStringLiteral("/proc/forbidden/x"), "x");
        QVERIFY(!forbidden.ok());
        QVERIFY(!forbidden.errorText().isEmpty());
        QVERIFY(s.isConnected());

        r = s.run({QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("/home/researcher/") + m_remoteBase});
        QCOMPARE(r.exitCode, 0);
    }

    void proxyJump()
    {
        const qint64 jumpBefore = fileSize(m_env.jumpSshdLog);
        RecordingCallbacks cb;
        SshSession s(settings(QStringLiteral("testbed-jump")), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        QCOMPARE(cb.unknownCalls.size(), 0);
        for (int i = 0; i < 3; ++i) {
            RemoteResult r =
                s.run({QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo $SSH_CONNECTION")});
            QVERIFY2(r.ok(), qPrintable(r.transportError + QString::fromUtf8(r.err)));
            QVERIFY2(r.out.endsWith(" 127.0.0.1 2222\n"), r.out.constData());
        }
        // Files go through the bridge as well.
        QByteArray payload(256 * 1024, 'x');
        const QString path = QStringLiteral("/tmp/scalelab-jump-%1").arg(QRandomGenerator::global()->generate());
        QCOMPARE(s.upload(path, payload).errorText(), QString());
        QCOMPARE(s.download(path).data, payload);
        s.run({QStringLiteral("rm"), QStringLiteral("-f"), path});
        s.disconnect();
        // Repeated jump connections leak no descriptors or threads.
        const int fdsBefore = QDir(QStringLiteral("/proc/self/fd")).count();
        for (int i = 0; i < 3; ++i) {
            SshSession again(settings(QStringLiteral("testbed-jump")), &cb);
            QCOMPARE(again.connectToHost().errorText(), QString());
            QVERIFY(again.run({QStringLiteral("true")}).ok());
        }
        QCOMPARE(QDir(QStringLiteral("/proc/self/fd")).count(), fdsBefore);
        const QByteArray jumpLog = readFrom(m_env.jumpSshdLog, jumpBefore);
        QVERIFY2(jumpLog.contains("Accepted publickey for researcher"), "the bastion did not see a login");
        QVERIFY2(!jumpLog.contains("Starting session"), "the bastion ran a shell/command instead of only forwarding");
    }

    void keyPlusTotp()
    {
        RecordingCallbacks cb;
        cb.totpSecret = m_env.totpSecret();
        QVERIFY2(!cb.totpSecret.isEmpty(), "no TOTP secret from the cluster");
        const qint64 before = fileSize(m_env.mfaSshdLog);
        SshSession s(settings(QStringLiteral("testbed-mfa")), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        QCOMPARE(cb.kbdCalls.size(), 1);
        QVERIFY(!cb.kbdCalls.first().isEmpty());
        QCOMPARE(cb.kbdCalls.first().first().echo, false);
        // One login serves many commands.
        for (int i = 0; i < 5; ++i)
            QVERIFY(s.run({QStringLiteral("true")}).ok());
        QVERIFY(!s.homeDirectory().isEmpty());
        QCOMPARE(cb.kbdCalls.size(), 1);
        s.disconnect();
        const QByteArray log = readFrom(m_env.mfaSshdLog, before);
        QVERIFY2(log.contains("Partial publickey"), log.constData());
        QCOMPARE(log.count("Accepted keyboard-interactive"), 1);

        // Without an answer the login fails cleanly.
        RecordingCallbacks none;
        SshSession s2(settings(QStringLiteral("testbed-mfa")), &none);
        const QString err = s2.connectToHost().errorText();
        QVERIFY(!err.isEmpty());
        QVERIFY(!s2.isConnected());

        // The CLI callbacks answer through SCALELAB_TOTP_COMMAND.
        qputenv("SCALELAB_TOTP_COMMAND", QStringLiteral("oathtool --totp -b %1").arg(cb.totpSecret).toUtf8());
        CliSshCallbacks cli(false, nullptr);
        SshSession s3(settings(QStringLiteral("testbed-mfa")), &cli);
        QCOMPARE(s3.connectToHost().errorText(), QString());
        QVERIFY(s3.run({QStringLiteral("true")}).ok());
        qunsetenv("SCALELAB_TOTP_COMMAND");
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

    void hostileArgvUnderFiveShells_data()
    {
        QTest::addColumn<QString>("alias");
        QTest::newRow("bash") << QStringLiteral("testbed");   // researcher's login shell is bash
        QTest::newRow("dash") << QStringLiteral("testbed-dash");
        QTest::newRow("zsh") << QStringLiteral("testbed-zsh");
        QTest::newRow("fish") << QStringLiteral("testbed-fish");
        QTest::newRow("tcsh") << QStringLiteral("testbed-tcsh");
    }

    void hostileArgvUnderFiveShells()
    {
        QFETCH(QString, alias);
        const QString canary = QStringLiteral("/tmp/canary-scalelab-%1-%2")
                                   .arg(QTest::currentDataTag())
                                   .arg(QRandomGenerator::global()->generate());
        const QString c = canary;
        const QStringList hostile = {
            QStringLiteral("plain"),
            QStringLiteral("with space"),
            QStringLiteral("  two  spaces "),
            QStringLiteral("it's"),
            QStringLiteral("\"double\""),
            QStringLiteral("$HOME"),
            QStringLiteral("${PATH}"),
            QStringLiteral("$(touch %1-1)").arg(c),
            QStringLiteral("`touch %1-2`").arg(c),
            QStringLiteral("; touch %1-3").arg(c),
            QStringLiteral("| touch %1-4").arg(c),
            QStringLiteral("&& touch %1-5").arg(c),
            QStringLiteral("' ; touch %1-6 ; '").arg(c),
            QStringLiteral("\" ; touch %1-7 ; \"").arg(c),
            QStringLiteral("'\"'\"'; touch %1-8").arg(c),
            QStringLiteral("x > %1-9").arg(c),
            QStringLiteral("(touch %1-10)").arg(c),
            QStringLiteral("*"),
            QStringLiteral("~"),
            QStringLiteral("~root"),
            QStringLiteral("a*b?[c]"),
            QStringLiteral("back\\slash"),
            QStringLiteral("trailing\\"),
            QStringLiteral("\\'"),
            QStringLiteral("\\\\"),
            QStringLiteral("ünïcödé ✓ 計算"),
            QStringLiteral("-n"),
            QStringLiteral("--help"),
            QStringLiteral("-"),
            QStringLiteral("%s%d%%"),
            QStringLiteral("%1"),
            QStringLiteral("{a,b}"),
            QStringLiteral("#not a comment"),
            QStringLiteral("$((1+1))"),
            QStringLiteral("a'b\"c$d`e\\f"),
            QStringLiteral("=cmd"),
            QStringLiteral("^x^y"),
        };
        RecordingCallbacks cb;
        SshSession s(settings(alias), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        QStringList failures;
        for (const QString &h : hostile) {
            const RemoteResult r = s.run({QStringLiteral("printf"), QStringLiteral("%s"), h});
            if (!r.ok() || r.out != h.toUtf8())
                failures << QStringLiteral("[%1] -> exit %2 out [%3] err [%4] %5")
                                .arg(h)
                                .arg(r.exitCode)
                                .arg(QString::fromUtf8(r.out), RemoteValidation::sanitize(r.err), r.transportError);
        }
        // Several words in one command line keep their boundaries.
        const RemoteResult r = s.run({QStringLiteral("printf"), QStringLiteral("<%s>"), QStringLiteral("a b"),
                                      QStringLiteral(""), QStringLiteral("c'd")});
        if (r.out != QByteArray("<a b><><c'd>"))
            failures << QStringLiteral("multi-word -> [%1] %2").arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err));
        s.disconnect();
        for (int i = 1; i <= 10; ++i)
            if (QFile::exists(QStringLiteral("%1-%2").arg(canary).arg(i)))
                failures << QStringLiteral("CANARY %1-%2 was created: a command was injected").arg(canary).arg(i);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    }

    void clusterConnectionRunsTasksInOrder()
    {
        RecordingCallbacks cb;
        ClusterConnection conn(settings(QStringLiteral("testbed")), &cb);
        QSignalSpy states(&conn, &ClusterConnection::stateChanged);
        QSignalSpy finished(&conn, &ClusterConnection::taskFinished);
        conn.start();
        QStringList results;
        QThread *mainThread = QThread::currentThread();
        bool resultsOnMainThread = true;
        std::atomic<bool> taskOnMainThread{false};
        for (int i = 0; i < 4; ++i) {
            conn.enqueue([this, i, &results, &resultsOnMainThread, &taskOnMainThread, mainThread](RemoteExecutor &ex) {
                if (QThread::currentThread() == mainThread)
                    taskOnMainThread = true;
                const RemoteResult r = ex.run({QStringLiteral("echo"), QString::number(i)});
                QMetaObject::invokeMethod(
                    this,
                    [r, &results, &resultsOnMainThread, mainThread] {
                        resultsOnMainThread = resultsOnMainThread && QThread::currentThread() == mainThread;
                        results << QString::fromUtf8(r.out).trimmed();
                    },
                    Qt::QueuedConnection);
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 4, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(results.size(), 4, 5000);
        QCOMPARE(results,
                 (QStringList{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));
        QVERIFY(resultsOnMainThread);
        QVERIFY2(!taskOnMainThread, "a task ran on the GUI thread");
        QCOMPARE(conn.state(), ClusterConnection::State::Connected);
        bool sawConnecting = false;
        for (const auto &args : states)
            sawConnecting =
                sawConnecting || args.at(0).value<ClusterConnection::State>() == ClusterConnection::State::Connecting;
        QVERIFY(sawConnecting);
        conn.stop();
        QCOMPARE(conn.state(), ClusterConnection::State::Disconnected);
    }

    // Last: restarts the main sshd.
    void droppedConnectionThenReconnect()
    {
        RecordingCallbacks cb;
        SshSession s(settings(QStringLiteral("testbed")), &cb);
        QCOMPARE(s.connectToHost().errorText(), QString());
        QVERIFY(s.run({QStringLiteral("true")}).ok());

        QProcess restart;
        restart.start(test::TestClusterEnv::scriptPath(), {QStringLiteral("restart-sshd"), QStringLiteral("main")});
        QVERIFY(restart.waitForFinished(60000));
        QVERIFY2(restart.exitCode() == 0, restart.readAllStandardError().constData());

        const RemoteResult r = s.run({QStringLiteral("true")}, 10000);
        QVERIFY2(!r.transportOk(), "a run on a dropped connection must report a transport error");
        QVERIFY(!s.isConnected());
        QCOMPARE(SshSession::backoffSeconds(0), 0);
        QCOMPARE(SshSession::backoffSeconds(1), 1);
        QCOMPARE(SshSession::backoffSeconds(3), 4);
        QCOMPARE(SshSession::backoffSeconds(20), 60);
        QCOMPARE(s.reconnect(1).errorText(), QString());
        QVERIFY(s.run({QStringLiteral("true")}).ok());

        // ClusterConnection reconnects by itself after a transport error.
        ClusterConnection conn(settings(QStringLiteral("testbed")), &cb);
        conn.start();
        QList<RemoteResult> results;
        auto task = [this, &results](RemoteExecutor &ex) {
            const RemoteResult r = ex.run({QStringLiteral("echo"), QStringLiteral("alive")}, 10000);
            QMetaObject::invokeMethod(
                this, [r, &results] { results << r; }, Qt::QueuedConnection);
        };
        conn.enqueue(task);
        QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 20000);
        QVERIFY(results[0].ok());
        restart.start(test::TestClusterEnv::scriptPath(), {QStringLiteral("restart-sshd"), QStringLiteral("main")});
        QVERIFY(restart.waitForFinished(60000));
        conn.enqueue(task);   // sees the drop
        conn.enqueue(task);   // runs on the new connection
        QTRY_COMPARE_WITH_TIMEOUT(results.size(), 3, 30000);
        QVERIFY(!results[1].transportOk());
        QVERIFY2(results[2].ok(), qPrintable(results[2].transportError));
        conn.stop();
    }
};

QTEST_GUILESS_MAIN(TestSshSession)
#include "tst_sshsession.moc"
