// SPDX-License-Identifier: GPL-3.0-or-later
// Where the CLI's output goes, run on the real binary: a report replaces the
// previous one whole or not at all (a full disk, a kill at any moment, a
// folder given as -o); a closed stdout or stderr is a failure and never
// lends its descriptor to the log; a --json command that fails prints one
// JSON object with the error; an unusable store exits 1 in every command.
#include "../gui/ResultsTestStudy.h"

#include "core/store/RunStore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

QProcessEnvironment environmentFor(const QString &dataDir, const QString &stateDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("SCALELAB_DATA_DIR"), dataDir);
    env.insert(QStringLiteral("XDG_STATE_HOME"), stateDir);
    return env;
}

// `shell` non-empty: run through sh -c with the binary as $0 (closing descriptors).
Run cli(const QProcessEnvironment &env, const QStringList &args, const QString &shell = {})
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (shell.isEmpty())
        p.start(QStringLiteral(SCALELAB_BINARY), args);
    else
        p.start(QStringLiteral("/bin/sh"), QStringList{QStringLiteral("-c"), shell, QStringLiteral(SCALELAB_BINARY)});
    p.closeWriteChannel();
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               QString::fromUtf8(p.readAllStandardError())};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool isWholePdf(const QByteArray &pdf)
{
    return pdf.startsWith("%PDF-") && pdf.trimmed().endsWith("%%EOF");
}

QJsonObject errorOf(const Run &r)
{
    return QJsonDocument::fromJson(r.out).object().value(QStringLiteral("error")).toObject();
}

bool mountSmallDisk(const QString &dir)
{
    QProcess p;
    p.start(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                      QStringLiteral("size=64k"), QStringLiteral("tmpfs"), dir});
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

}   // namespace

class TestCliOutput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void reportToAFolderIsRefused();
    void reportOnAFullDiskKeepsThePreviousOne();
    void killDuringTheReportLeavesAWholeFile();
    void closedStdoutOrStderrIsAFailureNotTheLog();
    void jsonFailuresPrintOneObject();
    void unusableStoreExitsOneEverywhere();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QStringList report(const QString &out) const
    {
        return {QStringLiteral("report"), QString::number(m_study), QStringLiteral("-o"), out};
    }
    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    qint64 m_study = 0;
    QString m_mounted;
};

void TestCliOutput::initTestCase()
{
    RunStore store(path(QStringLiteral("data")));
    QCOMPARE(store.open().errorText(), QString());
    QList<qint64> runs;
    QVERIFY(QDir().mkpath(path(QStringLiteral("files"))));
    m_study = testing::fillSyntheticStudy(store, path(QStringLiteral("files")), runs);
    m_env = environmentFor(path(QStringLiteral("data")), path(QStringLiteral("state")));
}

void TestCliOutput::cleanupTestCase()
{
    if (!m_mounted.isEmpty())
        QProcess::execute(QStringLiteral("umount"), {m_mounted});
}

void TestCliOutput::reportToAFolderIsRefused()
{
    const QString folder = path(QStringLiteral("reports"));
    QVERIFY(QDir().mkpath(folder));
    const Run r = cli(m_env, report(folder));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("could not write %1: it is a folder").arg(folder)), qPrintable(r.err));
    QCOMPARE(r.out, QByteArray());
    QCOMPARE(QDir(folder).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

void TestCliOutput::reportOnAFullDiskKeepsThePreviousOne()
{
    const QString small = path(QStringLiteral("small"));
    QVERIFY(QDir().mkpath(small));
    if (!mountSmallDisk(small))
        QSKIP("a 64 KiB tmpfs could not be mounted (needs root)");
    m_mounted = small;
    const QString pdf = small + QStringLiteral("/r.pdf");
    const QByteArray previous = "%PDF-1.4 the previous report, small enough to fit\n%%EOF\n";
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(previous) == previous.size());
    f.close();
    const Run r = cli(m_env, report(pdf));
    QVERIFY2(
        r.exitCode == 1,
        qPrintable(
            QStringLiteral("exit %1, %2 bytes written: %3").arg(r.exitCode).arg(QFileInfo(pdf).size()).arg(r.err)));
    QVERIFY2(r.err.contains(QStringLiteral("could not write %1: No space left on device").arg(pdf)), qPrintable(r.err));
    QCOMPARE(readAll(pdf), previous);
    QCOMPARE(QDir(small).entryList(QDir::Files), QStringList{QStringLiteral("r.pdf")});
}

