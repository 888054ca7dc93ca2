// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI's conventions, run on the real binary as a shell user would:
// did-you-mean, -V/version/help CMD, "--" and "-" (stdin), --json with a
// schema, exit codes on write errors, no display, status --connection,
// what `runs --json` says about each run and `runs` leaving hidden runs out
// unless --all.
#include "core/store/RunStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTimeZone>
#include <QtTest>

using namespace scalelab;

namespace {

const QString kSpec = QStringLiteral(SCALELAB_TEST_DATA_DIR "/specs/puhti-ddp-8gpu.json");

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

struct How {
    QByteArray stdinData;
    QString stdoutFile;   // e.g. /dev/full
    QString workingDirectory;
    QStringList unset;   // environment variables removed
    QProcessEnvironment extra;
};

Run cli(const QStringList &args, const How &how = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *v : {"DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(v));
    for (const QString &v : how.unset)
        env.remove(v);
    for (const QString &k : how.extra.keys())
        env.insert(k, how.extra.value(k));
    p.setProcessEnvironment(env);
    if (!how.stdoutFile.isEmpty())
        p.setStandardOutputFile(how.stdoutFile);
    if (!how.workingDirectory.isEmpty())
        p.setWorkingDirectory(how.workingDirectory);
    p.start(QStringLiteral(SCALELAB_BINARY), args);
    p.write(how.stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();   // a window that opened by mistake
        p.waitForFinished();
        return {};
    }
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
               QString::fromUtf8(p.readAllStandardError())};
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject jsonOf(const Run &r)
{
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

}   // namespace

class TestCliConventions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void unknownCommandSuggestsOne();
    void unknownOptionSuggestsOne();
    void unknownGlobalOptionNeverOpensTheWindow();
    void unknownProfileSuggestsOne();
    void versionForms();
    void helpCommandAndExamples();
    void stdinAndDoubleDash();
    void jsonHasASchemaOnEveryCommand_data();
    void jsonHasASchemaOnEveryCommand();
    void writeErrorsAreNotSuccess();
    void noDisplayIsSaid();
    void statusConnectionFilters();
    void statusIngestsRunsFinishedWithoutMetrics();
    void statusJsonCarriesAlerts();
    void runsJsonCarriesJobNameSlurmAndSpec();
    void runsLeaveHiddenOutUnlessAll();
    void storeChecksBacksUpAndRestores();

private:
    void storeTwoClusters();
    QTemporaryDir m_dir;
    How m_env;   // this test's own data directory
};

void TestCliConventions::init()
{
    m_env = How{};
    m_env.extra.insert(QStringLiteral("SCALELAB_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
}

void TestCliConventions::unknownCommandSuggestsOne()
{
    Run r = cli({QStringLiteral("stauts")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QStringLiteral(
                        "scalelab: unknown command \"stauts\" (did you mean \"status\"?); see `scalelab --help`\n"));
    QVERIFY(r.out.isEmpty());
    r = cli({QStringLiteral("frobnicate")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QStringLiteral("scalelab: unknown command \"frobnicate\"; see `scalelab --help`\n"));
    r = cli({QStringLiteral("help"), QStringLiteral("rnder")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QLatin1String("did you mean \"render\"?")), qPrintable(r.err));
}

void TestCliConventions::unknownOptionSuggestsOne()
{
    Run r = cli({QStringLiteral("render"), QStringLiteral("--jsn"), kSpec});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QStringLiteral("scalelab: render: unknown option --jsn (did you mean \"--json\"?); "
                                   "see `scalelab render --help`\n"));
    QVERIFY(r.out.isEmpty());
    r = cli({QStringLiteral("lint"), QStringLiteral("--profil"), QStringLiteral("puhti"), kSpec});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QLatin1String("unknown option --profil (did you mean \"--profile\"?)")), qPrintable(r.err));
    // A value missing at the end.
    r = cli({QStringLiteral("lint"), kSpec, QStringLiteral("--profile")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QLatin1String("lint: Missing value after '--profile'.")), qPrintable(r.err));
}

void TestCliConventions::unknownGlobalOptionNeverOpensTheWindow()
{
    // Even with a display to open it on (offscreen), the window stays shut.
    How how;
    how.extra.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const Run r = cli({QStringLiteral("--jsn")}, how);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QStringLiteral("scalelab: unknown option --jsn (did you mean \"--json\"? It goes after a command: "
                                   "scalelab runs --json); see `scalelab --help`\n"));
    const Run s = cli({QStringLiteral("--screenshoot"), QStringLiteral("x.png")}, how);
    QCOMPARE(s.exitCode, 2);
    QVERIFY2(s.err.contains(QLatin1String("did you mean \"--screenshot\"?")), qPrintable(s.err));
}

void TestCliConventions::unknownProfileSuggestsOne()
{
    QTemporaryDir dir;
    QFile script(dir.filePath(QStringLiteral("job.sh")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/bash\n#SBATCH --gres=gpu:v100:1\npython train.py\n");
    script.close();
    const Run r = cli({QStringLiteral("lint"), script.fileName(), QStringLiteral("--profile"), QStringLiteral("puhi")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QLatin1String("scalelab: unknown profile \"puhi\" (did you mean \"puhti\"?) (known: ")),
             qPrintable(r.err));
}

void TestCliConventions::versionForms()
{
    const QString expected = QStringLiteral("scalelab " SCALELAB_VERSION "\n");
    for (const QStringList &args : {QStringList{QStringLiteral("-V")}, QStringList{QStringLiteral("--version")},
                                    QStringList{QStringLiteral("version")}}) {
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, expected);
    }
    const Run j = cli({QStringLiteral("version"), QStringLiteral("--json")});
    QCOMPARE(j.exitCode, 0);
    QCOMPARE(jsonOf(j).value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.version.v1"));
    QCOMPARE(jsonOf(j).value(QStringLiteral("version")).toString(), QStringLiteral(SCALELAB_VERSION));
}

void TestCliConventions::helpCommandAndExamples()
{
    const Run viaHelp = cli({QStringLiteral("help"), QStringLiteral("submit")});
    const Run viaFlag = cli({QStringLiteral("submit"), QStringLiteral("--help")});
    QCOMPARE(viaHelp.exitCode, 0);
    QCOMPARE(viaHelp.out, viaFlag.out);
    QVERIFY(viaHelp.out.startsWith(QLatin1String("Usage: scalelab submit [options] SPEC.json\n")));
    QVERIFY2(viaHelp.out.contains(QLatin1String("\nExamples:\n  scalelab submit job.json\n")), qPrintable(viaHelp.out));
    QVERIFY(viaHelp.out.contains(QLatin1String("--accept-new-host-key")));
    const Run top = cli({QStringLiteral("--help")});
    QCOMPARE(top.exitCode, 0);
    QCOMPARE(cli({QStringLiteral("help")}).out, top.out);
    QCOMPARE(cli({QStringLiteral("-h")}).out, top.out);
    for (const char *section : {"\nCommands:\n", "\nExamples:\n", "\nEnvironment:\n", "  SCALELAB_DATA_DIR ",
                                "  SCALELAB_SSH_CONFIG ", "\nExit codes: "})
        QVERIFY2(top.out.contains(QLatin1String(section)), section);
}

void TestCliConventions::stdinAndDoubleDash()
{
    const QByteArray spec = readFile(kSpec);
    QVERIFY(!spec.isEmpty());
    const Run fromFile = cli({QStringLiteral("render"), kSpec});
    How in;
    in.stdinData = spec;
    const Run fromStdin = cli({QStringLiteral("render"), QStringLiteral("-")}, in);
    QCOMPARE(fromStdin.exitCode, 0);
    QCOMPARE(fromStdin.out, fromFile.out);
    QVERIFY(fromStdin.out.contains(QLatin1String("#SBATCH --gres=gpu:v100:4")));
    // A malformed spec on stdin is named as such.
    in.stdinData = "{\"profile\": \"puhti\",,}";
    const Run bad = cli({QStringLiteral("render"), QStringLiteral("-")}, in);
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QLatin1String("<stdin>:1:")), qPrintable(bad.err));
    // "--" ends the options: a file whose name starts with a dash.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(kSpec, dir.filePath(QStringLiteral("--json"))));
    How here;
    here.workingDirectory = dir.path();
    const Run dashed = cli({QStringLiteral("render"), QStringLiteral("--"), QStringLiteral("--json")}, here);
    QCOMPARE(dashed.exitCode, 0);
    QCOMPARE(dashed.out, fromFile.out);
    // lint reads its script from stdin too.
    in.stdinData = "#!/bin/bash\n#SBATCH --ntasks=2\n#SBATCH --gres=gpu:v100:2\npython train.py\n";
    const Run lint = cli({QStringLiteral("lint"), QStringLiteral("--profile"), QStringLiteral("puhti"),
                          QStringLiteral("--json"), QStringLiteral("-")},
                         in);
    QVERIFY2(lint.exitCode == 0 || lint.exitCode == 1, qPrintable(lint.err));
    QCOMPARE(jsonOf(lint).value(QStringLiteral("spec")).toObject().value(QStringLiteral("gpus")).toInt(), 2);
}

void TestCliConventions::jsonHasASchemaOnEveryCommand_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("listKey");   // an array the document must hold
    QTest::newRow("profiles") << QStringList{QStringLiteral("profiles"), QStringLiteral("--json")} << 0
                              << QStringLiteral("scalelab.profiles.v1") << QStringLiteral("profiles");
    QTest::newRow("render") << QStringList{QStringLiteral("render"), QStringLiteral("--json"), kSpec} << 0
                            << QStringLiteral("scalelab.render.v1") << QStringLiteral("diagnostics");
    QTest::newRow("runs") << QStringList{QStringLiteral("runs"), QStringLiteral("--json")} << 0
                          << QStringLiteral("scalelab.runs.v1") << QStringLiteral("runs");
    QTest::newRow("store") << QStringList{QStringLiteral("store"), QStringLiteral("check"), QStringLiteral("--json")}
                           << 0 << QStringLiteral("scalelab.store.v1") << QStringLiteral("backups");
    // Nothing active: status needs no cluster to answer.
    QTest::newRow("status") << QStringList{QStringLiteral("status"), QStringLiteral("--json")} << 0
                            << QStringLiteral("scalelab.status.v1") << QStringLiteral("runs");
}

