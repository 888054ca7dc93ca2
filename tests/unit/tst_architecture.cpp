// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps ARCHITECTURE.md's include arrows true: every #include in core/, ui/
// and app/ must point down (or sideways within its own folder), never up and
// never in a circle. A new folder fails until it is given its place here and
// in ARCHITECTURE.md.
#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

// Each room and the rooms it may include directly; what those may include is
// allowed too (the closure is taken below).
const QHash<QString, QStringList> &directArrows()
{
    static const QHash<QString, QStringList> arrows = {
        {"core/base", {}},
        {"core/sshconfig", {"core/base"}},
        {"core/slurm", {"core/base"}},
        {"core/model", {"core/slurm"}},
        {"core/profiles", {"core/model"}},
        {"core/discovery", {"core/model"}},
        {"core/compose", {"core/model"}},
        {"core/store", {"core/model"}},
        {"core/scriptimport", {"core/compose"}},
        {"core/project", {"core/model"}},
        {"core/client", {"core/compose", "core/store", "core/ingest", "core/discovery", "core/project"}},
        {"core/ssh", {"core/client", "core/sshconfig"}},
        {"core/ingest", {"core/store"}},
        {"core/analysis", {"core/store"}},
        // The window's folders see all of core except the SSH layer.
        {"ui/common",
         {"core/profiles", "core/discovery", "core/scriptimport", "core/client", "core/ingest", "core/analysis",
          "core/sshconfig"}},
        {"ui/compose", {"ui/common"}},
        {"ui/jobs", {"ui/common"}},
        {"ui/results", {"ui/common"}},
        {"ui/cluster", {"ui/results", "core/ssh"}},
        {"ui/window", {"ui/compose", "ui/jobs", "ui/results"}},
        {"app/cli", {"ui/results", "core/ssh"}},
        {"app", {"app/cli", "ui/window", "ui/cluster"}},
    };
    return arrows;
}

QHash<QString, QSet<QString>> closure()
{
    QHash<QString, QSet<QString>> reach;
    const auto &arrows = directArrows();
    for (auto it = arrows.begin(); it != arrows.end(); ++it) {
        QSet<QString> seen;
        QStringList todo = it.value();
        while (!todo.isEmpty()) {
            const QString next = todo.takeLast();
            if (seen.contains(next))
                continue;
            seen.insert(next);
            todo += arrows.value(next);
        }
        reach.insert(it.key(), seen);
    }
    return reach;
}

// "core/store/RunStore.cpp" -> "core/store"; "app/main.cpp" -> "app".
QString roomOf(const QString &path)
{
    const QStringList parts = path.split('/');
    if (parts.size() >= 3)
        return parts[0] + '/' + parts[1];
    return parts.value(0);
}

// Headers of libraries that only one room may use, and the rooms allowed.
struct Guarded {
    QRegularExpression pattern;
    QStringList rooms;
    QString what;
};

const QList<Guarded> &guardedHeaders()
{
    static const QList<Guarded> guarded = {
        {QRegularExpression(QStringLiteral("^libssh/")), {"core/ssh"}, QStringLiteral("libssh")},
        {QRegularExpression(QStringLiteral("^qcustomplot")), {"ui/results"}, QStringLiteral("QCustomPlot")},
        // RE2 runs the researchers' own patterns (core/ingest/UserRegex).
        {QRegularExpression(QStringLiteral("^re2/")), {"core/ingest"}, QStringLiteral("RE2")},
        // protobuf reads TensorBoard event files (core/ingest/TensorBoardEventReader).
        {QRegularExpression(QStringLiteral("^(google/protobuf/|\\w+\\.pb\\.h$)")),
         {"core/ingest"},
         QStringLiteral("protobuf")},
        // Widgets: never in core (core does not link Qt Widgets either).
        {QRegularExpression(QStringLiteral("^(QtWidgets/|Q(Widget|Dialog|MainWindow|Application|MessageBox|"
                                           "PushButton|Label|LineEdit|ComboBox|SpinBox|Layout)\\b)")),
         {"ui/common", "ui/compose", "ui/jobs", "ui/results", "ui/cluster", "ui/window", "app", "app/cli"},
         QStringLiteral("Qt Widgets")},
    };
    return guarded;
}

