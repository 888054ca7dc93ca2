// SPDX-License-Identifier: GPL-3.0-or-later
// The log file against a real login: key + TOTP through the MFA sshd of the
// loopback cluster, commands, an SFTP upload and a download. Then the log is
// searched for what must never be in it (every TOTP code given, the TOTP
// secret, the private key, user paths) and for what must be (one line per
// remote command with its exit code). Fails without the cluster. The file's
// cap and permissions are tests/unit/tst_logging.cpp.
#include "core/base/Logging.h"
#include "core/ssh/SshSession.h"
#include "core/sshconfig/SshConfigFile.h"
#include "TestClusterEnv.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

namespace {

// Answers the TOTP prompt with oathtool and remembers every code it gave.
class TotpCallbacks : public SshCallbacks {
public:
    QString secret;
    QStringList codes;

    HostKeyDecision unknownHostKey(const HostKeyInfo &) override { return HostKeyDecision::Reject; }
    void hostKeyRefused(const HostKeyInfo &, const QString &) override {}
    std::optional<QString> passphrase(const QString &) override { return std::nullopt; }
    std::optional<QStringList> keyboardInteractive(const QString &, const QString &,
                                                   const QList<KbdPrompt> &prompts) override
    {
        QStringList answers;
        for (const KbdPrompt &p : prompts) {
            if (p.echo)
                return std::nullopt;
            QProcess oath;
            oath.start(QStringLiteral("oathtool"), {QStringLiteral("--totp"), QStringLiteral("-b"), secret});
            if (!oath.waitForFinished(10000) || oath.exitCode() != 0)
                return std::nullopt;
            answers << QString::fromLatin1(oath.readAllStandardOutput()).trimmed();
        }
        codes << answers;
        return answers;
    }
};

}   // namespace

class TestLogRedaction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mfaLoginLeavesNoSecretsInTheLog();
};

void TestLogRedaction::mfaLoginLeavesNoSecretsInTheLog()
{
    const test::TestClusterEnv env = test::TestClusterEnv::load();
    QVERIFY2(env.ok(), qPrintable(env.error));
    QTemporaryDir state;
    const QString logPath = state.filePath(QStringLiteral("ScaleLab/scalelab.log"));
    LogFile::install(logPath);
    QCOMPARE(LogFile::path(), logPath);

    TotpCallbacks cb;
    cb.secret = env.totpSecret();
    QVERIFY2(!cb.secret.isEmpty(), "no TOTP secret from the cluster");
    SshConnectionSettings settings;
    settings.alias = QStringLiteral("testbed-mfa");
    settings.configPath = env.sshConfig;
    settings.connectTimeoutMs = 10000;
    SshSession s(settings, &cb);
    QCOMPARE(s.connectToHost().errorText(), QString());
    QCOMPARE(cb.codes.size(), 1);

    const QString home = s.homeDirectory();
    QVERIFY(!home.isEmpty());
    const QString userDir = home
                            + QStringLiteral("/.scalelab/a-researchers-private-study-%1")
                                  .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    QCOMPARE(s.run({QStringLiteral("sbatch"), QStringLiteral("--version")}).exitCode, 0);
    QCOMPARE(s.run({QStringLiteral("ls"), userDir}).exitCode, 2);
    QCOMPARE(s.mkdirs(userDir).errorText(), QString());
    QCOMPARE(s.upload(userDir + QStringLiteral("/job.sbatch"), "#!/bin/bash\necho hi\n").errorText(), QString());
    QCOMPARE(s.download(userDir + QStringLiteral("/job.sbatch")).data, QByteArray("#!/bin/bash\necho hi\n"));
    QCOMPARE(s.run({QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), userDir}).exitCode, 0);
    s.disconnect();

    QFile f(logPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray log = f.readAll();

    // What must be there: the login and one line per command with its exit code.
    QVERIFY2(log.contains("scalelab.ssh info: testbed-mfa: connected (1 hop(s))"), log.constData());
    QVERIFY2(log.contains("scalelab.ssh info: testbed-mfa: sbatch --version -> exit 0 in "), log.constData());
    QVERIFY2(log.contains("scalelab.ssh info: testbed-mfa: ls <…> -> exit 2 in "), log.constData());
    QVERIFY2(log.contains("scalelab.ssh info: testbed-mfa: rm -rf -- <…> -> exit 0 in "), log.constData());
    QVERIFY2(log.contains("scalelab.ssh info: testbed-mfa: sftp upload <…>/job.sbatch (20 bytes) -> ok in "),
             log.constData());
    QVERIFY2(log.contains("scalelab.ssh info: testbed-mfa: sftp download <…>/job.sbatch from byte 0 -> 20 bytes in "),
             log.constData());

    // What must never be there.
    for (const QString &code : std::as_const(cb.codes)) {
        QCOMPARE(code.size(), 6);
        QVERIFY2(!log.contains(code.toLatin1()), "a TOTP code is in the log");
    }
    QVERIFY2(!log.contains(cb.secret.toLatin1()), "the TOTP secret is in the log");
    QVERIFY2(!log.contains("a-researchers-private-study"), "a user path is in the log");
    QVERIFY2(!log.contains(home.toUtf8() + "/"), "the remote home directory is in the log");
    const SshHostConfig host = SshConfigFile::load(env.sshConfig).resolve(QStringLiteral("testbed-mfa"));
    QVERIFY(!host.identityFiles.isEmpty());
    int keyLines = 0;
    for (const QString &path : host.identityFiles) {
        QFile key(path);
        if (!key.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &line : key.readAll().split('\n')) {
            if (line.startsWith("-----") || line.trimmed().size() < 16)
                continue;
            ++keyLines;
            QVERIFY2(!log.contains(line.trimmed()), "private key material is in the log");
        }
    }
    QVERIFY2(keyLines > 0, "the test read no private key lines to look for");
    for (const char *word : {"passphrase", "password", "PRIVATE KEY"})
        QVERIFY2(!log.contains(word), word);
}

QTEST_GUILESS_MAIN(TestLogRedaction)
#include "tst_logredaction.moc"