void TestCliConventions::jsonHasASchemaOnEveryCommand()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, schema);
    QFETCH(QString, listKey);
    const Run r = cli(args, m_env);
    QCOMPARE(r.exitCode, exitCode);
    const QJsonObject o = jsonOf(r);
    QCOMPARE(o.value(QStringLiteral("schema")).toString(), schema);
    QVERIFY2(o.value(listKey).isArray(), qPrintable(r.out));
    // submit, study, cancel and fetch print theirs after talking to a cluster
    // (tests/cluster/tst_cli_cluster); here: they take --json, and an
    // unusable input is one JSON object with the error (tst_cli_output).
    for (const char *cmd : {"submit", "study", "cancel", "fetch", "report"}) {
        const Run bad = cli({QString::fromLatin1(cmd), QStringLiteral("--json"), QStringLiteral("--help")});
        QCOMPARE(bad.exitCode, 0);
        QVERIFY2(bad.out.contains(QLatin1String("--json ")), cmd);
    }
    const Run missing =
        cli({QStringLiteral("submit"), QStringLiteral("--json"), m_dir.filePath(QStringLiteral("no.json"))}, m_env);
    QCOMPARE(missing.exitCode, 2);
    QCOMPARE(jsonOf(missing).value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.submit.v1"));
    QVERIFY2(jsonOf(missing).value(QStringLiteral("error")).isObject(), qPrintable(missing.out));
}

