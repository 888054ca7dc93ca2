// SPDX-License-Identifier: GPL-3.0-or-later
// The researcher's data is owner-only from the first start: the run store,
// the settings, the SSH config the app writes and fetched run folders are
// created 0700/0600. What exists keeps its mode: a folder others can read
// (chosen by the researcher, a team folder, left by an older version) is
// named in a warning, never chmod-ed, and a read-only file stays read-only
// (writing it is an error naming it) — by the library calls and by the real
// executable.
#include "core/base/PrivateFiles.h"
#include "core/store/RunStore.h"
#include "ui/common/AppSettings.h"
#include "ui/common/PrivateData.h"

#include "CliRunner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace scalelab;

namespace {

// "700", "600", "755": the mode as `ls -l` readers know it.
QString mode(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return QStringLiteral("missing");
    return QString::number(st.st_mode & 0777, 8);
}

void writeFile(const QString &path, QFile::Permissions perms)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("x\n");
    f.close();
    QVERIFY(QFile::setPermissions(path, perms));
}

constexpr QFile::Permissions k644 = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
constexpr QFile::Permissions k755 = k644 | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther;
constexpr QFile::Permissions k664 = k644 | QFile::WriteGroup;
constexpr QFile::Permissions k775 = k755 | QFile::WriteGroup;
constexpr QFile::Permissions k444 = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther;

}   // namespace

class TestPrivateData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void storeIsCreatedPrivate();
    void settingsAndGeneratedSshConfigArePrivate();
    void existingModesAreKeptAndOpenFoldersNamed();
    void readOnlyFilesStayReadOnly();
    void executableCreatesPrivateDataAndKeepsExistingModes();
    void windowLogsTheWarning();
    void helperSaysWhatItCouldNotCreate();

private:
    QTemporaryDir m_home;
};

void TestPrivateData::initTestCase()
{
    // The cache and the log folder are checked too: never the host's own.
    QVERIFY(m_home.isValid());
    qputenv("XDG_CACHE_HOME", m_home.filePath(QStringLiteral("cache")).toLocal8Bit());
    qputenv("XDG_STATE_HOME", m_home.filePath(QStringLiteral("state")).toLocal8Bit());
}

