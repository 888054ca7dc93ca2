// SPDX-License-Identifier: GPL-3.0-or-later
// What the real executable does with an environment that cannot work: a
// display that is gone or a platform plugin that does not exist (exit 2 and
// a message, never Qt's abort), an SSH config that was named but is missing,
// and a researcher's broken file overriding a shipped profile (an error
// naming the file, never the shipped profile in its place).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

// The executable in an environment of the test's making: `unset` names are
// removed (the test runner sets QT_QPA_PLATFORM=offscreen for everything).
Run runScalelab(const QStringList &args, const QMap<QString, QString> &set, const QStringList &unset = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : unset)
        env.remove(name);
    for (auto it = set.begin(); it != set.end(); ++it)
        env.insert(it.key(), it.value());
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCALELAB_BINARY), args);
    p.waitForFinished(120000);
    return Run{p.exitCode(), p.exitStatus() != QProcess::NormalExit, QString::fromUtf8(p.readAllStandardOutput()),
               QString::fromUtf8(p.readAllStandardError())};
}

const QStringList kDisplayVariables{QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY"),
                                    QStringLiteral("WAYLAND_SOCKET"), QStringLiteral("XDG_SESSION_TYPE"),
                                    QStringLiteral("QT_QPA_PLATFORM")};

const QString kSpec = QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/puhti-ddp-8gpu.json");

}   // namespace

class TestCliStartup : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void staleDisplayExitsTwo();
    void unknownPlatformExitsTwo();
    void aWorkingFallbackPlatformIsUsed();
    void reportWithUnknownPlatformExitsTwo();
    void missingSshConfigExitsTwo_data();
    void missingSshConfigExitsTwo();
    void missingSshConfigFromEnvironmentExitsTwo();
    void brokenOverrideIsAnError();

private:
    QTemporaryDir m_dir;
    QMap<QString, QString> m_home;   // the data, settings, cache and log of this test only
};

void TestCliStartup::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_home.insert(QStringLiteral("HOME"), m_dir.path());
    m_home.insert(QStringLiteral("SCALELAB_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
    m_home.insert(QStringLiteral("SCALELAB_SETTINGS_FILE"), m_dir.filePath(QStringLiteral("config/settings.ini")));
    m_home.insert(QStringLiteral("SCALELAB_USER_PROFILE_DIR"), m_dir.filePath(QStringLiteral("no-profiles")));
    m_home.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
    m_home.insert(QStringLiteral("XDG_STATE_HOME"), m_dir.filePath(QStringLiteral("state")));
}

void TestCliStartup::staleDisplayExitsTwo()
{
    // Display :99 with nobody serving it (the X socket is absent).
    if (QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X99")))
        QSKIP("an X server runs on :99 here");
    QMap<QString, QString> env = m_home;
    env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":99"));
    const Run r = runScalelab({}, env, kDisplayVariables);
    QVERIFY2(!r.crashed, qPrintable(r.err));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("scalelab: cannot open the window on xcb")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("no X server accepts a connection on display :99")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("headless command")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("QT_QPA_PLATFORM=offscreen")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QLatin1String("Reinstalling")), qPrintable(r.err));

    // Qt's own -display option is the display tried.
    env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":0"));
    const Run option = runScalelab({QStringLiteral("-display"), QStringLiteral(":99")}, env, kDisplayVariables);
    QVERIFY2(!option.crashed, qPrintable(option.err));
    QCOMPARE(option.exitCode, 2);
    QVERIFY2(option.err.contains(QLatin1String("display :99")), qPrintable(option.err));
}

void TestCliStartup::unknownPlatformExitsTwo()
{
    QMap<QString, QString> env = m_home;
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("nosuch"));
    const Run r = runScalelab({}, env, kDisplayVariables);
    QVERIFY2(!r.crashed, qPrintable(r.err));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("scalelab: cannot open the window on nosuch (QT_QPA_PLATFORM): there is "
                                             "no Qt platform plugin \"nosuch\" (installed: ")),
             qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("offscreen")), qPrintable(r.err));

    // The same through Qt's -platform option.
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const Run option = runScalelab({QStringLiteral("-platform"), QStringLiteral("nosuch")}, env, kDisplayVariables);
    QVERIFY2(!option.crashed, qPrintable(option.err));
    QCOMPARE(option.exitCode, 2);
    QVERIFY2(option.err.contains(QLatin1String("nosuch (-platform)")), qPrintable(option.err));
}

void TestCliStartup::aWorkingFallbackPlatformIsUsed()
{
    // Qt tries the platforms of a list in turn: the check refuses only when none works.
    QMap<QString, QString> env = m_home;
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("nosuch;offscreen"));
    const QString png = m_dir.filePath(QStringLiteral("shot.png"));
    const Run r =
        runScalelab({QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("400x300")}, env,
                    kDisplayVariables);
    QVERIFY2(!r.crashed, qPrintable(r.err));
    QCOMPARE(r.exitCode, 0);
    QVERIFY(QFileInfo::exists(png));
}