// POSIX-only headers: allowed only in Platform*Posix.cpp files, so a port to
// another system replaces those files and nothing else (README: Supported
// systems). The fault injector kills its own process for the crash tests.
bool posixAllowed(const QString &path)
{
    static const QRegularExpression platformFile(QStringLiteral("/Platform\\w*Posix\\.cpp$"));
    return platformFile.match(path).hasMatch() || path == QLatin1String("app/cli/FaultInjectingExecutor.cpp");
}

// Background work on Qt's global pool: Qt's raster engine splits large fills
// across that pool and waits for them on the GUI thread, so a long store read
// there froze painting (ui/common/BackgroundPool.h). One line per use.
QStringList globalPoolUses(const QList<QPair<QString, QString>> &files)
{
    static const QRegularExpression useRe(
        QStringLiteral("QtConcurrent::run\\((?!\\s*&backgroundPool\\(\\))|QThreadPool::globalInstance\\("));
    QStringList out;
    for (const auto &[path, text] : files)
        for (auto it = useRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            out << QStringLiteral("%1:%2: background work on Qt's global thread pool: pass &backgroundPool()")
                       .arg(path)
                       .arg(text.left(m.capturedStart()).count('\n') + 1);
        }
    return out;
}

// Results of background work come back through ui/common/RunInBackground.h
// (the context alive, the newest call only): a watcher written by hand forgets
// one or the other. One line per use.
QStringList handWrittenWatchers(const QList<QPair<QString, QString>> &files)
{
    static const QRegularExpression watcherRe(QStringLiteral("\\bQFutureWatcher\\b"));
    QStringList out;
    for (const auto &[path, text] : files) {
        if (path == QLatin1String("ui/common/RunInBackground.h"))
            continue;
        for (auto it = watcherRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            out << QStringLiteral("%1:%2: a QFutureWatcher by hand: use runInBackground or BackgroundLoader "
                                  "(ui/common/RunInBackground.h)")
                       .arg(path)
                       .arg(text.left(m.capturedStart()).count('\n') + 1);
        }
    }
    return out;
}

// A connection to a lambda names a context object (connect(sender, signal,
// context, lambda)): without one the lambda outlives whatever it captured.
// Qt 6.7's QT_NO_CONTEXTLESS_CONNECT refuses it at compile time; Debian 12
// has Qt 6.4, so this check does it (cmake/CompilePolicy.cmake).
QStringList contextlessConnects(const QList<QPair<QString, QString>> &files)
{
    static const QRegularExpression connectRe(QStringLiteral("\\bconnect\\(\\s*[^,;]+,\\s*&[\\w:]+,\\s*\\["));
    QStringList out;
    for (const auto &[path, text] : files)
        for (auto it = connectRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            out << QStringLiteral("%1:%2: connect() to a lambda without a context object: pass the receiver "
                                  "(or this) before the lambda")
                       .arg(path)
                       .arg(text.left(m.capturedStart()).count('\n') + 1);
        }
    return out;
}

// Files are written through core/base/AtomicFile (a temporary beside the
// file, then a rename): a writer of its own elsewhere would leave a file cut
// short on a full disk or a kill. Appending is allowed where named here.
QStringList directFileWrites(const QList<QPair<QString, QString>> &files)
{
    static const QSet<QString> allowed = {
        QStringLiteral("core/base/AtomicFile.cpp"),       QStringLiteral("core/base/AtomicFile.h"),
        QStringLiteral("core/base/Logging.cpp"),   // the log, appended
        QStringLiteral("core/base/PrivateFiles.cpp"),   // creates empty owner-only files (NewOnly)
        QStringLiteral("core/ssh/KnownHostsFile.cpp"),   // appended to, as OpenSSH does
        QStringLiteral("core/client/RunFileFetcher.cpp"),   // a job's output tail, appended
        QStringLiteral("app/cli/CliContext.cpp"),   // stdout and stderr
        QStringLiteral("app/cli/ErrorTee.cpp"),
    };
    static const QRegularExpression writeRe(
        QStringLiteral("\\bQSaveFile\\b|QIODevice::(WriteOnly|ReadWrite|Append)|->save(Png|Jpg|Bmp|Rastered)\\(|"
                       "setOutputFileName\\(|QPdfWriter\\s+\\w+\\((?!file\\.device\\(\\))|"
                       "\\.save\\((?!file\\.device\\(\\)|\\))"));
    QStringList out;
    for (const auto &[path, text] : files) {
        if (allowed.contains(path))
            continue;
        for (auto it = writeRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            out << QStringLiteral("%1:%2: %3 writes a file in place: write it through core/base/AtomicFile")
                       .arg(path)
                       .arg(text.left(m.capturedStart()).count('\n') + 1)
                       .arg(m.captured(0));
        }
    }
    return out;
}