void TestPrivateData::storeIsCreatedPrivate()
{
    QTemporaryDir tmp;
    const QString data = tmp.filePath(QStringLiteral("share/ScaleLab"));
    RunStore store(data);
    QVERIFY2(store.runs().ok(), "the store opens");
    QCOMPARE(mode(data), QStringLiteral("700"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("600"));
    // SQLite gives the write-ahead log the database file's mode.
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite-wal")), QStringLiteral("600"));
    QCOMPARE(PrivateFiles::makeDirectory(store.runFilesDirectory(7)).errorText(), QString());
    QCOMPARE(mode(store.runFilesDirectory(7)), QStringLiteral("700"));
}

void TestPrivateData::settingsAndGeneratedSshConfigArePrivate()
{
    QTemporaryDir tmp;
    const QString settings = tmp.filePath(QStringLiteral("config/ScaleLab/settings.ini"));
    qputenv("SCALELAB_SETTINGS_FILE", settings.toLocal8Bit());
    qputenv("SCALELAB_DATA_DIR", tmp.filePath(QStringLiteral("data")).toLocal8Bit());
    QCOMPARE(PrivateData::prepare(PrivateData::Create::Settings), QStringList());
    QCOMPARE(mode(QFileInfo(settings).absolutePath()), QStringLiteral("700"));
    QCOMPARE(mode(settings), QStringLiteral("600"));
    AppSettings::set(AppSettings::Key::PollIntervalSeconds, 45);   // QSettings rewrites the file
    QCOMPARE(mode(settings), QStringLiteral("600"));

    AppSettings::ClusterConnection c;
    c.hostName = QStringLiteral("login.example.org");
    c.user = QStringLiteral("researcher");
    QVERIFY(AppSettings::setClusterConnection(QStringLiteral("puhti"), c).ok());
    QCOMPARE(AppSettings::writeGeneratedConfig().errorText(), QString());
    QCOMPARE(mode(AppSettings::generatedConfigPath()), QStringLiteral("600"));
    QCOMPARE(AppSettings::writeGeneratedConfig().errorText(), QString());   // rewritten: keeps the mode
    QCOMPARE(mode(AppSettings::generatedConfigPath()), QStringLiteral("600"));
    qunsetenv("SCALELAB_SETTINGS_FILE");
    qunsetenv("SCALELAB_DATA_DIR");
}

void TestPrivateData::existingModesAreKeptAndOpenFoldersNamed()
{
    QTemporaryDir tmp;
    const QString data = tmp.filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(data + QStringLiteral("/runs/3")));
    QVERIFY(QFile::setPermissions(data, k755));
    QVERIFY(QFile::setPermissions(data + QStringLiteral("/runs"), k755));
    writeFile(data + QStringLiteral("/runs.sqlite"), k644);
    writeFile(data + QStringLiteral("/hook.sh"), k755);
    writeFile(data + QStringLiteral("/notes.txt"), k444);
    // A team folder holding the settings: group-writable, files 664.
    const QString team = tmp.filePath(QStringLiteral("team"));
    QVERIFY(QDir().mkpath(team));
    QVERIFY(QFile::setPermissions(team, k775));
    writeFile(team + QStringLiteral("/settings.ini"), k664);
    writeFile(team + QStringLiteral("/shared.txt"), k664);
    qputenv("SCALELAB_DATA_DIR", data.toLocal8Bit());
    qputenv("SCALELAB_SETTINGS_FILE", (team + QStringLiteral("/settings.ini")).toLocal8Bit());

    const QStringList warnings = PrivateData::prepare(PrivateData::Create::Settings);
    QCOMPARE(warnings.size(), 2);
    QVERIFY2(warnings[0].startsWith(data
                                    + QStringLiteral(" is open to others (mode 0755) and 4 entries in it are "
                                                     "readable by them")),
             qPrintable(warnings[0]));
    QVERIFY2(warnings[1].startsWith(team + QStringLiteral(" is open to others (mode 0775) and 2 entries")),
             qPrintable(warnings[1]));
    QVERIFY2(warnings[1].contains(QStringLiteral("chmod 700 ") + team), qPrintable(warnings[1]));
    // Nothing changed.
    QCOMPARE(mode(data), QStringLiteral("755"));
    QCOMPARE(mode(data + QStringLiteral("/runs")), QStringLiteral("755"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("644"));
    QCOMPARE(mode(data + QStringLiteral("/hook.sh")), QStringLiteral("755"));
    QCOMPARE(mode(data + QStringLiteral("/notes.txt")), QStringLiteral("444"));
    QCOMPARE(mode(team), QStringLiteral("775"));
    QCOMPARE(mode(team + QStringLiteral("/settings.ini")), QStringLiteral("664"));
    QCOMPARE(mode(team + QStringLiteral("/shared.txt")), QStringLiteral("664"));

    // Owner-only folders give no warning, whatever their files' modes.
    QVERIFY(QFile::setPermissions(data, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QVERIFY(QFile::setPermissions(team, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QCOMPARE(PrivateData::prepare(PrivateData::Create::Nothing), QStringList());
    QCOMPARE(mode(team + QStringLiteral("/settings.ini")), QStringLiteral("664"));
    qunsetenv("SCALELAB_DATA_DIR");
    qunsetenv("SCALELAB_SETTINGS_FILE");
}

void TestPrivateData::readOnlyFilesStayReadOnly()
{
    QTemporaryDir tmp;
    // The run store's file, read-only: the store says so instead of making it writable.
    const QString data = tmp.filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(data));
    writeFile(data + QStringLiteral("/runs.sqlite"), k444);
    {
        RunStore store(data);
        const QString error = store.runs().errorText();
        QVERIFY2(error.contains(data + QStringLiteral("/runs.sqlite is read-only (mode 0444)")), qPrintable(error));
    }
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("444"));

    // The SSH config the settings dialog writes, made read-only by the researcher.
    const QString settings = tmp.filePath(QStringLiteral("cfg/settings.ini"));
    qputenv("SCALELAB_SETTINGS_FILE", settings.toLocal8Bit());
    QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("cfg"))));
    writeFile(AppSettings::generatedConfigPath(), k444);
    AppSettings::ClusterConnection c;
    c.hostName = QStringLiteral("login.example.org");
    QVERIFY(AppSettings::setClusterConnection(QStringLiteral("puhti"), c).ok());
    const QString error = AppSettings::writeGeneratedConfig().errorText();
    QVERIFY2(error.contains(AppSettings::generatedConfigPath() + QStringLiteral(" is read-only (mode 0444)")),
             qPrintable(error));
    QCOMPARE(mode(AppSettings::generatedConfigPath()), QStringLiteral("444"));
    QVERIFY(AppSettings::setClusterConnection(QStringLiteral("puhti"), {}).ok());
    qunsetenv("SCALELAB_SETTINGS_FILE");
}

