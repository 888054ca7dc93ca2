// SPDX-License-Identifier: GPL-3.0-or-later
// SshSession and ClusterConnection against the real loopback test cluster
// (tests/cluster/testcluster): key auth, SFTP, ProxyJump, key + TOTP, hostile
// argv under five login shells, tasks in order on the worker, a dropped
// connection. Host key decisions: tst_sshhostkeys. Fails (never skips)
// without the cluster.
#include "core/ssh/ClusterConnection.h"
#include "core/base/RemoteValidation.h"
#include "core/ssh/CliSshCallbacks.h"
#include "core/ssh/SshSession.h"
#include "RecordingSshCallbacks.h"
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
using test::fileSize;
using test::readFrom;
using test::RecordingCallbacks;

class TestSshSession : public QObject {
    Q_OBJECT

    test::TestClusterEnv m_env;
    QString m_remoteBase;

    SshConnectionSettings settings(const QString &alias, const QString &config = QString()) const
    {
        return test::clusterSettings(m_env, alias, config);
    }

private Q_SLOTS:
private Q_SLOTS:
    void initTestCase()
    {
        m_env = test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
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