// The window never waits for the run store on the GUI thread (ARCHITECTURE.md,
// Threads): in ui/, a store call is work handed to the pool, either a
// StoreTaskQueue task (a lambda taking `RunStore &`) or runInBackground /
// BackgroundLoader work capturing a `RunStore *`. Refused: a call on
// AppServices::store() itself (only its paths are plain values), and a
// `RunStore &` held or taken by anything but such a lambda, outside the files
// named here, each of which hands it only to pool work.
QStringList guiThreadStoreCalls(const QList<QPair<QString, QString>> &files)
{
    static const QSet<QString> handsItToThePool = {
        QStringLiteral("ui/common/AppServices.h"),   // owns the store: store() hands it out
        QStringLiteral("ui/common/AppServices.cpp"),   // the open and File > Run store, on the pool
        QStringLiteral("ui/common/StoreTaskQueue.h"),   // the window's single store calls, on the pool
        QStringLiteral("ui/common/StoreTaskQueue.cpp"),
        QStringLiteral("ui/jobs/JobsModel.h"),   // the Jobs tree, read on the pool (startRead)
        QStringLiteral("ui/jobs/JobsModel.cpp"),
        QStringLiteral("ui/jobs/RunDetailsView.cpp"),   // readDetails: the selected run, on the pool (refresh)
        QStringLiteral("ui/results/EpochCurves.h"),   // setRuns: series read by a BackgroundLoader
        QStringLiteral("ui/results/EpochCurves.cpp"),
        QStringLiteral("ui/results/UtilisationTimeline.h"),   // setRuns: samples read by a BackgroundLoader
        QStringLiteral("ui/results/UtilisationTimeline.cpp"),
        QStringLiteral("ui/results/ScalingReport.h"),   // the report's read: pool threads and `scalelab report`
        QStringLiteral("ui/results/ScalingReport.cpp"),
    };
    static const QRegularExpression directRe(QStringLiteral("\\bstore\\(\\)\\s*(?:\\.|->)\\s*(\\w+)\\s*\\("));
    static const QSet<QString> plainValues = {QStringLiteral("databasePath"), QStringLiteral("dataDirectory"),
                                              QStringLiteral("runFilesDirectory")};
    static const QRegularExpression referenceRe(QStringLiteral("\\bRunStore\\s*&"));
    static const QRegularExpression lambdaParameterRe(QStringLiteral("\\]\\s*\\(\\s*$"));
    QStringList out;
    for (const auto &[path, text] : files) {
        if (!path.startsWith(QLatin1String("ui/")))
            continue;
        const QString &body = text;   // clang 14 cannot capture a structured binding
        auto lineOf = [&body](qsizetype at) { return body.left(at).count('\n') + 1; };
        for (auto it = directRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            if (!plainValues.contains(m.captured(1)))
                out << QStringLiteral("%1:%2: a run store call on the GUI thread (store().%3): run it on the pool "
                                      "(AppServices::storeTasks(), runInBackground)")
                           .arg(path)
                           .arg(lineOf(m.capturedStart()))
                           .arg(m.captured(1));
        }
        if (handsItToThePool.contains(path))
            continue;
        for (auto it = referenceRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            if (lambdaParameterRe.match(text.left(m.capturedStart())).hasMatch())
                continue;   // [..](RunStore &store): a StoreTaskQueue task
            out << QStringLiteral("%1:%2: a RunStore & outside pool work: the GUI thread would query the store; "
                                  "read it in a StoreTaskQueue task or runInBackground work")
                       .arg(path)
                       .arg(lineOf(m.capturedStart()));
        }
    }
    return out;
}

