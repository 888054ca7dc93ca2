// SPDX-License-Identifier: GPL-3.0-or-later
// The headless CLI as scripts use it: output, JSON shapes and exit codes.
#include "CliRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::test::runCli;

namespace {
const QString kSpecs = QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/");

QString writeFile(QTemporaryDir &dir, const QString &name, const QByteArray &data)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(data);
    return f.fileName();
}
}   // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void helpAndVersion();
    void profilesJson();
    void renderOk();
    void renderJsonWithErrorsExitsOne();
    void unusableInputExitsTwo_data();
    void unusableInputExitsTwo();
    void lintFindsMistakes();
    void oneExecutableLinkedNormally();
    void aLoneCopyRunsEveryCommand();
};

void TestCli::helpAndVersion()
{
    auto r = runCli({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("render")));
    r = runCli({QStringLiteral("--version")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith(QLatin1String("scalelab ")));
    for (const char *cmd : {"profiles", "render", "lint"}) {
        r = runCli({QString::fromLatin1(cmd), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QLatin1String("Usage: scalelab ") + QLatin1String(cmd)), cmd);
    }
}

void TestCli::profilesJson()
{
    const auto r = runCli({QStringLiteral("profiles"), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.profiles.v1"));
    const QJsonArray arr = doc.value(QStringLiteral("profiles")).toArray();
    QVERIFY(arr.size() >= 7);
    bool sawMahti = false;
    for (const auto &v : arr) {
        const QJsonObject p = v.toObject();
        if (p.value(QStringLiteral("id")).toString() != QLatin1String("mahti"))
            continue;
        sawMahti = true;
        for (const auto &part : p.value(QStringLiteral("partitions")).toArray())
            if (part.toObject().value(QStringLiteral("name")).toString() == QLatin1String("gpusmall"))
                QCOMPARE(part.toObject().value(QStringLiteral("maxGpusPerJob")).toInt(), 2);
    }
    QVERIFY(sawMahti);
}

void TestCli::renderOk()
{
    const auto r = runCli({QStringLiteral("render"), kSpecs + QStringLiteral("puhti-ddp-8gpu.json")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith(QLatin1String("#!/bin/bash")));
    QVERIFY(r.out.contains(QLatin1String("#SBATCH --gres=gpu:v100:4")));
    QVERIFY(!r.err.contains(QLatin1String("error")));
}

void TestCli::renderJsonWithErrorsExitsOne()
{
    QTemporaryDir dir;
    const QString spec =
        writeFile(dir, QStringLiteral("s.json"),
                  R"({"profile": "mahti", "partition": "gpusmall", "gpus": 4, "framework": "pytorch-ddp",
                                       "time": "01:00:00", "account": "project_2001234", "program": "train.py"})");
    const auto r = runCli({QStringLiteral("render"), spec, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(o.value(QStringLiteral("script")).toString().startsWith(QLatin1String("#!/bin/bash")));
    bool found = false;
    for (const auto &d : o.value(QStringLiteral("diagnostics")).toArray()) {
        const QJsonObject dj = d.toObject();
        for (const char *k : {"severity", "rule", "field", "line", "message", "fix"})
            QVERIFY2(dj.contains(QLatin1String(k)), k);
        if (dj.value(QStringLiteral("rule")).toString() == QLatin1String("partition-gpu-limit")) {
            found = true;
            QCOMPARE(dj.value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
            QCOMPARE(dj.value(QStringLiteral("fix")).toObject().value(QStringLiteral("value")).toString(),
                     QStringLiteral("gpumedium"));
        }
    }
    QVERIFY(found);
}

void TestCli::unusableInputExitsTwo_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("reason");
    QTest::newRow("malformed") << QByteArray("{\n  \"profile\": \"testbed\",\n  \"gpus\": 2,,\n}")
                               << QStringLiteral("s.json:3:");
    QTest::newRow("unknown key") << QByteArray(
        R"({"profile": "testbed", "gpus": 2, "framework": "horovod", "gpus_per_node": 2})")
                                 << QStringLiteral("\"gpus_per_node\" is not a known key");
    QTest::newRow("unknown profile") << QByteArray(R"({"profile": "nosuch", "gpus": 2, "framework": "horovod"})")
                                     << QStringLiteral("unknown profile \"nosuch\"");
}

void TestCli::unusableInputExitsTwo()
{
    QFETCH(QByteArray, spec);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const auto r = runCli({QStringLiteral("render"), writeFile(dir, QStringLiteral("s.json"), spec)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(reason), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    QCOMPARE(runCli({QStringLiteral("render"), dir.filePath(QStringLiteral("missing.json"))}).exitCode, 2);
    QCOMPARE(runCli({QStringLiteral("frobnicate")}).exitCode, 2);
}

void TestCli::lintFindsMistakes()
{
    QTemporaryDir dir;
    // The shape of a workshop script: two tasks reserved, one plain python started.
    const QString script =
        writeFile(dir, QStringLiteral("job.sh"),
                  "#!/bin/bash\n#SBATCH --job-name=mnist\n#SBATCH --nodes=1\n#SBATCH --ntasks=2\n"
                  "#SBATCH --cpus-per-task=4\n#SBATCH --partition=gpu\n#SBATCH --gres=gpu:v100:2\n"
                  "#SBATCH --account=project_2001234\n#SBATCH --time=00:20:00\n\npython mnist.py --epochs=5\n");
    auto r = runCli({QStringLiteral("lint"), script, QStringLiteral("--profile"), QStringLiteral("testbed"),
                     QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.err));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("spec")).toObject().value(QStringLiteral("gpus")).toInt(), 2);
    bool tasksNeverStarted = false;
    for (const auto &d : o.value(QStringLiteral("diagnostics")).toArray())
        if (d.toObject().value(QStringLiteral("rule")).toString() == QLatin1String("tasks-never-started")) {
            tasksNeverStarted = true;
            QVERIFY(d.toObject().value(QStringLiteral("line")).toInt() > 0);
        }
    QVERIFY(tasksNeverStarted);
    r = runCli({QStringLiteral("lint"), script});
    QCOMPARE(r.exitCode, 2);
    r = runCli({QStringLiteral("lint"), script, QStringLiteral("--profile"), QStringLiteral("nosuch")});
    QCOMPARE(r.exitCode, 2);
}

void TestCli::oneExecutableLinkedNormally()
{
    // libssh and QCustomPlot are ordinary dependencies of the one executable:
    // no module file next to it, nothing loaded by hand.
    QProcess readelf;
    readelf.start(QStringLiteral("readelf"), {QStringLiteral("-d"), QStringLiteral(SCALELAB_BINARY)});
    QVERIFY(readelf.waitForFinished(30000));
    const QString dyn = QString::fromUtf8(readelf.readAllStandardOutput());
    for (const char *lib : {"libQt6Widgets", "libssh.so", "libQCustomPlotQt6"})
        QVERIFY2(dyn.contains(QLatin1String(lib)), lib);
    QVERIFY(!QFileInfo::exists(
        QFileInfo(QStringLiteral(SCALELAB_BINARY)).dir().filePath(QStringLiteral("scalelab-cluster.so"))));
}

void TestCli::aLoneCopyRunsEveryCommand()
{
    // The binary copied alone (as an installed /usr/bin/scalelab is) runs the
    // commands that reach the store and SSH layer, not only the light ones.
    QTemporaryDir dir;
    const QString exe = dir.filePath(QStringLiteral("scalelab"));
    QVERIFY(QFile::copy(QStringLiteral(SCALELAB_BINARY), exe));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SCALELAB_DATA_DIR"), dir.filePath(QStringLiteral("data")));
    p.setProcessEnvironment(env);
    p.start(exe, {QStringLiteral("runs"), QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(doc.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.runs.v1"));
    QVERIFY(doc.value(QStringLiteral("runs")).isArray());
    QCOMPARE(doc.value(QStringLiteral("runs")).toArray().size(), 0);
    p.start(exe, {QStringLiteral("submit"), QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(p.readAllStandardOutput().contains("exactly once"));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