void TestCliConventions::writeErrorsAreNotSuccess()
{
    if (!QFileInfo::exists(QStringLiteral("/dev/full")))
        QSKIP("no /dev/full on this system");
    How full = m_env;
    full.stdoutFile = QStringLiteral("/dev/full");
    for (const QStringList &args :
         {QStringList{QStringLiteral("profiles")}, QStringList{QStringLiteral("profiles"), QStringLiteral("--json")},
          QStringList{QStringLiteral("--help")}, QStringList{QStringLiteral("render"), kSpec}}) {
        const Run r = cli(args, full);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("scalelab: could not write the output: No space left on device")),
                 qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
    }
}

void TestCliConventions::noDisplayIsSaid()
{
    How none;
    none.unset = {QStringLiteral("QT_QPA_PLATFORM")};
    const Run r = cli({}, none);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err, QStringLiteral("scalelab: no display: use a headless command, see scalelab --help\n"));
    QVERIFY(r.out.isEmpty());
}

// Finished runs on two clusters: nothing for status to poll, so no SSH.
void TestCliConventions::storeTwoClusters()
{
    RunStore store(m_dir.filePath(QStringLiteral("data")));
    QCOMPARE(store.open().errorText(), QString());
    if (!store.runs().value().isEmpty())
        return;
    for (const char *alias : {"alpha", "beta", "alpha"}) {
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QString::fromLatin1(alias);
        r.gpus = 2;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        r.script =
            QStringLiteral("#!/bin/bash\n#SBATCH --job-name=resnet-%1\n#SBATCH --gpus=2\nsrun train.py\n").arg(alias);
        r.specJson =
            QStringLiteral("{\"profile\": \"testbed\", \"gpus\": 2, \"program\": \"train-%1.py\"}").arg(alias).toUtf8();
        const auto created = store.createRun(r);
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        QCOMPARE(store.markSubmitted(created.value().id, QString::number(100 + created.value().id)).errorText(),
                 QString());
        QCOMPARE(store
                     .setSlurmVersion(created.value().id, QString::fromLatin1(alias) == QLatin1String("beta")
                                                              ? QStringLiteral("24.11.5")
                                                              : QStringLiteral("22.05.8"))
                     .errorText(),
                 QString());
        QVERIFY(store.updateState(created.value().id, JobState::Completed, QString()).ok());
    }
}

