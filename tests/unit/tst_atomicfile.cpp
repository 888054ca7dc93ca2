// SPDX-License-Identifier: GPL-3.0-or-later
// AtomicFile: a file is replaced whole or not at all. A full disk (a 64 KiB
// tmpfs, mounted when the test runs as root) leaves the previous file as it
// was and names the file and the reason; a folder or a missing folder where
// the file should be is refused; a replaced file keeps its permissions; the
// same holds for writers that take only a file name (writeThrough).
#include "core/base/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool run(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

// Files in `dir` other than `keep`: temporaries left behind.
QStringList othersIn(const QString &dir, const QString &keep)
{
    QStringList names = QDir(dir).entryList(QDir::Files | QDir::Hidden);
    names.removeAll(keep);
    return names;
}

}   // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesAndReplaces();
    void folderOrMissingFolderIsRefused();
    void keepsThePermissionsOfTheFileItReplaces();
    void fullDiskLeavesThePreviousFile();
    void writeThroughReplacesOnlyWhatWasWritten();
    void cleanupTestCase();

private:
    QTemporaryDir m_dir;
    QString m_mounted;
};

void TestAtomicFile::writesAndReplaces()
{
    const QString path = m_dir.filePath(QStringLiteral("spec.json"));
    QVERIFY(AtomicFile::write(path, "first").ok());
    QCOMPARE(readAll(path), QByteArray("first"));
    QVERIFY(AtomicFile::write(path, "second, longer").ok());
    QCOMPARE(readAll(path), QByteArray("second, longer"));
    QCOMPARE(othersIn(m_dir.path(), QStringLiteral("spec.json")), QStringList());
    // Not committed: the previous file stays, the temporary goes.
    {
        AtomicFile file(path);
        QVERIFY(file.open().ok());
        file.device()->write("abandoned");
    }
    QCOMPARE(readAll(path), QByteArray("second, longer"));
    QCOMPARE(othersIn(m_dir.path(), QStringLiteral("spec.json")), QStringList());
}

void TestAtomicFile::folderOrMissingFolderIsRefused()
{
    const QString folder = m_dir.filePath(QStringLiteral("reports"));
    QVERIFY(QDir().mkpath(folder));
    const auto onFolder = AtomicFile::write(folder, "pdf");
    QVERIFY(onFolder.failedWith(ErrorCode::LocalFile));
    QCOMPARE(onFolder.errorText(),
             QStringLiteral("could not write %1: it is a folder; give a file name inside it").arg(folder));
    QVERIFY(QFileInfo(folder).isDir());
    const QString missing = m_dir.filePath(QStringLiteral("no-such-folder/r.pdf"));
    QCOMPARE(AtomicFile::write(missing, "pdf").errorText(),
             QStringLiteral("could not write %1: the folder %2 does not exist")
                 .arg(missing, m_dir.filePath(QStringLiteral("no-such-folder"))));
    const auto through = AtomicFile::writeThrough(folder, [](const QString &) { return true; });
    QVERIFY(through.errorText().contains(QLatin1String("it is a folder")));
}

void TestAtomicFile::keepsThePermissionsOfTheFileItReplaces()
{
    const QString path = m_dir.filePath(QStringLiteral("scalelab-ssh_config"));
    QVERIFY(AtomicFile::write(path, "Host a\n").ok());
    const auto owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    QVERIFY(QFile::setPermissions(path, owner));
    QVERIFY(AtomicFile::write(path, "Host b\n").ok());
    QCOMPARE(QFileInfo(path).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser), owner);
    QVERIFY(AtomicFile::writeThrough(path, [](const QString &temp) {
                QFile f(temp);
                return f.open(QIODevice::WriteOnly) && f.write("Host c\n") == 7;
            }).ok());
    QCOMPARE(readAll(path), QByteArray("Host c\n"));
    QCOMPARE(QFileInfo(path).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser), owner);
}

void TestAtomicFile::fullDiskLeavesThePreviousFile()
{
    const QString small = m_dir.filePath(QStringLiteral("small"));
    QVERIFY(QDir().mkpath(small));
    if (!run(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                       QStringLiteral("size=64k"), QStringLiteral("tmpfs"), small}))
        QSKIP("a 64 KiB tmpfs could not be mounted (needs root)");
    m_mounted = small;
    const QString path = small + QStringLiteral("/report.pdf");
    const QByteArray previous(20 * 1024, 'p');
    QVERIFY(AtomicFile::write(path, previous).ok());
    const auto tooBig = AtomicFile::write(path, QByteArray(200 * 1024, 'n'));
    QVERIFY(tooBig.failedWith(ErrorCode::LocalFile));
    QVERIFY2(tooBig.errorText().startsWith(QStringLiteral("could not write %1: ").arg(path)),
             qPrintable(tooBig.errorText()));
    QVERIFY2(tooBig.errorText().contains(QLatin1String("No space left on device")), qPrintable(tooBig.errorText()));
    QCOMPARE(readAll(path), previous);
    QCOMPARE(othersIn(small, QStringLiteral("report.pdf")), QStringList());
    // The same through a writer that takes a file name.
    const auto through = AtomicFile::writeThrough(path, [](const QString &temp) {
        QFile f(temp);
        return f.open(QIODevice::WriteOnly) && f.write(QByteArray(200 * 1024, 'n')) == 200 * 1024 && f.flush();
    });
    QVERIFY(!through.ok());
    QCOMPARE(readAll(path), previous);
    QCOMPARE(othersIn(small, QStringLiteral("report.pdf")), QStringList());
}

void TestAtomicFile::writeThroughReplacesOnlyWhatWasWritten()
{
    const QString path = m_dir.filePath(QStringLiteral("chart.pdf"));
    QVERIFY(AtomicFile::write(path, "previous chart").ok());
    // A writer that fails, or writes nothing, leaves the previous file.
    QVERIFY(!AtomicFile::writeThrough(path, [](const QString &) { return false; }).ok());
    QCOMPARE(readAll(path), QByteArray("previous chart"));
    const auto empty = AtomicFile::writeThrough(path, [](const QString &) { return true; });
    QCOMPARE(empty.errorText(), QStringLiteral("could not write %1: nothing was written").arg(path));
    QCOMPARE(readAll(path), QByteArray("previous chart"));
    QCOMPARE(othersIn(m_dir.path(), QStringLiteral("chart.pdf")).filter(QStringLiteral("chart.pdf")), QStringList());
}

void TestAtomicFile::cleanupTestCase()
{
    if (!m_mounted.isEmpty())
        run(QStringLiteral("umount"), {m_mounted});
}

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