void TestPrivateData::executableCreatesPrivateDataAndKeepsExistingModes()
{
    // A first start with a fresh home: the default places, no overrides.
    QTemporaryDir home;
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), home.path());
    for (const char *v : {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "SCALELAB_DATA_DIR",
                          "SCALELAB_SETTINGS_FILE"})
        env.insert(QString::fromLatin1(v), QString());
    const auto first = test::runCli({QStringLiteral("runs")}, env);
    QCOMPARE(first.err, QString());
    QCOMPARE(first.exitCode, 0);
    const QString data = home.filePath(QStringLiteral(".local/share/ScaleLab"));
    // Every folder ScaleLab created on the way is owner-only.
    for (const char *dir : {".local", ".local/share", ".local/share/ScaleLab", ".local/state/ScaleLab"})
        QCOMPARE(mode(home.filePath(QString::fromLatin1(dir))), QStringLiteral("700"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("600"));
    QCOMPARE(mode(home.filePath(QStringLiteral(".local/state/ScaleLab/scalelab.log"))), QStringLiteral("600"));

    // Left open by an older version (or on purpose): the next start names
    // the folders and changes nothing.
    QVERIFY(QFile::setPermissions(data, k755));
    QVERIFY(QFile::setPermissions(data + QStringLiteral("/runs.sqlite"), k644));
    QVERIFY(QDir().mkpath(home.filePath(QStringLiteral(".config/ScaleLab"))));
    QVERIFY(QFile::setPermissions(home.filePath(QStringLiteral(".config/ScaleLab")), k755));
    writeFile(home.filePath(QStringLiteral(".config/ScaleLab/ScaleLab.conf")), k644);
    const auto second = test::runCli({QStringLiteral("profiles")}, env);
    QCOMPARE(second.exitCode, 0);
    QVERIFY2(second.err.contains(QStringLiteral("scalelab: warning: %1 is open to others (mode 0755)").arg(data)),
             qPrintable(second.err));
    QVERIFY2(second.err.contains(home.filePath(QStringLiteral(".config/ScaleLab is open to others (mode 0755)"))),
             qPrintable(second.err));
    QCOMPARE(mode(data), QStringLiteral("755"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("644"));
    QCOMPARE(mode(home.filePath(QStringLiteral(".config/ScaleLab"))), QStringLiteral("755"));
    QCOMPARE(mode(home.filePath(QStringLiteral(".config/ScaleLab/ScaleLab.conf"))), QStringLiteral("644"));

    // A read-only file in the folder SCALELAB_DATA_DIR names stays read-only;
    // the store ScaleLab creates beside it is owner-only.
    const QString mine = home.filePath(QStringLiteral("mydata"));
    QVERIFY(QDir().mkpath(mine));
    writeFile(mine + QStringLiteral("/notes.txt"), k444);
    env.insert(QStringLiteral("SCALELAB_DATA_DIR"), mine);
    const auto third = test::runCli({QStringLiteral("runs")}, env);
    QCOMPARE(third.exitCode, 0);
    QCOMPARE(mode(mine + QStringLiteral("/notes.txt")), QStringLiteral("444"));
    QCOMPARE(mode(mine + QStringLiteral("/runs.sqlite")), QStringLiteral("600"));
}

void TestPrivateData::windowLogsTheWarning()
{
    // The window writes the warning to the log (and its status bar), not stderr.
    QTemporaryDir tmp;
    const QString data = tmp.filePath(QStringLiteral("team-data"));
    QVERIFY(QDir().mkpath(data));
    QVERIFY(QFile::setPermissions(data, k775));
    QProcessEnvironment env;
    env.insert(QStringLiteral("SCALELAB_DATA_DIR"), data);
    env.insert(QStringLiteral("SCALELAB_SETTINGS_FILE"), tmp.filePath(QStringLiteral("cfg/settings.ini")));
    env.insert(QStringLiteral("HOME"), tmp.path());
    env.insert(QStringLiteral("XDG_STATE_HOME"), tmp.filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), tmp.filePath(QStringLiteral("cache")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("SCALELAB_EXIT_AFTER_SHOWN"), QStringLiteral("1"));
    const auto run = test::runCli({}, env);
    QCOMPARE(run.exitCode, 0);
    QFile log(tmp.filePath(QStringLiteral("state/ScaleLab/scalelab.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(log.readAll());
    QVERIFY2(text.contains(QStringLiteral("scalelab.ui warning: %1 is open to others (mode 0775)").arg(data)),
             qPrintable(text));
    QCOMPARE(mode(data), QStringLiteral("775"));
    QCOMPARE(mode(tmp.filePath(QStringLiteral("cfg"))), QStringLiteral("700"));   // created by the window
    QCOMPARE(mode(tmp.filePath(QStringLiteral("cfg/settings.ini"))), QStringLiteral("600"));
}

void TestPrivateData::helperSaysWhatItCouldNotCreate()
{
    QTemporaryDir tmp;
    writeFile(tmp.filePath(QStringLiteral("plain")), k644);
    // A file where the parent folder should be: the message names it.
    QCOMPARE(PrivateFiles::makeDirectory(tmp.filePath(QStringLiteral("plain/data/runs"))).errorText(),
             QStringLiteral("cannot create the folder %1").arg(tmp.filePath(QStringLiteral("plain/data"))));
}

QTEST_GUILESS_MAIN(TestPrivateData)
#include "tst_privatedata.moc"
