// SPDX-License-Identifier: GPL-3.0-or-later
// `scalelab metrics LOG [--patterns FILE] [--json]` through the real executable.
#include "CliRunner.h"

#include <QFile>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab::test;

namespace {
QString data(const char *name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/") + QLatin1String(name);
}

// runCli leaves stdin open; "-" needs it written and closed.
CliRun runCliWithStdin(const QStringList &args, const QByteArray &input)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCALELAB_BINARY), args);
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(300000);
    return CliRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                  QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}
}   // namespace

class TstCliMetrics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void table();
    void json();
    void stdinLog();
    void helpAndTypos();
    void userPatterns();
    void unreadable_data();
    void unreadable();
    void hostileLogs();
    void listReaders();
    void gpuSampleFile();
    void runEndsAndAmbiguous();
    void nothingRead();
};

void TstCliMetrics::table()
{
    const CliRun r = runCli({QStringLiteral("metrics"), data("slurm-95659.out")});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.value(0).startsWith(QLatin1String("metric")), qPrintable(r.out));
    QVERIFY2(r.out.contains(
                 QRegularExpression(QStringLiteral("\\ntest_accuracy +0\\.9936000109 +14 +keras\\.test_accuracy\\n"))),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(
                 QRegularExpression(QStringLiteral("\\ntrain_time_s +124\\.7497151 +s +15 +keras\\.train_time\\n"))),
             qPrintable(r.out));
}