void TestCliConventions::statusConnectionFilters()
{
    storeTwoClusters();
    auto clustersOf = [](const Run &r) {
        QStringList out;
        for (const auto &v : jsonOf(r).value(QStringLiteral("runs")).toArray())
            out << v.toObject().value(QStringLiteral("cluster")).toString();
        return out;
    };
    Run all = cli({QStringLiteral("status"), QStringLiteral("--json")}, m_env);
    QCOMPARE(all.exitCode, 0);
    QCOMPARE(clustersOf(all), (QStringList{QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("alpha")}));
    Run alpha = cli(
        {QStringLiteral("status"), QStringLiteral("--json"), QStringLiteral("--connection"), QStringLiteral("alpha")},
        m_env);
    QCOMPARE(alpha.exitCode, 0);
    QCOMPARE(clustersOf(alpha), (QStringList{QStringLiteral("alpha"), QStringLiteral("alpha")}));
    Run text = cli({QStringLiteral("status"), QStringLiteral("--connection=beta")}, m_env);
    QCOMPARE(text.exitCode, 0);
    QCOMPARE(text.out.count(QLatin1Char('\n')), 2);   // header + beta's one run
    QVERIFY2(text.out.contains(QLatin1String(" beta ")) && !text.out.contains(QLatin1String("alpha")),
             qPrintable(text.out));
}

