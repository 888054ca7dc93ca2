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
    void lintReadsByteOrderMarkFromFile();
    void importWritesSpecAndSummary();
    void importUnusableInputExitsTwo();
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

// The kernel reads the bytes: a BOM before #! makes the job fail, so the
// first-line rule fires on a file that starts with one.
void TestCli::lintReadsByteOrderMarkFromFile()
{
    QTemporaryDir dir;
    const QString script = writeFile(dir, QStringLiteral("bom.sh"),
                                     "\xEF\xBB\xBF#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:v100:1\n"
                                     "#SBATCH --time=00:10:00\npython3 train.py\n");
    const auto r = runCli({QStringLiteral("lint"), script, QStringLiteral("--profile"), QStringLiteral("testbed"),
                           QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    bool bom = false;
    for (const auto &d :
         QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("diagnostics")).toArray())
        bom = bom
              || (d.toObject().value(QStringLiteral("rule")).toString() == QLatin1String("byte-order-mark")
                  && d.toObject().value(QStringLiteral("line")).toInt() == 1);
    QVERIFY2(bom, qPrintable(r.out));
}

// `scalelab import`: the spec to -o, the framework's evidence, what the
// script asks Slurm beyond ScaleLab's fields kept, the summary printed.
void TestCli::importWritesSpecAndSummary()
{
    QTemporaryDir dir;
    writeFile(dir, QStringLiteral("train.py"), "import jax\nimport flax\n");
    const QString script = writeFile(
        dir, QStringLiteral("job.sh"),
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=2\n#SBATCH --gres=gpu:v100:2\n"
        "#SBATCH --time=00:10:00\n#SBATCH --qos=short\n#SBATCH --reservation=course\n#SBATCH --mail-type=END\n"
        "#SBATCH --mail-type=FAIL\n#SBATCH --mail-user=researcher@example.org\n#SBATCH --signal=USR1@60\n"
        "srun --gpu-bind=closest bash -c 'export RANK=$SLURM_PROCID && python3 train.py --data $SCRATCH/d'\n");
    const QString out = dir.filePath(QStringLiteral("spec.json"));
    const auto r = runCli({QStringLiteral("import"), script, QStringLiteral("--profile"), QStringLiteral("testbed"),
                           QStringLiteral("-o"), out, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.import.v1"));
    const QJsonObject fw = o.value(QStringLiteral("framework")).toObject();
    QCOMPARE(fw.value(QStringLiteral("id")).toString(), QStringLiteral("jax"));
    QVERIFY2(fw.value(QStringLiteral("evidence")).toString().contains(QLatin1String("import of jax")),
             qPrintable(r.out));
    QVERIFY(fw.value(QStringLiteral("unsure")).isNull());
    QVERIFY(!o.value(QStringLiteral("summary")).toArray().isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject spec = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(spec, o.value(QStringLiteral("spec")).toObject());
    const QJsonObject opts = spec.value(QStringLiteral("slurmOptions")).toObject();
    QCOMPARE(opts.value(QStringLiteral("qos")).toString(), QStringLiteral("short"));
    QCOMPARE(opts.value(QStringLiteral("reservation")).toString(), QStringLiteral("course"));
    QCOMPARE(opts.value(QStringLiteral("mail-type")).toString(), QStringLiteral("END,FAIL"));   // Slurm ORs them
    QCOMPARE(opts.value(QStringLiteral("mail-user")).toString(), QStringLiteral("researcher@example.org"));
    QCOMPARE(spec.value(QStringLiteral("binding")).toArray().first().toString(), QStringLiteral("--gpu-bind=closest"));
    const QJsonObject env = spec.value(QStringLiteral("environment")).toObject();
    QCOMPARE(env.value(QStringLiteral("taskVariables")).toObject().value(QStringLiteral("RANK")).toString(),
             QStringLiteral("$SLURM_PROCID"));
    // Rendered back, every one of them is in the script, and $SCRATCH still expands.
    const auto rendered = runCli({QStringLiteral("render"), out});
    QVERIFY2(rendered.exitCode == 0 || rendered.exitCode == 1, qPrintable(rendered.err));
    for (const char *line :
         {"#SBATCH --qos=short", "#SBATCH --reservation=course", "#SBATCH --mail-type=END,FAIL",
          "#SBATCH --signal=USR1@60", "--gpu-bind=closest", "RANK=\"$SLURM_PROCID\"", "\"$SCRATCH/d\""})
        QVERIFY2(rendered.out.contains(QLatin1String(line)), qPrintable(line + QStringLiteral("\n") + rendered.out));
    // Without --json: the spec on stdout, the summary on stderr.
    const auto text =
        runCli({QStringLiteral("import"), script, QStringLiteral("--profile"), QStringLiteral("testbed")});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(QJsonDocument::fromJson(text.out.toUtf8()).isObject());
    QVERIFY2(text.err.contains(QLatin1String("import-framework")), qPrintable(text.err));
}

void TestCli::importUnusableInputExitsTwo()
{
    QTemporaryDir dir;
    auto r = runCli({QStringLiteral("import"), dir.filePath(QStringLiteral("missing.sh")), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 2);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(o.value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("message"))
                 .toString()
                 .contains(QLatin1String("missing.sh")),
             qPrintable(r.out));
    const QString script = writeFile(dir, QStringLiteral("job.sh"), "#!/bin/bash\nsrun python3 train.py\n");
    r = runCli({QStringLiteral("import"), script, QStringLiteral("--profile"), QStringLiteral("nosuch")});
    QCOMPARE(r.exitCode, 2);
    r = runCli(
        {QStringLiteral("import"), script, QStringLiteral("-o"), dir.filePath(QStringLiteral("no/such/dir/s.json"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QLatin1String("-o")), qPrintable(r.err));
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