// Files are (repository path, text). Returns one line per wrong arrow.
QStringList violations(const QList<QPair<QString, QString>> &files, const QSet<QString> &repoPaths)
{
    static const QRegularExpression includeRe(QStringLiteral("^[ \\t]*#[ \\t]*include[ \\t]*[<\"]([^>\"]+)[>\"]"),
                                              QRegularExpression::MultilineOption);
    const auto reach = closure();
    QStringList out;
    for (const auto &[path, text] : files) {
        const QString from = roomOf(path);
        if (!reach.contains(from)) {
            out << QStringLiteral("%1: folder %2 has no place in the arrows (add it to ARCHITECTURE.md and "
                                  "tst_architecture)")
                       .arg(path, from);
            continue;
        }
        int line = 1;
        qsizetype lastPos = 0;
        for (auto it = includeRe.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            line += text.mid(lastPos, m.capturedStart() - lastPos).count('\n');
            lastPos = m.capturedStart();
            const QString inc = m.captured(1);
            for (const Guarded &g : guardedHeaders()) {
                if (g.pattern.match(inc).hasMatch() && !g.rooms.contains(from))
                    out << QStringLiteral("%1:%2: %3 is not allowed in %4 (<%5>)")
                               .arg(path)
                               .arg(line)
                               .arg(g.what, from, inc);
            }
            static const QRegularExpression posixRe(
                QStringLiteral("^(unistd|termios|pwd|grp|poll|dlfcn|sys/(socket|wait|ioctl|mman|un))\\.h$"));
            if (posixRe.match(inc).hasMatch() && !posixAllowed(path))
                out << QStringLiteral("%1:%2: <%3> is POSIX-only: move the call into a Platform*Posix.cpp file")
                           .arg(path)
                           .arg(line)
                           .arg(inc);
            if (!repoPaths.contains(inc))
                continue;   // a Qt, system or generated header
            const QString to = roomOf(inc);
            if (to != from && !reach.value(from).contains(to))
                out << QStringLiteral("%1:%2: %3 may not include %4 (\"%5\")").arg(path).arg(line).arg(from, to, inc);
        }
    }
    out << globalPoolUses(files);
    out << handWrittenWatchers(files);
    out << directFileWrites(files);
    out << contextlessConnects(files);
    out << guiThreadStoreCalls(files);
    return out;
}

}   // namespace

class TestArchitecture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void arrowsHaveNoCircle();
    void checkerFindsWrongArrows_data();
    void checkerFindsWrongArrows();
    void sourceTreeFollowsTheArrows();
};

void TestArchitecture::arrowsHaveNoCircle()
{
    const auto reach = closure();
    for (auto it = reach.begin(); it != reach.end(); ++it)
        QVERIFY2(!it.value().contains(it.key()), qPrintable(it.key() + " reaches itself"));
}

