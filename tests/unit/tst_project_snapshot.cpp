// SPDX-License-Identifier: GPL-3.0-or-later
// A project folder's snapshot (core/project): the ignore rules as gitignore(5)
// writes them, the defaults, the walk over hostile shapes (deep trees, many
// files, links out of the folder and in loops, FIFOs, control characters),
// the caps and their refusal, the manifest, the git state, and the tar
// records the snapshot travels in.
#include "core/base/Sha256.h"
#include "core/model/ProjectManifest.h"
#include "core/project/GitState.h"
#include "core/project/ProjectIgnore.h"
#include "core/project/ProjectSnapshotter.h"
#include "core/project/TarWriter.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace scalelab;

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(data);
}

QStringList paths(const ProjectSnapshot &s)
{
    QStringList out;
    for (const ProjectFile &f : s.manifest.files)
        out << f.path;
    return out;
}

}   // namespace

class TestProjectSnapshot : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ignoreRules_data()
    {
        QTest::addColumn<QByteArray>("rules");
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("isDir");
        QTest::addColumn<int>("expected");   // 1 excluded, 0 re-included, -1 no rule
        QTest::newRow("name at any depth") << QByteArray("*.log\n") << ""
                                           << "a/b/run.log" << false << 1;
        QTest::newRow("no partial name") << QByteArray("*.log\n") << ""
                                         << "run.logs" << false << -1;
        QTest::newRow("leading slash anchors") << QByteArray("/build\n") << ""
                                               << "src/build" << true << -1;
        QTest::newRow("anchored at root") << QByteArray("/build\n") << ""
                                          << "build" << true << 1;
        QTest::newRow("middle slash anchors") << QByteArray("doc/frotz\n") << ""
                                              << "a/doc/frotz" << false << -1;
        QTest::newRow("middle slash matches") << QByteArray("doc/frotz\n") << ""
                                              << "doc/frotz" << false << 1;
        QTest::newRow("folder only: folder") << QByteArray("out/\n") << ""
                                             << "x/out" << true << 1;
        QTest::newRow("folder only: file") << QByteArray("out/\n") << ""
                                           << "x/out" << false << -1;
        QTest::newRow("negation later wins") << QByteArray("*.log\n!keep.log\n") << ""
                                             << "keep.log" << false << 0;
        QTest::newRow("negation earlier loses") << QByteArray("!keep.log\n*.log\n") << ""
                                                << "keep.log" << false << 1;
        QTest::newRow("leading **/") << QByteArray("**/cache\n") << ""
                                     << "a/b/cache" << true << 1;
        QTest::newRow("leading **/ at root") << QByteArray("**/cache\n") << ""
                                             << "cache" << true << 1;
        QTest::newRow("middle /**/ zero folders") << QByteArray("a/**/b\n") << ""
                                                  << "a/b" << false << 1;
        QTest::newRow("middle /**/ many folders") << QByteArray("a/**/b\n") << ""
                                                  << "a/x/y/b" << false << 1;
        QTest::newRow("trailing /** inside") << QByteArray("abc/**\n") << ""
                                             << "abc/x/y" << false << 1;
        QTest::newRow("trailing /** not itself") << QByteArray("abc/**\n") << ""
                                                 << "abc" << true << -1;
        QTest::newRow("star stops at slash") << QByteArray("a/*.py\n") << ""
                                             << "a/b/c.py" << false << -1;
        QTest::newRow("class range") << QByteArray("[a-c]?.txt\n") << ""
                                     << "b9.txt" << false << 1;
        QTest::newRow("negated class") << QByteArray("[!a-c]?.txt\n") << ""
                                       << "b9.txt" << false << -1;
        QTest::newRow("escaped hash") << QByteArray("\\#notes\n") << ""
                                      << "#notes" << false << 1;
        QTest::newRow("comment") << QByteArray("#notes\n") << ""
                                 << "#notes" << false << -1;
        QTest::newRow("escaped bang") << QByteArray("\\!important\n") << ""
                                      << "!important" << false << 1;
        QTest::newRow("trailing spaces dropped") << QByteArray("data   \n") << ""
                                                 << "data" << true << 1;
        QTest::newRow("CRLF line") << QByteArray("data\r\n") << ""
                                   << "data" << true << 1;
        QTest::newRow("nested file: its subtree") << QByteArray("*.tmp\n") << "sub"
                                                  << "sub/x/y.tmp" << false << 1;
        QTest::newRow("nested file: not outside") << QByteArray("*.tmp\n") << "sub"
                                                  << "y.tmp" << false << -1;
        QTest::newRow("nested anchored") << QByteArray("/gen\n") << "sub"
                                         << "sub/gen" << true << 1;
        QTest::newRow("nested anchored deeper") << QByteArray("/gen\n") << "sub"
                                                << "sub/x/gen" << true << -1;
    }

    void ignoreRules()
    {
        QFETCH(QByteArray, rules);
        QFETCH(QString, base);
        QFETCH(QString, path);
        QFETCH(bool, isDir);
        QFETCH(int, expected);
        const auto d = ProjectIgnore::parse(rules, base).decide(path, isDir);
        QCOMPARE(d ? int(*d) : -1, expected);
    }

    // Many stars against a long name: a table of pattern × text positions,
    // never the exponential backtracking of a naive matcher.
    void ignoreHostilePattern()
    {
        const ProjectIgnore rules = ProjectIgnore::parse("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n");
        QCOMPARE(rules.decide(QString(4000, QLatin1Char('a')), false), std::optional<bool>());
        QCOMPARE(rules.decide(QString(4000, QLatin1Char('a')) + QLatin1Char('b'), false), std::optional<bool>(true));
    }

    void defaultsAndIgnoreFiles()
    {
        QTemporaryDir dir;
        const QString r = dir.path();
        writeFile(r + "/train.py", "print('hi')\n");
        writeFile(r + "/.git/HEAD", "ref: refs/heads/main\n");
        writeFile(r + "/pkg/__pycache__/m.cpython-311.pyc", "x");
        writeFile(r + "/pkg/m.py", "x = 1\n");
        writeFile(r + "/pkg/old.pyc", "x");
        writeFile(r + "/.venv/bin/python", "x");
        writeFile(r + "/myenv/pyvenv.cfg", "home = /usr/bin\n");
        writeFile(r + "/myenv/lib/site.py", "x");
        writeFile(r + "/env/notes.txt", "an ordinary folder named env\n");
        writeFile(r + "/.gitignore", "*.log\n!keep.log\ncheckpoints/\n");
        writeFile(r + "/run.log", "x");
        writeFile(r + "/keep.log", "kept\n");
        writeFile(r + "/checkpoints/ep1.pt", "x");
        writeFile(r + "/checkpoints.txt", "a file, not the folder\n");
        writeFile(r + "/.scalelabignore", "data/\n");
        writeFile(r + "/data/big.bin", "x");
        writeFile(r + "/sub/.gitignore", "*.tmp\n!/keep.tmp\n");
        writeFile(r + "/sub/a.tmp", "x");
        writeFile(r + "/sub/keep.tmp", "kept\n");
        writeFile(r + "/other/b.tmp", "not under sub's rules\n");
        const auto s = ProjectSnapshotter::take(r);
        QVERIFY2(s.ok(), qPrintable(s.errorText()));
        QCOMPARE(paths(*s),
                 (QStringList{".gitignore", ".scalelabignore", "checkpoints.txt", "env/notes.txt", "keep.log",
                              "other/b.tmp", "pkg/m.py", "sub/.gitignore", "sub/keep.tmp", "train.py"}));
        QCOMPARE(s->excluded, 9);
    }

    void manifestAndId()
    {
        QTemporaryDir dir;
        writeFile(dir.path() + "/b/run.sh", "#!/bin/sh\n");
        QVERIFY(QFile::setPermissions(dir.path() + "/b/run.sh",
                                      QFile::permissions(dir.path() + "/b/run.sh") | QFileDevice::ExeOwner));
        writeFile(dir.path() + "/a.txt", "hello\n");
        const auto s = ProjectSnapshotter::take(dir.path());
        QVERIFY2(s.ok(), qPrintable(s.errorText()));
        // sha256("hello\n"), as sha256sum prints it.
        const QByteArray hello = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";
        QCOMPARE(s->manifest.files.at(0), (ProjectFile{"a.txt", 6, false, hello}));
        QCOMPARE(s->manifest.files.at(1).path, QStringLiteral("b/run.sh"));
        QVERIFY(s->manifest.files.at(1).executable);
        QCOMPARE(s->manifest.files.at(1).objectName(), Sha256::hexOf("#!/bin/sh\n") + ".x");
        const QByteArray text = s->manifest.text();
        QCOMPARE(text, hello + " 6 644 a.txt\n" + Sha256::hexOf("#!/bin/sh\n") + " 10 755 b/run.sh\n");
        QCOMPARE(s->id, Sha256::hexOf(text));
        QCOMPARE(ProjectManifest::fromText(text).value(), s->manifest);
        const auto bad = ProjectManifest::fromText(text + "nonsense line\n");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.errorText().contains(QLatin1String("line 3")), qPrintable(bad.errorText()));
        // The same files elsewhere: the same id.
        QTemporaryDir other;
        writeFile(other.path() + "/a.txt", "hello\n");
        writeFile(other.path() + "/b/run.sh", "#!/bin/sh\n");
        QVERIFY(QFile::setPermissions(other.path() + "/b/run.sh",
                                      QFile::permissions(other.path() + "/b/run.sh") | QFileDevice::ExeOwner));
        QCOMPARE(ProjectSnapshotter::take(other.path()).value().id, s->id);
    }

    // Links are never followed out of the folder nor into folders; loops end.
    void symlinksAndSpecialFiles()
    {
        QTemporaryDir outside;
        writeFile(outside.path() + "/secret.txt", "not part of the project\n");
        QTemporaryDir dir;
        const QString r = dir.path();
        writeFile(r + "/real/data.txt", "inside\n");
        QVERIFY(QFile::link(r + "/real/data.txt", r + "/alias.txt"));
        QVERIFY(QFile::link(r + "/real", r + "/dirlink"));
        QVERIFY(QFile::link(r, r + "/real/up"));   // a loop through the parent
        QVERIFY(QFile::link(outside.path() + "/secret.txt", r + "/out.txt"));
        QVERIFY(QFile::link(r + "/missing", r + "/dangling"));
        QVERIFY(QFile::link(r + "/loop-b", r + "/loop-a"));
        QVERIFY(QFile::link(r + "/loop-a", r + "/loop-b"));
        QCOMPARE(::mkfifo(QFile::encodeName(r + "/pipe").constData(), 0600), 0);
        writeFile(r + QStringLiteral("/bad\nname"), "x");
        const auto s = ProjectSnapshotter::take(r);
        QVERIFY2(s.ok(), qPrintable(s.errorText()));
        QCOMPARE(paths(*s), (QStringList{"alias.txt", "real/data.txt"}));
        QCOMPARE(s->manifest.files.at(0).sha256, Sha256::hexOf("inside\n"));
        const QString skipped = s->skipped.join('\n');
        for (const char *why :
             {"dirlink: a symbolic link to a folder", "real/up: a symbolic link to a folder",
              "out.txt: a symbolic link out of the project folder", "dangling: a symbolic link to nothing",
              "loop-a: a symbolic link to nothing", "pipe: not a regular file", "bad?name: the name has a control"})
            QVERIFY2(skipped.contains(QLatin1String(why)), qPrintable(skipped));
    }

    void deepTree()
    {
        QTemporaryDir dir;
        QString path = dir.path();
        for (int i = 0; i < 1000; ++i)
            path += QStringLiteral("/d");
        writeFile(path + "/leaf.txt", "deep\n");
        const auto s = ProjectSnapshotter::take(dir.path());
        QVERIFY2(s.ok(), qPrintable(s.errorText()));
        QCOMPARE(s->manifest.files.size(), 1);
        QVERIFY(s->manifest.files.at(0).path.endsWith(QLatin1String("/d/leaf.txt")));
        QCOMPARE(s->manifest.files.at(0).path.count(QLatin1Char('/')), 1000);
    }

    void manyFiles()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 5000; ++i)
            writeFile(dir.path() + QStringLiteral("/f/%1.txt").arg(i), QByteArray::number(i));
        const auto s = ProjectSnapshotter::take(dir.path());
        QVERIFY2(s.ok(), qPrintable(s.errorText()));
        QCOMPARE(s->manifest.files.size(), 5000);
        QCOMPARE(s->manifest.files.first().path, QStringLiteral("f/0.txt"));
        QCOMPARE(s->manifest.files.last().path, QStringLiteral("f/999.txt"));   // byte order, as LC_ALL=C sort
    }

    void capsNameTheOffenders()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 30; ++i)
            writeFile(dir.path() + QStringLiteral("/logs/%1.txt").arg(i), "x");
        writeFile(dir.path() + "/model.ckpt", QByteArray(5000, 'w'));
        writeFile(dir.path() + "/train.py", "x");
        const auto overCount = ProjectSnapshotter::take(dir.path(), SnapshotLimits{10, 1 << 20});
        QVERIFY(!overCount.ok());
        QVERIFY(overCount.failedWith(ErrorCode::InvalidValue));
        const QString m = overCount.errorText();
        QVERIFY2(m.contains(QLatin1String("32 files")) && m.contains(QLatin1String("cap of 10 files")), qPrintable(m));
        QVERIFY2(m.contains(QLatin1String("logs/  (30 files")), qPrintable(m));
        QVERIFY2(m.contains(QLatin1String("model.ckpt  (5.0 kB)")), qPrintable(m));
        QVERIFY2(m.contains(QLatin1String(".scalelabignore")), qPrintable(m));
        const auto overBytes = ProjectSnapshotter::take(dir.path(), SnapshotLimits{1000, 4000});
        QVERIFY(!overBytes.ok());
        QVERIFY2(overBytes.errorText().contains(QLatin1String("model.ckpt")), qPrintable(overBytes.errorText()));
        writeFile(dir.path() + "/.scalelabignore", "logs/\n*.ckpt\n");
        const auto fits = ProjectSnapshotter::take(dir.path(), SnapshotLimits{10, 4000});
        QVERIFY2(fits.ok(), qPrintable(fits.errorText()));
        QCOMPARE(paths(*fits), (QStringList{".scalelabignore", "train.py"}));
    }

    void missingFolder()
    {
        const auto s = ProjectSnapshotter::take(QStringLiteral("/nonexistent/project"));
        QVERIFY(s.failedWith(ErrorCode::InvalidValue));
        QVERIFY(s.errorText().contains(QLatin1String("does not exist")));
    }

    void gitStatusParser()
    {
        const QByteArray clean = "# branch.oid 0123456789abcdef0123456789abcdef01234567\n# branch.head main\n";
        QCOMPARE(GitState::parseStatus(clean)->commit, QStringLiteral("0123456789abcdef0123456789abcdef01234567"));
        QCOMPARE(GitState::parseStatus(clean)->dirty, false);
        QCOMPARE(GitState::parseStatus(clean + "? new.py\n")->dirty, true);
        QCOMPARE(GitState::parseStatus("# branch.oid (initial)\n# branch.head main\n"), std::nullopt);
        QCOMPARE(GitState::parseStatus(""), std::nullopt);
    }

    void gitWorkTree()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed");
        QTemporaryDir dir;
        writeFile(dir.path() + "/train.py", "x\n");
        QCOMPARE(ProjectSnapshotter::take(dir.path()).value().gitCommit, QString());   // not a work tree
        auto git = [&](const QStringList &args) {
            QProcess p;
            p.setWorkingDirectory(dir.path());
            p.start("git", QStringList{"-c", "user.name=A researcher", "-c", "user.email=r@example.org"} + args);
            return p.waitForFinished(20000) && p.exitCode() == 0;
        };
        QVERIFY(git({"init", "-q"}));
        QVERIFY(git({"add", "train.py"}));
        QVERIFY(git({"commit", "-q", "-m", "first"}));
        const auto clean = ProjectSnapshotter::take(dir.path());
        QCOMPARE(clean->gitCommit.size(), 40);
        QCOMPARE(clean->gitDirty, std::optional<bool>(false));
        writeFile(dir.path() + "/train.py", "y\n");
        const auto dirty = ProjectSnapshotter::take(dir.path());
        QCOMPARE(dirty->gitCommit, clean->gitCommit);
        QCOMPARE(dirty->gitDirty, std::optional<bool>(true));
        QVERIFY(!paths(*dirty).contains(QStringLiteral(".git/HEAD")));
    }

    // The records unpack with the system's tar: files with their modes, a
    // name longer than the ustar field, and a hard link; gzipped too.
    void tarRecords()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("tar")).isEmpty())
            QSKIP("tar is not installed");
        QByteArray stream;
        TarWriter tar(stream);
        const QByteArray longName = QByteArray("deep/") + QByteArray(150, 'n') + "/file.txt";
        tar.addFile("obj", 0444, "content\n", 1700000000);
        tar.addFile("tool", 0555, "#!/bin/sh\n", 1700000000);
        tar.addFile(longName, 0644, QByteArray(1000, 'z'), 1700000000);
        tar.addHardLink("run/" + QByteArray(120, 'l') + "/code.py", "obj");
        tar.finish();
        QCOMPARE(stream.size() % 512, 0);
        QTemporaryDir out;
        QProcess p;
        p.setWorkingDirectory(out.path());
        p.start("tar", {"-xzf", "-"});   // gzipped, as the run folder's layout travels
        p.write(TarWriter::gzip(stream));
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        QFile obj(out.path() + "/obj");
        QVERIFY(obj.open(QIODevice::ReadOnly));
        QCOMPARE(obj.readAll(), QByteArray("content\n"));
        QVERIFY(QFileInfo(out.path() + "/tool").permissions().testFlag(QFileDevice::ExeOwner));
        QVERIFY(!QFileInfo(out.path() + "/obj").permissions().testFlag(QFileDevice::WriteOwner));
        QCOMPARE(QFileInfo(out.path() + "/" + QString::fromLatin1(longName)).size(), 1000);
        struct stat a {
        }, b{};
        QCOMPARE(::stat(QFile::encodeName(out.path() + "/obj").constData(), &a), 0);
        const QString link = out.path() + "/run/" + QString(120, 'l') + "/code.py";
        QCOMPARE(::stat(QFile::encodeName(link).constData(), &b), 0);
        QCOMPARE(a.st_ino, b.st_ino);
    }
};

QTEST_GUILESS_MAIN(TestProjectSnapshot)
#include "tst_project_snapshot.moc"
