// SPDX-License-Identifier: GPL-3.0-or-later
// The researcher's data is owner-only from the first start: the run store,
// the settings, the SSH config the app writes and fetched run folders are
// created 0700/0600, and folders left open by older versions are tightened
// at the next start — by the library calls and by the real executable.
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

}   // namespace

class TestPrivateData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void storeIsCreatedPrivate();
    void settingsAndGeneratedSshConfigArePrivate();
    void openFoldersAreTightenedAtStart();
    void executableCreatesAndTightensPrivateData();
    void helperSaysWhatItCouldNotCreate();
};

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
    QCOMPARE(PrivateFiles::makeDirectory(store.runFilesDirectory(7)), QString());
    QCOMPARE(mode(store.runFilesDirectory(7)), QStringLiteral("700"));
}

void TestPrivateData::settingsAndGeneratedSshConfigArePrivate()
{
    QTemporaryDir tmp;
    const QString settings = tmp.filePath(QStringLiteral("config/ScaleLab/settings.ini"));
    qputenv("SCALELAB_SETTINGS_FILE", settings.toLocal8Bit());
    qputenv("SCALELAB_DATA_DIR", tmp.filePath(QStringLiteral("data")).toLocal8Bit());
    QCOMPARE(PrivateData::secure(PrivateData::Create::Settings), QStringList());
    QCOMPARE(mode(QFileInfo(settings).absolutePath()), QStringLiteral("700"));
    QCOMPARE(mode(settings), QStringLiteral("600"));
    AppSettings::set(AppSettings::Key::PollIntervalSeconds, 45);   // QSettings rewrites the file
    QCOMPARE(mode(settings), QStringLiteral("600"));

    AppSettings::ClusterConnection c;
    c.hostName = QStringLiteral("login.example.org");
    c.user = QStringLiteral("researcher");
    AppSettings::setClusterConnection(QStringLiteral("puhti"), c);
    QCOMPARE(AppSettings::writeGeneratedConfig(), QString());
    QCOMPARE(mode(AppSettings::generatedConfigPath()), QStringLiteral("600"));
    QCOMPARE(AppSettings::writeGeneratedConfig(), QString());   // rewritten: keeps the mode
    QCOMPARE(mode(AppSettings::generatedConfigPath()), QStringLiteral("600"));
    qunsetenv("SCALELAB_SETTINGS_FILE");
    qunsetenv("SCALELAB_DATA_DIR");
}

void TestPrivateData::openFoldersAreTightenedAtStart()
{
    QTemporaryDir tmp;
    const QString data = tmp.filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(data + QStringLiteral("/runs/3")));
    QVERIFY(QFile::setPermissions(data, k755));
    QVERIFY(QFile::setPermissions(data + QStringLiteral("/runs"), k755));
    writeFile(data + QStringLiteral("/runs.sqlite"), k644);
    writeFile(data + QStringLiteral("/hook.sh"), k755);
    writeFile(tmp.filePath(QStringLiteral("elsewhere.txt")), k644);
    QVERIFY(QFile::link(tmp.filePath(QStringLiteral("elsewhere.txt")), data + QStringLiteral("/link")));
    qputenv("SCALELAB_DATA_DIR", data.toLocal8Bit());
    qputenv("SCALELAB_SETTINGS_FILE", tmp.filePath(QStringLiteral("cfg/settings.ini")).toLocal8Bit());
    QCOMPARE(PrivateData::secure(PrivateData::Create::Nothing), QStringList());
    QCOMPARE(mode(data), QStringLiteral("700"));
    QCOMPARE(mode(data + QStringLiteral("/runs")), QStringLiteral("700"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("600"));
    QCOMPARE(mode(data + QStringLiteral("/hook.sh")), QStringLiteral("700"));   // owner keeps x
    QCOMPARE(mode(tmp.filePath(QStringLiteral("elsewhere.txt"))), QStringLiteral("644"));   // links not followed
    QVERIFY2(!QFileInfo::exists(tmp.filePath(QStringLiteral("cfg"))), "Create::Nothing creates nothing");
    qunsetenv("SCALELAB_DATA_DIR");
    qunsetenv("SCALELAB_SETTINGS_FILE");
}

void TestPrivateData::executableCreatesAndTightensPrivateData()
{
    // A first start with a fresh home: the default places, no overrides.
    QTemporaryDir home;
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), home.path());
    for (const char *v :
         {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "SCALELAB_DATA_DIR", "SCALELAB_SETTINGS_FILE"})
        env.insert(QString::fromLatin1(v), QString());
    const auto first = test::runCli({QStringLiteral("runs")}, env);
    QCOMPARE(first.err, QString());
    QCOMPARE(first.exitCode, 0);
    const QString data = home.filePath(QStringLiteral(".local/share/ScaleLab"));
    QCOMPARE(mode(data), QStringLiteral("700"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("600"));

    // Left open by an older version: the next start closes it.
    QVERIFY(QFile::setPermissions(data, k755));
    QVERIFY(QFile::setPermissions(data + QStringLiteral("/runs.sqlite"), k644));
    QVERIFY(QDir().mkpath(home.filePath(QStringLiteral(".config/ScaleLab"))));
    QVERIFY(QFile::setPermissions(home.filePath(QStringLiteral(".config/ScaleLab")), k755));
    writeFile(home.filePath(QStringLiteral(".config/ScaleLab/ScaleLab.conf")), k644);
    const auto second = test::runCli({QStringLiteral("profiles")}, env);
    QCOMPARE(second.exitCode, 0);
    QCOMPARE(mode(data), QStringLiteral("700"));
    QCOMPARE(mode(data + QStringLiteral("/runs.sqlite")), QStringLiteral("600"));
    QCOMPARE(mode(home.filePath(QStringLiteral(".config/ScaleLab"))), QStringLiteral("700"));
    QCOMPARE(mode(home.filePath(QStringLiteral(".config/ScaleLab/ScaleLab.conf"))), QStringLiteral("600"));
}

void TestPrivateData::helperSaysWhatItCouldNotCreate()
{
    QTemporaryDir tmp;
    writeFile(tmp.filePath(QStringLiteral("plain")), k644);
    // A file where the parent folder should be: the message names it.
    QCOMPARE(PrivateFiles::makeDirectory(tmp.filePath(QStringLiteral("plain/data/runs"))),
             QStringLiteral("cannot create the folder %1").arg(tmp.filePath(QStringLiteral("plain/data"))));
}

QTEST_GUILESS_MAIN(TestPrivateData)
#include "tst_privatedata.moc"