// A run whose final state and accounting were stored by a command that ended
// before its ingest: `status` stores its metrics, without any connection.
void TestCliConventions::statusIngestsRunsFinishedWithoutMetrics()
{
    const QString data = m_dir.filePath(QStringLiteral("data-late"));
    qint64 id = 0;
    {
        RunStore store(data);
        QCOMPARE(store.open().errorText(), QString());
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("alpha");
        r.gpus = 2;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        const auto created = store.createRun(r);
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        id = created.value().id;
        QCOMPARE(store.markSubmitted(id, QStringLiteral("300")).errorText(), QString());
        SacctRecord acct;
        acct.jobId = QStringLiteral("300");
        acct.state = JobState::Completed;
        acct.stateText = QStringLiteral("COMPLETED");
        acct.exitCode = QStringLiteral("0:0");
        acct.elapsed = QStringLiteral("00:05:00");
        acct.allocTres = QStringLiteral("billing=4,cpu=4,gres/gpu=2,node=1");
        QCOMPARE(store.recordFinal(id, acct).errorText(), QString());
        QCOMPARE(store.metrics(id).value().size(), 0);
    }
    How env;
    env.extra.insert(QStringLiteral("SCALELAB_DATA_DIR"), data);
    const Run r = cli({QStringLiteral("status"), QStringLiteral("--json")}, env);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(jsonOf(r).value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.status.v1"));
    QVERIFY2(r.err.contains(QStringLiteral("run %1: had finished without metrics; ingested now").arg(id)),
             qPrintable(r.err));
    RunStore store(data);
    QCOMPARE(store.open().errorText(), QString());
    double elapsed = -1;
    for (const MetricRecord &m : store.metrics(id).value())
        if (m.name == QLatin1String("elapsed_s"))
            elapsed = m.value;
    QCOMPARE(elapsed, 300.0);
    // Once only: the next status has nothing to ingest.
    QVERIFY2(!cli({QStringLiteral("status")}, env).out.contains(QLatin1String("ingested now")), "ingested twice");
}

// The live watch's alerts are stored with their run: `status --json` lists
// them under each run, with the thresholds in force (Settings' "alerts/").
void TestCliConventions::statusJsonCarriesAlerts()
{
    const QString data = m_dir.filePath(QStringLiteral("data-alerts"));
    const QString settings = m_dir.filePath(QStringLiteral("alerts.ini"));
    qint64 id = 0;
    {
        RunStore store(data);
        QCOMPARE(store.open().errorText(), QString());
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("alpha");
        r.gpus = 4;
        id = store.createRun(r).value().id;
        QCOMPARE(store.markSubmitted(id, QStringLiteral("301")).errorText(), QString());
        QVERIFY(store.updateState(id, JobState::Cancelled, QString()).ok());
        AlertRecord a;
        a.runId = id;
        a.rule = QStringLiteral("gpu-idle");
        a.title = QStringLiteral("GPUs idle");
        a.evidence = QStringLiteral("GPU n1:1, n1:2, n1:3 under 5 % for 301 s after warm-up while n1:0 works");
        a.action = QStringLiteral("Start one process per GPU.");
        a.raisedAt = QDateTime(QDate(2026, 11, 27), QTime(10, 5), QTimeZone::utc());
        QCOMPARE(store.recordAlert(a).value(), true);
    }
    QFile ini(settings);
    QVERIFY(ini.open(QIODevice::WriteOnly));
    ini.write("[alerts]\nidleSeconds=90\ndisabled=throughput-drop\n");
    ini.close();
    How env;
    env.extra.insert(QStringLiteral("SCALELAB_DATA_DIR"), data);
    env.extra.insert(QStringLiteral("SCALELAB_SETTINGS_FILE"), settings);
    const Run r = cli({QStringLiteral("status"), QStringLiteral("--json")}, env);
    QCOMPARE(r.exitCode, 0);
    const QJsonObject json = jsonOf(r);
    const QJsonArray alerts =
        json.value(QStringLiteral("runs")).toArray().at(0).toObject().value(QStringLiteral("alerts")).toArray();
    QCOMPARE(alerts.size(), 1);
    QCOMPARE(alerts.at(0).toObject().value(QStringLiteral("rule")).toString(), QStringLiteral("gpu-idle"));
    QVERIFY(
        alerts.at(0).toObject().value(QStringLiteral("evidence")).toString().contains(QStringLiteral("n1:0 works")));
    QCOMPARE(alerts.at(0).toObject().value(QStringLiteral("raisedAt")).toString(),
             QStringLiteral("2026-11-27T10:05:00Z"));
    const QJsonObject t = json.value(QStringLiteral("alertThresholds")).toObject();
    QCOMPARE(t.value(QStringLiteral("idleSeconds")).toDouble(), 90.0);
    QCOMPARE(t.value(QStringLiteral("idlePercent")).toDouble(), 5.0);
    QCOMPARE(t.value(QStringLiteral("disabled")).toArray().at(0).toString(), QStringLiteral("throughput-drop"));
}

void TestCliConventions::runsJsonCarriesJobNameSlurmAndSpec()
{
    storeTwoClusters();
    const Run r = cli({QStringLiteral("runs"), QStringLiteral("--json")}, m_env);
    QCOMPARE(r.exitCode, 0);
    const QJsonArray runs = jsonOf(r).value(QStringLiteral("runs")).toArray();
    QCOMPARE(runs.size(), 3);
    const QJsonObject beta = runs.at(1).toObject();
    QCOMPARE(beta.value(QStringLiteral("cluster")).toString(), QStringLiteral("beta"));
    QCOMPARE(beta.value(QStringLiteral("jobName")).toString(), QStringLiteral("resnet-beta"));
    QCOMPARE(beta.value(QStringLiteral("slurmVersion")).toString(), QStringLiteral("24.11.5"));
    QCOMPARE(runs.at(0).toObject().value(QStringLiteral("slurmVersion")).toString(), QStringLiteral("22.05.8"));
    // The spec each run was made from, as the object it was (not a string).
    const QJsonObject spec = beta.value(QStringLiteral("spec")).toObject();
    QCOMPARE(spec.value(QStringLiteral("program")).toString(), QStringLiteral("train-beta.py"));
    QCOMPARE(spec.value(QStringLiteral("gpus")).toInt(), 2);
    QCOMPARE(spec.keys(), (QStringList{QStringLiteral("gpus"), QStringLiteral("profile"), QStringLiteral("program")}));
    // Stored without a spec file (as from stdin or the window's form): null, not "".
    QVERIFY(beta.contains(QStringLiteral("specFile")));
    QVERIFY(beta.value(QStringLiteral("specFile")).isNull());
}

void TestCliConventions::storeChecksBacksUpAndRestores()
{
    storeTwoClusters();
    const Run backup = cli({QStringLiteral("store"), QStringLiteral("backup"), QStringLiteral("--json")}, m_env);
    QCOMPARE(backup.exitCode, 0);
    const QString copy =
        jsonOf(backup).value(QStringLiteral("backup")).toObject().value(QStringLiteral("path")).toString();
    QVERIFY2(QFile::exists(copy), qPrintable(backup.out));
    RunStore store(m_dir.filePath(QStringLiteral("data")));
    RunRecord extra;
    extra.clusterAlias = QStringLiteral("gamma");
    QVERIFY(store.createRun(extra).ok());
    QCOMPARE(store.runs()->size(), 4);
    const Run restored = cli({QStringLiteral("store"), QStringLiteral("restore"), QStringLiteral("--json")}, m_env);
    QCOMPARE(restored.exitCode, 0);
    QCOMPARE(jsonOf(restored).value(QStringLiteral("restoredFrom")).toString(), copy);
    QCOMPARE(jsonOf(restored).value(QStringLiteral("runs")).toInt(), 3);
    QCOMPARE(RunStore(m_dir.filePath(QStringLiteral("data"))).runs()->size(), 3);
    const Run check = cli({QStringLiteral("store"), QStringLiteral("check")}, m_env);
    QCOMPARE(check.exitCode, 0);
    QVERIFY2(check.out.contains(QLatin1String("sound")), qPrintable(check.out));
    const Run typo = cli({QStringLiteral("store"), QStringLiteral("chek")}, m_env);
    QCOMPARE(typo.exitCode, 2);
    QVERIFY2(typo.err.contains(QLatin1String("did you mean \"check\"")), qPrintable(typo.err));

    // A store that is not an SQLite file: said in plain words, with the way out.
    How damaged = m_env;
    const QString other = m_dir.filePath(QStringLiteral("damaged"));
    QVERIFY(QDir().mkpath(other));
    damaged.extra.insert(QStringLiteral("SCALELAB_DATA_DIR"), other);
    QFile junk(other + QStringLiteral("/runs.sqlite"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write(QByteArray(5000, 'x'));
    junk.close();
    const Run runs = cli({QStringLiteral("runs")}, damaged);
    QCOMPARE(runs.exitCode, 1);
    QVERIFY2(runs.err.contains(junk.fileName()) && runs.err.contains(QLatin1String("is damaged"))
                 && runs.err.contains(QLatin1String("scalelab store restore")),
             qPrintable(runs.err));
    const Run checked = cli({QStringLiteral("store"), QStringLiteral("check")}, damaged);
    QCOMPARE(checked.exitCode, 1);
    QVERIFY2(checked.err.contains(QLatin1String("not an SQLite database")), qPrintable(checked.err));
    QCOMPARE(readFile(junk.fileName()), QByteArray(5000, 'x'));
}

void TestCliConventions::runsLeaveHiddenOutUnlessAll()
{
    storeTwoClusters();
    RunStore store(m_dir.filePath(QStringLiteral("data")));
    QCOMPARE(store.open().errorText(), QString());
    const QList<RunRecord> stored = store.runs().value();
    QCOMPARE(stored.size(), 3);
    const qint64 beta = stored.at(1).id;
    QCOMPARE(stored.at(1).clusterAlias, QStringLiteral("beta"));
    // Hidden in the window (Jobs ▸ Hide); shown again afterwards for the other tests.
    QCOMPARE(store.setHidden(beta, true).errorText(), QString());
    const auto unhide = qScopeGuard([&store, beta] { (void)store.setHidden(beta, false); });

    const Run json = cli({QStringLiteral("runs"), QStringLiteral("--json")}, m_env);
    QCOMPARE(json.exitCode, 0);
    const QJsonArray shown = jsonOf(json).value(QStringLiteral("runs")).toArray();
    QCOMPARE(shown.size(), 2);
    for (const auto &v : shown) {
        QVERIFY(v.toObject().value(QStringLiteral("id")).toInteger() != beta);
        QVERIFY2(!v.toObject().contains(QStringLiteral("hidden")), "the default document stays as it was");
    }
    const Run text = cli({QStringLiteral("runs")}, m_env);
    QCOMPARE(text.exitCode, 0);
    QCOMPARE(text.out.count(QLatin1Char('\n')), 2);
    QVERIFY2(!text.out.contains(QLatin1String(" beta ")), qPrintable(text.out));

    // --all: every run, each saying whether it is hidden.
    const Run allJson = cli({QStringLiteral("runs"), QStringLiteral("--all"), QStringLiteral("--json")}, m_env);
    QCOMPARE(allJson.exitCode, 0);
    const QJsonArray all = jsonOf(allJson).value(QStringLiteral("runs")).toArray();
    QCOMPARE(all.size(), 3);
    for (const auto &v : all) {
        const QJsonObject o = v.toObject();
        QVERIFY2(o.value(QStringLiteral("hidden")).isBool(), qPrintable(allJson.out));
        QCOMPARE(o.value(QStringLiteral("hidden")).toBool(), o.value(QStringLiteral("id")).toInteger() == beta);
    }
    QCOMPARE(all.at(1).toObject().value(QStringLiteral("jobName")).toString(), QStringLiteral("resnet-beta"));
    const Run allText = cli({QStringLiteral("runs"), QStringLiteral("--all")}, m_env);
    QCOMPARE(allText.exitCode, 0);
    const QStringList lines = allText.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines.at(1).startsWith(QString::number(beta) + QStringLiteral("  "))
                 && lines.at(1).contains(QLatin1String(" beta ")) && lines.at(1).endsWith(QLatin1String("  (hidden)")),
             qPrintable(allText.out));
    QVERIFY2(!lines.at(0).contains(QLatin1String("hidden")), qPrintable(allText.out));
    // Said in the help (the completions read their options from it).
    const Run help = cli({QStringLiteral("runs"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.contains(QLatin1String("--all")), qPrintable(help.out));
}

QTEST_GUILESS_MAIN(TestCliConventions)
#include "tst_cli_conventions.moc"
