// SPDX-License-Identifier: GPL-3.0-or-later
// SshConfigFile: OpenSSH config semantics (first value wins, patterns, Include).
#include "core/base/InputLimits.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::Severity;
using scalelab::SshConfigFile;
using scalelab::SshHostConfig;

class TestSshConfig : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QString &text)
    {
        const QString path = m_dir.filePath(name);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text.toUtf8());
        return path;
    }

private Q_SLOTS:
    void wildcards()
    {
        QVERIFY(SshConfigFile::matchWildcard(QStringLiteral("*"), QStringLiteral("x")));
        QVERIFY(SshConfigFile::matchWildcard(QStringLiteral("puhti*"), QStringLiteral("puhti-login1")));
        QVERIFY(SshConfigFile::matchWildcard(QStringLiteral("node?"), QStringLiteral("node7")));
        QVERIFY(!SshConfigFile::matchWildcard(QStringLiteral("node?"), QStringLiteral("node17")));
        QVERIFY(SshConfigFile::matchWildcard(QStringLiteral("*.EXAMPLE.org"), QStringLiteral("a.example.ORG")));
        QVERIFY(!SshConfigFile::matchWildcard(QStringLiteral("a*b"), QStringLiteral("ab.c")));
        QVERIFY(SshConfigFile::matchPatternList({QStringLiteral("*.org"), QStringLiteral("!bad.org")},
                                                QStringLiteral("good.org")));
        QVERIFY(!SshConfigFile::matchPatternList({QStringLiteral("*.org"), QStringLiteral("!bad.org")},
                                                 QStringLiteral("bad.org")));
        // A negation alone never matches (ssh_config(5)).
        QVERIFY(!SshConfigFile::matchPatternList({QStringLiteral("!bad.org")}, QStringLiteral("good.org")));
    }

    void firstValueWinsAndDefaults()
    {
        const QString p =
            write(QStringLiteral("first/config"), QStringLiteral("# global settings first apply to all hosts\n"
                                                                 "ConnectTimeout 7\n"
                                                                 "\n"
                                                                 "Host cluster\n"
                                                                 "    HostName login.cluster.example.org\n"
                                                                 "    User researcher\n"
                                                                 "    Port=2222\n"
                                                                 "    IdentityFile ~/.ssh/id_cluster\n"
                                                                 "    IdentitiesOnly yes\n"
                                                                 "    ServerAliveInterval 45\n"
                                                                 "\n"
                                                                 "Host cluster other\n"
                                                                 "    HostName ignored.example.org\n"
                                                                 "    User ignored\n"
                                                                 "    IdentityFile \"%d/keys/%r@%h\"\n"
                                                                 "    UserKnownHostsFile %d/.ssh/kh_%n\n"
                                                                 "\n"
                                                                 "Host *\n"
                                                                 "    Port 22\n"
                                                                 "    ConnectTimeout 99\n"));
        const SshConfigFile cfg = SshConfigFile::load(p);
        QCOMPARE(cfg.errorText(), QString());
        QVERIFY(cfg.diagnostics().isEmpty());
        const SshHostConfig c = cfg.resolve(QStringLiteral("cluster"));
        QCOMPARE(c.alias, QStringLiteral("cluster"));
        QCOMPARE(c.hostName, QStringLiteral("login.cluster.example.org"));
        QCOMPARE(c.user, QStringLiteral("researcher"));
        QCOMPARE(c.port, 2222);
        QCOMPARE(c.connectTimeoutSeconds, 7);
        QCOMPARE(c.serverAliveIntervalSeconds, 45);
        QVERIFY(c.identitiesOnly);
        const QString home = QDir::homePath();
        QCOMPARE(c.identityFiles, (QStringList{home + QStringLiteral("/.ssh/id_cluster"),
                                               home + QStringLiteral("/keys/researcher@login.cluster.example.org")}));
        QCOMPARE(c.userKnownHostsFile, home + QStringLiteral("/.ssh/kh_cluster"));
        QCOMPARE(c.knownHostsPath(), home + QStringLiteral("/.ssh/kh_cluster"));
        QCOMPARE(c.configPath, p);

        const SshHostConfig o = cfg.resolve(QStringLiteral("other"));
        QCOMPARE(o.hostName, QStringLiteral("ignored.example.org"));
        QCOMPARE(o.port, 22);
        QCOMPARE(o.user, QStringLiteral("ignored"));

        // Unlisted alias: HostName defaults to the alias; known_hosts to ~/.ssh.
        const SshHostConfig u = cfg.resolve(QStringLiteral("unlisted.example.org"));
        QCOMPARE(u.hostName, QStringLiteral("unlisted.example.org"));
        QCOMPARE(u.port, 22);
        QVERIFY(!u.user.isEmpty());
        QCOMPARE(u.knownHostsPath(), home + QStringLiteral("/.ssh/known_hosts"));
        QVERIFY(!u.hasProxyJump());
    }

    void negationAndMatch()
    {
        const QString p = write(QStringLiteral("neg/config"),
                                QStringLiteral("Host *.cluster.example.org !gateway.cluster.example.org\n"
                                               "  ProxyJump gateway.cluster.example.org\n"
                                               "Match exec \"true\"\n"
                                               "  User fromMatchExec\n"
                                               "Match all\n"
                                               "  User fromMatchAll\n"));
        const SshConfigFile cfg = SshConfigFile::load(p);
        QCOMPARE(cfg.resolve(QStringLiteral("node1.cluster.example.org")).proxyJump,
                 QStringLiteral("gateway.cluster.example.org"));
        QVERIFY(cfg.resolve(QStringLiteral("node1.cluster.example.org")).hasProxyJump());
        QVERIFY(!cfg.resolve(QStringLiteral("gateway.cluster.example.org")).hasProxyJump());
        // Unsupported Match criteria never apply; "Match all" does.
        QCOMPARE(cfg.resolve(QStringLiteral("x")).user, QStringLiteral("fromMatchAll"));
    }

    void proxyJumpForms()
    {
        const QString p = write(QStringLiteral("jump/config"),
                                QStringLiteral("Host a\n  ProxyJump researcher@bastion.example.org:2200\n"
                                               "Host b\n  ProxyJump bastion-alias\n"
                                               "Host c\n  ProxyJump j1,j2:2022\n"
                                               "Host d\n  ProxyJump none\n"
                                               "Host *\n  ProxyJump never-used\n"));
        const SshConfigFile cfg = SshConfigFile::load(p);
        QCOMPARE(cfg.resolve(QStringLiteral("a")).proxyJump, QStringLiteral("researcher@bastion.example.org:2200"));
        QCOMPARE(cfg.resolve(QStringLiteral("b")).proxyJump, QStringLiteral("bastion-alias"));
        QCOMPARE(cfg.resolve(QStringLiteral("c")).proxyJump, QStringLiteral("j1,j2:2022"));
        QVERIFY(!cfg.resolve(QStringLiteral("d")).hasProxyJump());
        QCOMPARE(cfg.resolve(QStringLiteral("zzz")).proxyJump, QStringLiteral("never-used"));
    }

    void includeKeepsHostContext()
    {
        write(QStringLiteral("inc/conf.d/10-cluster.conf"),
              QStringLiteral("Host included\n  HostName included.example.org\n  Port 2022\n"));
        write(QStringLiteral("inc/conf.d/20-more.conf"),
              QStringLiteral("Host included\n  Port 3033\n  User inc-user\n"));
        write(QStringLiteral("inc/inside-host.conf"), QStringLiteral("User from-inside-host\n"));
        const QString main = write(QStringLiteral("inc/config"), QStringLiteral("Include %1/conf.d/*.conf\n"
                                                                                "Host scoped\n"
                                                                                "  Include %1/inside-host.conf\n"
                                                                                "  Port 4044\n"
                                                                                "Host *\n"
                                                                                "  User fallback\n")
                                                                     .arg(m_dir.filePath(QStringLiteral("inc"))));
        const SshConfigFile cfg = SshConfigFile::load(main);
        QCOMPARE(cfg.errorText(), QString());
        const SshHostConfig c = cfg.resolve(QStringLiteral("included"));
        QCOMPARE(c.hostName, QStringLiteral("included.example.org"));
        QCOMPARE(c.port, 2022);   // 10-* is read before 20-*, first value wins
        QCOMPARE(c.user, QStringLiteral("inc-user"));
        const SshHostConfig s = cfg.resolve(QStringLiteral("scoped"));
        QCOMPARE(s.user, QStringLiteral("from-inside-host"));   // included inside "Host scoped"
        QCOMPARE(s.port, 4044);
        QCOMPARE(cfg.resolve(QStringLiteral("elsewhere")).user, QStringLiteral("fallback"));
    }

    void errorsNameFileAndLine()
    {
        const QString p = write(QStringLiteral("bad/config"), QStringLiteral("Host x\n  Port many\n"));
        QString err = SshConfigFile::load(p).errorText();
        QVERIFY2(err.startsWith(p + QStringLiteral(":2:")), qPrintable(err));
        QVERIFY(err.contains(QStringLiteral("Port")));
        const QString q = write(QStringLiteral("bad2/config"), QStringLiteral("Host x\n  HostName \"unterminated\n"));
        err = SshConfigFile::load(q).errorText();
        QVERIFY2(err.startsWith(q + QStringLiteral(":2:")), qPrintable(err));
        // A missing file is an empty config, not an error (like ssh).
        const SshConfigFile missing = SshConfigFile::load(m_dir.filePath(QStringLiteral("does-not-exist")));
        QCOMPARE(missing.errorText(), QString());
        QVERIFY(missing.diagnostics().isEmpty());
    }

    // Every bad line is a finding of its own (not only the first), naming the
    // file and the line; the good lines around them are still read.
    void everyBadLineIsADiagnostic()
    {
        const QString p = write(QStringLiteral("bad3/config"), QStringLiteral("Host x\n"
                                                                              "  Port many\n"
                                                                              "  HostName x.example.org\n"
                                                                              "  ConnectTimeout soon\n"));
        const SshConfigFile cfg = SshConfigFile::load(p);
        const scalelab::Diagnostics &diags = cfg.diagnostics();
        QCOMPARE(diags.size(), 2);
        QCOMPARE(diags[0].severity, Severity::Error);
        QCOMPARE(diags[0].rule, QStringLiteral("ssh-config"));
        QCOMPARE(diags[0].field, p);
        QCOMPARE(diags[0].line, 2);
        QCOMPARE(diags[0].message, p + QStringLiteral(":2: Port \"many\" is not a number between 1 and 65535"));
        QCOMPARE(diags[1].severity, Severity::Error);
        QCOMPARE(diags[1].rule, QStringLiteral("ssh-config"));
        QCOMPARE(diags[1].field, p);
        QCOMPARE(diags[1].line, 4);
        QCOMPARE(diags[1].message, p + QStringLiteral(":4: ConnectTimeout \"soon\" is not a number of seconds"));
        QCOMPARE(cfg.errorText(), diags[0].message);
        QCOMPARE(cfg.resolve(QStringLiteral("x")).hostName, QStringLiteral("x.example.org"));
    }

    // A text of bad line after bad line keeps at most kMaxDiagnosticsPerFile
    // findings: the first ones, nothing after the cap.
    void diagnosticsAreCapped()
    {
        const int max = scalelab::InputLimits::kMaxDiagnosticsPerFile;
        QString text;
        for (int i = 0; i < max + 50; ++i)
            text += QStringLiteral("!\n");
        const SshConfigFile cfg = SshConfigFile::fromText(text, QStringLiteral("config"));
        // The first `max` findings, then one that says how many more there were.
        QCOMPARE(cfg.diagnostics().size(), max + 1);
        QCOMPARE(cfg.diagnostics().first().line, 1);
        QCOMPARE(cfg.diagnostics()[max - 1].line, max);
        QCOMPARE(cfg.diagnostics().last().rule, QStringLiteral("too-many-findings"));
        QCOMPARE(cfg.diagnostics().last().severity, scalelab::Severity::Error);
        QVERIFY2(cfg.diagnostics().last().message.startsWith(QStringLiteral("config: 50 more findings")),
                 qPrintable(cfg.diagnostics().last().message));
        QCOMPARE(cfg.errorText(), QStringLiteral("config:1: cannot parse \"!\" (expected: Keyword value)"));
    }

    void dashNamesRejected()
    {
        QVERIFY(!SshConfigFile::validateName(QStringLiteral("host name"), QStringLiteral("-oProxyCommand=touch x"))
                     .isEmpty());
        QVERIFY(!SshConfigFile::validateName(QStringLiteral("user name"), QStringLiteral("-l")).isEmpty());
        QVERIFY(!SshConfigFile::validateName(QStringLiteral("user name"), QStringLiteral("a b")).isEmpty());
        QVERIFY(
            SshConfigFile::validateName(QStringLiteral("host name"), QStringLiteral("login-1.example.org")).isEmpty());
        QVERIFY(SshConfigFile::validateName(QStringLiteral("user name"), QStringLiteral("researcher")).isEmpty());
    }

    void defaultPathFromEnvironment()
    {
        qputenv("SCALELAB_SSH_CONFIG", "/some/where/config");
        QCOMPARE(SshConfigFile::defaultPath(), QStringLiteral("/some/where/config"));
        qunsetenv("SCALELAB_SSH_CONFIG");
        QCOMPARE(SshConfigFile::defaultPath(), QDir::homePath() + QStringLiteral("/.ssh/config"));
    }

    void aNamedConfigMustExist()
    {
        // Only ssh's own default may be missing; a file someone named is an
        // error naming it, never an empty config (aliases read as host names).
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("nope/config"));
        qunsetenv("SCALELAB_SSH_CONFIG");
        QCOMPARE(SshConfigFile::namedFileProblem(QString()), QString());
        QCOMPARE(SshConfigFile::namedFileProblem(QDir::homePath() + QStringLiteral("/.ssh/config")), QString());
        QCOMPARE(SshConfigFile::namedFileProblem(missing),
                 QStringLiteral("the SSH config %1 does not exist: give your OpenSSH config file").arg(missing));
        QCOMPARE(SshConfigFile::namedFileProblem(dir.path()),
                 QStringLiteral("the SSH config %1 is not a file: give your OpenSSH config file").arg(dir.path()));
        qputenv("SCALELAB_SSH_CONFIG", missing.toLocal8Bit());
        const QString fromEnv = SshConfigFile::namedFileProblem(QString());
        QVERIFY2(fromEnv.startsWith(
                     QStringLiteral("the SSH config %1 named by SCALELAB_SSH_CONFIG does not exist").arg(missing)),
                 qPrintable(fromEnv));
        QFile f(missing);
        QVERIFY(QDir().mkpath(QFileInfo(missing).absolutePath()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QCOMPARE(SshConfigFile::namedFileProblem(QString()), QString());
        QCOMPARE(SshConfigFile::namedFileProblem(missing), QString());
        qunsetenv("SCALELAB_SSH_CONFIG");
    }
};

QTEST_GUILESS_MAIN(TestSshConfig)
#include "tst_sshconfig.moc"