void TestArchitecture::checkerFindsWrongArrows_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");   // substring of the one violation, or "" for none
    QTest::newRow("down is fine") << "core/store/A.cpp"
                                  << "#include \"core/model/B.h\"\n"
                                  << "";
    QTest::newRow("two floors down is fine") << "core/client/A.cpp"
                                             << "#include \"core/base/B.h\"\n"
                                             << "";
    QTest::newRow("up is refused") << "core/model/A.cpp"
                                   << "#include \"core/store/B.h\"\n"
                                   << "core/model may not include core/store";
    QTest::newRow("sideways is refused") << "core/ingest/A.cpp"
                                         << "\n#include \"core/analysis/B.h\"\n"
                                         << "core/ingest/A.cpp:2: core/ingest may not include core/analysis";
    QTest::newRow("core into ui") << "core/base/A.h"
                                  << "#include \"ui/common/B.h\"\n"
                                  << "may not include ui/common";
    QTest::newRow("ssh outside ui/cluster") << "ui/jobs/A.cpp"
                                            << "#include \"core/ssh/B.h\"\n"
                                            << "ui/jobs may not include core/ssh";
    QTest::newRow("libssh outside core/ssh") << "core/client/A.cpp"
                                             << "#include <libssh/libssh.h>\n"
                                             << "libssh is not allowed in core/client";
    QTest::newRow("protobuf outside core/ingest") << "core/store/A.cpp"
                                                  << "#include \"TensorBoardEvent.pb.h\"\n"
                                                  << "protobuf is not allowed in core/store";
    QTest::newRow("widgets in core") << "core/model/A.cpp"
                                     << "#include <QWidget>\n"
                                     << "Qt Widgets is not allowed in core/model";
    QTest::newRow("qcustomplot outside results") << "ui/jobs/A.cpp"
                                                 << "#include <qcustomplot.h>\n"
                                                 << "QCustomPlot is not allowed in ui/jobs";
    QTest::newRow("posix outside platform files") << "core/ssh/A.cpp"
                                                  << "#include <termios.h>\n"
                                                  << "core/ssh/A.cpp:1: <termios.h> is POSIX-only";
    QTest::newRow("posix in a platform file") << "core/ssh/PlatformTtyPosix.cpp"
                                              << "#include <termios.h>\n"
                                              << "";
    QTest::newRow("global pool") << "ui/results/A.cpp"
                                 << "#include <QtConcurrent>\nauto f = QtConcurrent::run([] { return 1; });\n"
                                 << "ui/results/A.cpp:2: background work on Qt's global thread pool";
    QTest::newRow("global pool by name") << "ui/jobs/A.cpp"
                                         << "QThreadPool::globalInstance()->start(job);\n"
                                         << "ui/jobs/A.cpp:1: background work on Qt's global thread pool";
    QTest::newRow("own pool") << "ui/results/A.cpp"
                              << "auto f = QtConcurrent::run(&backgroundPool(), [] { return 1; });\n"
                              << "";
    QTest::newRow("watcher by hand") << "ui/results/A.cpp"
                                     << "auto *w = new QFutureWatcher<int>(this);\n"
                                     << "ui/results/A.cpp:1: a QFutureWatcher by hand";
    QTest::newRow("file written in place") << "ui/results/A.cpp"
                                           << "QFile f(path);\nf.open(QIODevice::WriteOnly);\n"
                                           << "ui/results/A.cpp:2: QIODevice::WriteOnly writes a file in place";
    QTest::newRow("image saved to a path") << "app/A.cpp"
                                           << "shot.save(opts.screenshot, \"PNG\");\n"
                                           << "app/A.cpp:1: .save( writes a file in place";
    QTest::newRow("image saved through AtomicFile") << "app/A.cpp"
                                                    << "shot.save(file.device(), \"PNG\");\n"
                                                    << "";
    QTest::newRow("lambda without context")
        << "ui/jobs/A.cpp"
        << "\nconnect(m_model,\n        &JobsModel::changed, [this] { redraw(); });\n"
        << "ui/jobs/A.cpp:2: connect() to a lambda without a context object";
    QTest::newRow("lambda with context") << "ui/jobs/A.cpp"
                                         << "connect(m_model, &JobsModel::changed, this, [this] { redraw(); });\n"
                                         << "";
    QTest::newRow("store call on the GUI thread")
        << "ui/results/A.cpp"
        << "\nconst auto s = m_services.store().studies();\n"
        << "ui/results/A.cpp:2: a run store call on the GUI thread (store().studies)";
    QTest::newRow("store path on the GUI thread") << "ui/results/A.cpp"
                                                  << "const QString p = m_services.store().databasePath();\n"
                                                  << "";
    QTest::newRow("store held by a widget") << "ui/jobs/A.h"
                                            << "explicit A(RunStore &store, QWidget *parent);\n"
                                            << "ui/jobs/A.h:1: a RunStore & outside pool work";
    QTest::newRow("store task") << "ui/jobs/A.cpp"
                                << "q.run(this, [id](RunStore &store) { return store.run(id); }, done);\n"
                                << "";
    QTest::newRow("unknown folder") << "core/misc/A.cpp"
                                    << ""
                                    << "has no place in the arrows";
}

void TestArchitecture::checkerFindsWrongArrows()
{
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QSet<QString> repo = {"core/model/B.h",    "core/store/B.h", "core/base/B.h",
                                "core/analysis/B.h", "ui/common/B.h",  "core/ssh/B.h"};
    const QStringList found = violations({{path, text}}, repo);
    if (expected.isEmpty()) {
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    } else {
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.first().contains(expected), qPrintable(found.first()));
    }
}

void TestArchitecture::sourceTreeFollowsTheArrows()
{
    const QString root = QStringLiteral(SCALELAB_TESTS_DIR "/..");
    QList<QPair<QString, QString>> files;
    QSet<QString> paths;
    for (const QString &top : {QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app")}) {
        QDirIterator it(root + '/' + top, {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString abs = it.next();
            const QString rel = abs.mid(root.size() + 1);
            QFile f(abs);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(abs));
            files.append({rel, QString::fromUtf8(f.readAll())});
            paths.insert(rel);
        }
    }
    QVERIFY2(files.size() > 100, "source tree not found");
    const QStringList found = violations(files, paths);
    QVERIFY2(found.isEmpty(), qPrintable("\n" + found.join('\n')));
}

QTEST_GUILESS_MAIN(TestArchitecture)
#include "tst_architecture.moc"