void TstCliMetrics::json()
{
    const CliRun r =
        runCli({QStringLiteral("metrics"), data("frameworks/ptdist-8ranks-labelled.out"), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.metrics.v1"));
    QCOMPARE(o.value(QStringLiteral("file")).toString(), data("frameworks/ptdist-8ranks-labelled.out"));
    QJsonObject sum;
    for (const QJsonValue &v : o.value(QStringLiteral("metrics")).toArray())
        if (v.toObject().value(QStringLiteral("metric")).toString() == QLatin1String("samples_per_s_rank_sum"))
            sum = v.toObject();
    QCOMPARE(sum.value(QStringLiteral("value")).toDouble(), 1636.0);
    QCOMPARE(sum.value(QStringLiteral("unit")).toString(), QStringLiteral("samples/s"));
    QCOMPARE(sum.value(QStringLiteral("rule")).toString(), QStringLiteral("pytorch.ptdist.rank_sum"));
    QCOMPARE(sum.value(QStringLiteral("aggregation")).toString(), QStringLiteral("per-rank-sum"));
    QCOMPARE(sum.value(QStringLiteral("line")).toInt(), 16);
    QCOMPARE(sum.value(QStringLiteral("formula")).toString(),
             QStringLiteral("sum over 8 ranks of each rank's mean (16 values)"));
}

void TstCliMetrics::stdinLog()
{
    // "-" reads the log from stdin, like every command's file argument.
    QFile log(data("slurm-95659.out"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray bytes = log.readAll();
    const CliRun fromFile = runCli({QStringLiteral("metrics"), log.fileName(), QStringLiteral("--json")});
    const CliRun fromStdin =
        runCliWithStdin({QStringLiteral("metrics"), QStringLiteral("--json"), QStringLiteral("-")}, bytes);
    QCOMPARE(fromStdin.exitCode, 0);
    const QJsonObject a = QJsonDocument::fromJson(fromFile.out.toUtf8()).object();
    const QJsonObject b = QJsonDocument::fromJson(fromStdin.out.toUtf8()).object();
    QCOMPARE(b.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.metrics.v1"));
    QCOMPARE(b.value(QStringLiteral("file")).toString(), QStringLiteral("<stdin>"));
    QCOMPARE(b.value(QStringLiteral("bytes")).toInteger(), qint64(bytes.size()));
    QVERIFY(!a.value(QStringLiteral("metrics")).toArray().isEmpty());
    QCOMPARE(b.value(QStringLiteral("metrics")), a.value(QStringLiteral("metrics")));

    const CliRun table = runCliWithStdin({QStringLiteral("metrics"), QStringLiteral("-")}, bytes);
    QCOMPARE(table.exitCode, 0);
    QVERIFY2(table.out.contains(
                 QRegularExpression(QStringLiteral("\\ntest_accuracy +0\\.9936000109 +14 +keras\\.test_accuracy\\n"))),
             qPrintable(table.out));
    const CliRun empty = runCliWithStdin({QStringLiteral("metrics"), QStringLiteral("-")}, QByteArray());
    QCOMPARE(empty.exitCode, 0);
    QCOMPARE(empty.out, QStringLiteral("<stdin>: no metrics found\n"));
}

void TstCliMetrics::helpAndTypos()
{
    const CliRun help = runCli({QStringLiteral("metrics"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.startsWith(QLatin1String(
                 "Usage: scalelab metrics LOG|DIR|METRIC_FILE [--patterns FILE] [--json] | --list-readers\n")),
             qPrintable(help.out));
    for (const char *part : {"\nOptions:\n", "  --patterns FILE  ", "  --json  ", "\"metricPatterns\"",
                             "\nExamples:\n  scalelab metrics "})
        QVERIFY2(help.out.contains(QLatin1String(part)), part);
    QCOMPARE(runCli({QStringLiteral("metrics"), QStringLiteral("-h")}).out, help.out);

    const CliRun typo = runCli(
        {QStringLiteral("metrics"), data("slurm-95659.out"), QStringLiteral("--pattern"), QStringLiteral("p.json")});
    QCOMPARE(typo.exitCode, 2);
    QVERIFY2(typo.err.contains(QLatin1String("unknown option --pattern (did you mean \"--patterns\"?)")),
             qPrintable(typo.err));
    QVERIFY(typo.out.isEmpty());
    const CliRun noValue = runCli({QStringLiteral("metrics"), data("slurm-95659.out"), QStringLiteral("--patterns")});
    QCOMPARE(noValue.exitCode, 2);
    QVERIFY2(noValue.err.contains(QLatin1String("--patterns")), qPrintable(noValue.err));
    QVERIFY(noValue.out.isEmpty());
    // --patterns=FILE, and "--" ends the options.
    const CliRun joined = runCli({QStringLiteral("metrics"), QStringLiteral("--patterns=/nonexistent/p.json"),
                                  QStringLiteral("--"), data("slurm-95659.out")});
    QCOMPARE(joined.exitCode, 2);
    QVERIFY2(joined.err.contains(QLatin1String("/nonexistent/p.json: cannot read this pattern file: no such file")),
             qPrintable(joined.err));
}

void TstCliMetrics::userPatterns()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("patterns.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        R"json([{"name": "test_accuracy", "regex": "Test loss: ([0-9.]+)", "unit": "x", "aggregation": "max"}])json");
    f.close();
    const CliRun r = runCli({QStringLiteral("metrics"), data("slurm-95659.out"), QStringLiteral("--patterns"),
                             f.fileName(), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonArray ms = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("metrics")).toArray();
    bool found = false;
    for (const QJsonValue &v : ms) {
        const QJsonObject m = v.toObject();
        if (m.value(QStringLiteral("metric")).toString() != QLatin1String("test_accuracy"))
            continue;
        found = true;
        QCOMPARE(m.value(QStringLiteral("value")).toDouble(),
                 0.01960514299571514);   // the user's pattern replaced the built-in
        QCOMPARE(m.value(QStringLiteral("rule")).toString(), QStringLiteral("patterns[0]"));
        QCOMPARE(m.value(QStringLiteral("unit")).toString(), QStringLiteral("x"));
    }
    QVERIFY(found);
}

void TstCliMetrics::unreadable_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing log") << QStringList{QStringLiteral("/nonexistent/job.out")}
                                 << "/nonexistent/job.out: cannot read this job output: no such file";
    // A folder is read for the frameworks' metric files; one without any is unusable.
    QTest::newRow("folder without metric files")
        << QStringList{QStringLiteral(SCALELAB_TEST_DATA_DIR "/golden")} << "no metric file found";
    QTest::newRow("no log") << QStringList{} << "needs exactly one LOG file";
    QTest::newRow("missing patterns") << QStringList{data("slurm-95659.out"), QStringLiteral("--patterns"),
                                                     QStringLiteral("/nonexistent/p.json")}
                                      << "/nonexistent/p.json: cannot read this pattern file: no such file";
    QTest::newRow("patterns not JSON") << QStringList{data("slurm-95659.out"), QStringLiteral("--patterns"),
                                                      data("slurm-95659.out")}
                                       << "is not JSON";
    QTest::newRow("unknown option") << QStringList{data("slurm-95659.out"), QStringLiteral("--bogus")}
                                    << "unknown option --bogus";
}

void TstCliMetrics::unreadable()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CliRun r = runCli(QStringList{QStringLiteral("metrics")} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TstCliMetrics::hostileLogs()
{
    // Issue 11 F3: a megabyte of digits before "samples/s" on one line, and a bad regex.
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("digits.out")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(1 << 20, '3') + " samples/s\n" + QByteArray(1 << 20, '4') + "\ntest_accuracy 0.5\n");
    f.close();
    const CliRun r = runCli({QStringLiteral("metrics"), f.fileName(), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonArray ms = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("metrics")).toArray();
    QCOMPARE(ms.size(), 1);
    QCOMPARE(ms[0].toObject().value(QStringLiteral("metric")).toString(), QStringLiteral("test_accuracy"));
    QCOMPARE(ms[0].toObject().value(QStringLiteral("line")).toInt(), 3);

    QFile p(dir.filePath(QStringLiteral("bad.json")));
    QVERIFY(p.open(QIODevice::WriteOnly));
    p.write(R"json([{"name": "x", "regex": "([0-9"}])json");
    p.close();
    const CliRun bad = runCli({QStringLiteral("metrics"), f.fileName(), QStringLiteral("--patterns"), p.fileName()});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QLatin1String("metric 'x': the regex ([0-9 is invalid: missing ]")), qPrintable(bad.err));
}

void TstCliMetrics::listReaders()
{
    const CliRun r = runCli({QStringLiteral("metrics"), QStringLiteral("--list-readers")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("megatron.tflops_per_gpu  tflops_per_gpu  TFLOP/s  mean")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("e.g. RESULT,IMAGE_CLASSIFICATION,,3463,nvidia")), qPrintable(r.out));
    const CliRun j = runCli({QStringLiteral("metrics"), QStringLiteral("--list-readers"), QStringLiteral("--json")});
    QCOMPARE(j.exitCode, 0);
    const QJsonArray readers =
        QJsonDocument::fromJson(j.out.toUtf8()).object().value(QStringLiteral("readers")).toArray();
    QVERIFY(readers.size() > 100);
    for (const QJsonValue &v : readers)
        QVERIFY(!v.toObject().value(QStringLiteral("example")).toString().isEmpty());
}

void TstCliMetrics::gpuSampleFile()
{
    const CliRun r = runCli({QStringLiteral("metrics"), data("nvidia-smi-temp-power.csv")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("GPU samples (nvidia-smi): 4 row(s), 2 GPU(s)")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression(
                 QStringLiteral("\\n0 +95\\.0%/100\\.0% +30500\\.0/31000\\.0 +62\\.0/64\\.0 +250\\.5/250\\.5\\n"))),
             qPrintable(r.out));
    QVERIFY2(!r.err.contains(QLatin1String("no value was read")), qPrintable(r.err));
}

void TstCliMetrics::runEndsAndAmbiguous()
{
    const CliRun r = runCli({QStringLiteral("metrics"), data("frameworks/slurm-ends.out")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(
        r.out.contains(QLatin1String("run end (line 9): job 77 cancelled at 2025-01-28T15:04:48: time limit reached")),
        qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("run end (line 6): task 3 on nid001002 exited with code 1")),
             qPrintable(r.out));
    QVERIFY2(r.err.contains(QLatin1String("does not say whether it is one GPU's or the whole job's")),
             qPrintable(r.err));
    const CliRun j = runCli({QStringLiteral("metrics"), data("frameworks/slurm-ends.out"), QStringLiteral("--json")});
    const QJsonArray ends =
        QJsonDocument::fromJson(j.out.toUtf8()).object().value(QStringLiteral("run_ends")).toArray();
    QCOMPARE(ends.size(), 4);
    QCOMPARE(ends[1].toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("oom-kill"));
}

void TstCliMetrics::nothingRead()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("slurm-1.out"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("starting\nTest set: Average loss: nan\ndone\n");
    f.close();
    const CliRun r = runCli({QStringLiteral("metrics"), path});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("no metrics found")), qPrintable(r.out));
    QVERIFY2(r.err.contains(QLatin1String("no value was read")) && r.err.contains(QLatin1String("--list-readers"))
                 && r.err.contains(QLatin1String("line 2: 'Test set: Average loss: nan'")),
             qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TstCliMetrics)
#include "tst_cli_metrics.moc"