void TestCliStartup::reportWithUnknownPlatformExitsTwo()
{
    // The report draws offscreen by default; a platform that cannot start is said, not aborted on.
    QMap<QString, QString> env = m_home;
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("nosuch"));
    const Run r = runScalelab(
        {QStringLiteral("report"), QStringLiteral("1"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("r.pdf"))},
        env, kDisplayVariables);
    QVERIFY2(!r.crashed, qPrintable(r.err));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("scalelab: report cannot draw on nosuch (QT_QPA_PLATFORM)")),
             qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("unset QT_QPA_PLATFORM")), qPrintable(r.err));
}

void TestCliStartup::missingSshConfigExitsTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("submit") << QStringList{QStringLiteral("submit"), QStringLiteral("--dry-run"), kSpec};
    QTest::newRow("study") << QStringList{QStringLiteral("study"), QStringLiteral("--gpus"), QStringLiteral("1,2"),
                                          kSpec};
    QTest::newRow("status") << QStringList{QStringLiteral("status")};
    QTest::newRow("fetch") << QStringList{QStringLiteral("fetch"), QStringLiteral("1")};
    QTest::newRow("discover") << QStringList{QStringLiteral("discover"), QStringLiteral("puhti")};
    QTest::newRow("profiles check") << QStringList{QStringLiteral("profiles"), QStringLiteral("check"),
                                                   QStringLiteral("puhti")};
}

void TestCliStartup::missingSshConfigExitsTwo()
{
    QFETCH(QStringList, args);
    const QString missing = m_dir.filePath(QStringLiteral("no-such-ssh-config"));
    args << QStringLiteral("--ssh-config") << missing;
    const Run r = runScalelab(args, m_home, {QStringLiteral("SCALELAB_SSH_CONFIG")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QStringLiteral("scalelab: --ssh-config: the SSH config %1 does not exist: give your OpenSSH "
                                   "config file\n")
                        .arg(missing));
}

void TestCliStartup::missingSshConfigFromEnvironmentExitsTwo()
{
    QMap<QString, QString> env = m_home;
    const QString missing = m_dir.filePath(QStringLiteral("gone/config"));
    env.insert(QStringLiteral("SCALELAB_SSH_CONFIG"), missing);
    const Run r = runScalelab({QStringLiteral("status")}, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        r.err.startsWith(
            QStringLiteral("scalelab: the SSH config %1 named by SCALELAB_SSH_CONFIG does not exist").arg(missing)),
        qPrintable(r.err));
    // --ssh-config wins over the variable.
    QFile config(m_dir.filePath(QStringLiteral("ssh_config")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.close();
    const Run given = runScalelab({QStringLiteral("status"), QStringLiteral("--ssh-config"), config.fileName()}, env);
    QVERIFY2(given.exitCode == 0, qPrintable(given.err));
}

void TestCliStartup::brokenOverrideIsAnError()
{
    // The researcher's own puhti.json, broken on line 3: puhti is not usable
    // until it is fixed, in every command that asks for it.
    QTemporaryDir profiles;
    const QString file = profiles.filePath(QStringLiteral("puhti.json"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\n  \"id\": \"puhti\",\n  \"name\": \"Puhti, my way\" \"partitions\": []\n}\n");
    f.close();
    QMap<QString, QString> env = m_home;
    env.insert(QStringLiteral("SCALELAB_USER_PROFILE_DIR"), profiles.path());
    for (const QStringList &args :
         {QStringList{QStringLiteral("render"), kSpec},
          QStringList{QStringLiteral("submit"), QStringLiteral("--dry-run"), kSpec},
          QStringList{QStringLiteral("profiles"), QStringLiteral("check"), QStringLiteral("puhti")}}) {
        const Run r = runScalelab(args, env, {QStringLiteral("SCALELAB_SSH_CONFIG")});
        QVERIFY2(r.exitCode == 2, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        QVERIFY2(r.err.startsWith(QStringLiteral("scalelab: profile \"puhti\" cannot be used: %1:3:").arg(file)),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("replaces the shipped profile")), qPrintable(r.err));
    }
    // lint --profile too.
    QFile script(m_dir.filePath(QStringLiteral("job.sh")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/bash\n#SBATCH --partition=gpu\n#SBATCH --gres=gpu:v100:1\nsrun python train.py\n");
    script.close();
    const Run lint = runScalelab(
        {QStringLiteral("lint"), script.fileName(), QStringLiteral("--profile"), QStringLiteral("puhti")}, env);
    QCOMPARE(lint.exitCode, 2);
    QVERIFY2(lint.err.contains(QStringLiteral("profile \"puhti\" cannot be used: %1:3:").arg(file)),
             qPrintable(lint.err));
}

QTEST_GUILESS_MAIN(TestCliStartup)
#include "tst_cli_startup.moc"