// SIGKILL at points spread over the whole run (the PDF is written at its
// end): after each, the file is the previous report byte for byte, or the
// new one complete. Any timing is a valid point: the check never depends on it.
void TestCliOutput::killDuringTheReportLeavesAWholeFile()
{
    const QString dir = path(QStringLiteral("killed"));
    QVERIFY(QDir().mkpath(dir));
    const QString pdf = dir + QStringLiteral("/r.pdf");
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(cli(m_env, report(pdf)).exitCode, 0);
    const qint64 whole = clock.elapsed();
    const QByteArray previous = readAll(pdf);
    QVERIFY(isWholePdf(previous));
    for (const double at : {0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98}) {
        QProcess p;
        p.setProcessEnvironment(m_env);
        p.start(QStringLiteral(SCALELAB_BINARY), report(pdf));
        QVERIFY(p.waitForStarted());
        p.waitForFinished(int(double(whole) * at));
        p.kill();   // SIGKILL to this process id
        p.waitForFinished();
        const QByteArray now = readAll(pdf);
        QVERIFY2(
            now == previous || isWholePdf(now),
            qPrintable(
                QStringLiteral("killed at %1 of %2 ms: %3 bytes, not a whole PDF").arg(at).arg(whole).arg(now.size())));
        for (const QString &left : QDir(dir).entryList({QStringLiteral("r.pdf.*")}, QDir::Files))
            QFile::remove(dir + QLatin1Char('/') + left);   // the temporary of a killed run
    }
}

void TestCliOutput::closedStdoutOrStderrIsAFailureNotTheLog()
{
    const QString state = path(QStringLiteral("closed-state"));
    QProcessEnvironment env = environmentFor(path(QStringLiteral("data")), state);
    const QString log = state + QStringLiteral("/ScaleLab/scalelab.log");
    Run r = cli(env, {}, QStringLiteral("exec \"$0\" runs --json >&-"));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("scalelab: could not write the output: Bad file descriptor")),
             qPrintable(r.err));
    QVERIFY2(!readAll(log).contains("scalelab.runs.v1"), readAll(log).constData());
    // A closed stderr: the error has nowhere to go, and never goes to the log.
    r = cli(env, {}, QStringLiteral("exec \"$0\" runs --no-such-option 2>&-"));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(!readAll(log).contains("no-such-option"), readAll(log).constData());
    // A command that said nothing on the closed stream still succeeds.
    r = cli(env, {}, QStringLiteral("exec \"$0\" version 2>&-"));
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, QByteArray("scalelab " SCALELAB_VERSION "\n"));
}

void TestCliOutput::jsonFailuresPrintOneObject()
{
    const QString missing = path(QStringLiteral("no.json"));
    Run r = cli(m_env, {QStringLiteral("submit"), QStringLiteral("--json"), missing});
    QCOMPARE(r.exitCode, 2);
    QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(doc.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.submit.v1"));
    QCOMPARE(errorOf(r).value(QStringLiteral("exitCode")).toInt(), 2);
    QVERIFY2(errorOf(r).value(QStringLiteral("message")).toString().contains(missing), r.out.constData());
    QVERIFY2(r.err.contains(missing), qPrintable(r.err));   // said on stderr as well

    r = cli(m_env, {QStringLiteral("runs"), QStringLiteral("--json"), QStringLiteral("--bogus")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(errorOf(r).value(QStringLiteral("message")).toString().contains(QLatin1String("--bogus")),
             r.out.constData());

    const QString folder = path(QStringLiteral("json-folder"));
    QVERIFY(QDir().mkpath(folder));
    QStringList args = report(folder);
    args << QStringLiteral("--json");
    r = cli(m_env, args);
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("schema")).toString(),
             QStringLiteral("scalelab.report.v1"));
    QVERIFY2(errorOf(r).value(QStringLiteral("message")).toString().contains(QLatin1String("it is a folder")),
             r.out.constData());
    QCOMPARE(errorOf(r).value(QStringLiteral("messages")).toArray().size(), 1);
}

void TestCliOutput::unusableStoreExitsOneEverywhere()
{
    // The data folder is a file: no store can be opened there.
    const QString notAFolder = path(QStringLiteral("data-is-a-file"));
    QFile f(notAFolder);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    const QProcessEnvironment env = environmentFor(notAFolder, path(QStringLiteral("state")));
    for (const QStringList &args : {QStringList{QStringLiteral("runs")}, report(path(QStringLiteral("x.pdf"))),
                                    QStringList{QStringLiteral("cancel"), QStringLiteral("1")}}) {
        const Run r = cli(env, args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("cannot open the run store")), qPrintable(r.err));
        const Run json = cli(env, args + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 1);
        QVERIFY2(errorOf(json)
                     .value(QStringLiteral("message"))
                     .toString()
                     .startsWith(QLatin1String("cannot open the run store")),
                 json.out.constData());
    }
}

QTEST_GUILESS_MAIN(TestCliOutput)
#include "tst_cli_output.moc"
