// SPDX-License-Identifier: GPL-3.0-or-later
// The headless CLI against the real loopback cluster: submit, status, fetch,
// cancel, dry run, a Slurm rejection, and a CLI killed right after sbatch ran
// (the next `status` must reconcile: exactly one job, nothing resubmitted).
#include "CliRunner.h"
#include "TestClusterEnv.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::test::runCli;

class TestCliCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void submitsReachCompleted();
    void dryRunAndRejection();
    void cancelRunningJob();
    void killedDuringSubmitIsSettledOnce_data();
    void killedDuringSubmitIsSettledOnce();
    void projectFolderRunsFromItsRunFolder();
    void killedDuringProjectUploadIsSentOnce_data();
    void killedDuringProjectUploadIsSentOnce();

private:
    // A project folder beside the specs (`proj`, with `files` small files and
    // train.py printing `marker` and its folder) and its spec piece.
    QString writeProject(const QString &marker, int files);
    qint64 jobsNamed(const QString &name);
    // `replace` swaps one piece of the written spec for another (from, to).
    QString writeSpec(const QString &name, int gpus, const QString &extra = {},
                      const std::pair<QByteArray, QByteArray> &replace = {});
    QJsonArray runsJson();
    QJsonObject waitForState(qint64 runId, const QStringList &states, int timeoutS);

    QTemporaryDir m_data;
    QTemporaryDir m_files;
    QString m_programs;
};

void TestCliCluster::initTestCase()
{
    const auto env = scalelab::test::TestClusterEnv::load();
    QVERIFY2(env.error.isEmpty(), qPrintable(env.error));
    qputenv("SCALELAB_DATA_DIR", m_data.path().toUtf8());
    // Jobs run as the cluster's researcher account on this machine: the
    // programs must be world-readable.
    m_programs = QStringLiteral("/tmp/scalelab-cli-test-%1").arg(QCoreApplication::applicationPid());
    QDir().mkpath(m_programs);
    QFile::setPermissions(m_programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                          | QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup
                                          | QFileDevice::ExeGroup);
    QFile hello(m_programs + QStringLiteral("/hello.py"));
    QVERIFY(hello.open(QIODevice::WriteOnly));
    hello.write("import os, socket\nprint('hello from rank', os.environ.get('SLURM_PROCID'), 'of', "
                "os.environ.get('SLURM_NTASKS'),\n"
                "      'on', socket.gethostname(), 'gpus', os.environ.get('CUDA_VISIBLE_DEVICES'), flush=True)\n");
    hello.close();
    QFile sleeper(m_programs + QStringLiteral("/sleeper.py"));
    QVERIFY(sleeper.open(QIODevice::WriteOnly));
    sleeper.write("import time\nprint('sleeping', flush=True)\ntime.sleep(600)\n");
    sleeper.close();
    for (const char *f : {"/hello.py", "/sleeper.py"})
        QFile::setPermissions(m_programs + QLatin1String(f), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                                 | QFileDevice::ReadOther | QFileDevice::ReadGroup);
}

QString TestCliCluster::writeSpec(const QString &name, int gpus, const QString &extra,
                                  const std::pair<QByteArray, QByteArray> &replace)
{
    const QString path = m_files.filePath(name + QStringLiteral(".json"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    QByteArray text =
        QStringLiteral(R"({"profile": "testbed", "partition": "gpu", "gpus": %1, "framework": "pytorch-ddp",
  "launcher": "srun", "time": "00:05:00", "account": "project_2001234", "jobName": "%2", "cpusPerGpu": 1,
  "program": "%3/hello.py", "monitoring": {"gpuSampleSeconds": 1}%4})")
            .arg(gpus)
            .arg(name, m_programs, extra)
            .toUtf8();
    if (!replace.first.isEmpty())
        text.replace(replace.first, replace.second);
    f.write(text);
    return path;
}

QJsonArray TestCliCluster::runsJson()
{
    const auto r = runCli({QStringLiteral("runs"), QStringLiteral("--json")});
    return QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("runs")).toArray();
}

QJsonObject TestCliCluster::waitForState(qint64 runId, const QStringList &states, int timeoutS)
{
    QElapsedTimer t;
    t.start();
    QJsonObject last;
    while (t.elapsed() < timeoutS * 1000) {
        runCli({QStringLiteral("status")});
        for (const auto &v : runsJson())
            if (v.toObject().value(QStringLiteral("id")).toInteger() == runId)
                last = v.toObject();
        if (states.contains(last.value(QStringLiteral("state")).toString()))
            return last;
        QThread::msleep(1500);
    }
    return last;
}

void TestCliCluster::submitsReachCompleted()
{
    QList<qint64> ids;
    const QList<int> gpus{1, 2, 4, 8};
    QString lastSpec;
    for (int n : gpus) {
        const QString spec = writeSpec(QStringLiteral("hello-%1").arg(n), n);
        lastSpec = spec;
        if (n == 1) {
            // --json: one document on stdout, what was stored and sent.
            const auto r = runCli({QStringLiteral("submit"), QStringLiteral("--json"), spec});
            QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
            const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(doc.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.submit.v1"));
            QCOMPARE(doc.value(QStringLiteral("cluster")).toString(), QStringLiteral("testbed"));
            const QJsonArray runs = doc.value(QStringLiteral("runs")).toArray();
            QCOMPARE(runs.size(), 1);
            const QJsonObject run = runs.first().toObject();
            QCOMPARE(run.value(QStringLiteral("submitState")).toString(), QStringLiteral("submitted"));
            QVERIFY2(!run.value(QStringLiteral("jobId")).toString().isEmpty(), qPrintable(r.out));
            QCOMPARE(run.value(QStringLiteral("jobName")).toString(), QStringLiteral("hello-1"));
            QVERIFY2(r.err.contains(QLatin1String("submitted as job")), qPrintable(r.err));   // the human lines
            ids << run.value(QStringLiteral("id")).toInteger();
            continue;
        }
        const auto r = runCli({QStringLiteral("submit"), spec});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        static const QRegularExpression re(QStringLiteral("run (\\d+): submitted as job (\\d+)"));
        const auto m = re.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        ids << m.captured(1).toLongLong();
    }
    for (int i = 0; i < ids.size(); ++i) {
        const QJsonObject run = waitForState(ids[i], {QStringLiteral("COMPLETED"), QStringLiteral("FAILED")}, 180);
        QCOMPARE(run.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
        const QString tres =
            run.value(QStringLiteral("accounting")).toObject().value(QStringLiteral("allocTres")).toString();
        QVERIFY2(tres.contains(QStringLiteral("gres/gpu=%1").arg(gpus[i])), qPrintable(tres));
        QCOMPARE(run.value(QStringLiteral("nodes")).toInt(), gpus[i] > 4 ? 2 : 1);
    }
    // Finished runs were fetched by `status`; the output holds every rank.
    const QString out = m_data.filePath(QStringLiteral("runs/%1").arg(ids.last()));
    QDir dir(out);
    const auto outs = dir.entryList({QStringLiteral("scalelab-*.out")}, QDir::Files);
    QVERIFY2(!outs.isEmpty(), qPrintable(out));
    QFile log(dir.filePath(outs.front()));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray text = log.readAll();
    for (int rank = 0; rank < 8; ++rank)
        QVERIFY2(text.contains(QStringLiteral("hello from rank %1 of 8").arg(rank).toUtf8()), text.constData());
    // The nodes' (emulated) nvidia-smi is on the job's PATH: the sampler ran, no "no GPU samples" marker.
    QVERIFY2(!text.contains("no GPU samples"), text.constData());
    // `fetch` again on demand.
    const auto f = runCli({QStringLiteral("fetch"), QString::number(ids.first())});
    QVERIFY2(f.exitCode == 0, qPrintable(f.err));
    QVERIFY(f.out.contains(QLatin1String("scalelab-")));
    const auto fj = runCli({QStringLiteral("fetch"), QStringLiteral("--json"), QString::number(ids.first())});
    QVERIFY2(fj.exitCode == 0, qPrintable(fj.err));
    const QJsonObject fetched = QJsonDocument::fromJson(fj.out.toUtf8()).object();
    QCOMPARE(fetched.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.fetch.v1"));
    QCOMPARE(fetched.value(QStringLiteral("run")).toObject().value(QStringLiteral("id")).toInteger(), ids.first());
    QVERIFY2(fetched.value(QStringLiteral("files"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("localPath"))
                 .toString()
                 .contains(QLatin1String("scalelab-")),
             qPrintable(fj.out));
    // runs --json: the job name Slurm was given and the spec file it came from.
    bool listed = false;
    for (const auto &v : runsJson())
        if (v.toObject().value(QStringLiteral("id")).toInteger() == ids.last()) {
            listed = true;
            QCOMPARE(v.toObject().value(QStringLiteral("jobName")).toString(), QStringLiteral("hello-8"));
            QCOMPARE(v.toObject().value(QStringLiteral("specFile")).toString(), QFileInfo(lastSpec).absoluteFilePath());
        }
    QVERIFY(listed);
}

void TestCliCluster::dryRunAndRejection()
{
    auto r = runCli({QStringLiteral("submit"), writeSpec(QStringLiteral("dry"), 2), QStringLiteral("--dry-run")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QLatin1String("accepted")) && r.out.contains(QLatin1String("to start at")),
             qPrintable(r.out));
    const qsizetype before = runsJson().size();
    // A study's dry run as JSON: one verdict per GPU count, nothing stored.
    r = runCli({QStringLiteral("study"), QStringLiteral("--json"), QStringLiteral("--dry-run"),
                QStringLiteral("--gpus"), QStringLiteral("1,2"), writeSpec(QStringLiteral("drystudy"), 1)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const QJsonObject dry = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(dry.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.study.v1"));
    QCOMPARE(dry.value(QStringLiteral("dryRun")).toBool(), true);
    const QJsonArray variants = dry.value(QStringLiteral("variants")).toArray();
    QCOMPARE(variants.size(), 2);
    QCOMPARE(variants.at(1).toObject().value(QStringLiteral("gpus")).toInt(), 2);
    QCOMPARE(variants.at(1).toObject().value(QStringLiteral("accepted")).toBool(), true);
    QCOMPARE(runsJson().size(), before);
    // Passes ScaleLab's checks (the pattern fits) but the account does not exist.
    const QString spec = writeSpec(QStringLiteral("badacct"), 1, {}, {"project_2001234", "project_9999999"});
    r = runCli({QStringLiteral("submit"), spec});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains(QLatin1String("Invalid account")), qPrintable(r.out));
    const QJsonArray after = runsJson();
    QCOMPARE(after.size(), before + 1);
    QCOMPARE(after.last().toObject().value(QStringLiteral("submitState")).toString(), QStringLiteral("rejected"));
}

void TestCliCluster::cancelRunningJob()
{
    const QString spec = writeSpec(QStringLiteral("sleeper"), 1, {}, {"hello.py", "sleeper.py"});
    auto r = runCli({QStringLiteral("submit"), spec});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const qint64 id = QRegularExpression(QStringLiteral("run (\\d+):")).match(r.out).captured(1).toLongLong();
    QCOMPARE(waitForState(id, {QStringLiteral("RUNNING")}, 60).value(QStringLiteral("state")).toString(),
             QStringLiteral("RUNNING"));
    r = runCli({QStringLiteral("cancel"), QStringLiteral("--json"), QString::number(id)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject cancelled = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(cancelled.value(QStringLiteral("schema")).toString(), QStringLiteral("scalelab.cancel.v1"));
    QCOMPARE(cancelled.value(QStringLiteral("cancelled")).toBool(), true);
    QCOMPARE(cancelled.value(QStringLiteral("run")).toObject().value(QStringLiteral("id")).toInteger(), id);
    QCOMPARE(waitForState(id, {QStringLiteral("CANCELLED")}, 90).value(QStringLiteral("state")).toString(),
             QStringLiteral("CANCELLED"));
}

void TestCliCluster::killedDuringSubmitIsSettledOnce_data()
{
    QTest::addColumn<QString>("step");
    QTest::addColumn<QString>("statusLine");   // what `status` says about the run afterwards
    QTest::addColumn<QString>("submitState");
    // The job exists but its id was never stored: found by reconcile.
    QTest::newRow("after sbatch returned") << "sbatch-returned"
                                           << "run %1: reconciled, job "
                                           << "reconciled";
    // "unknown" stored, sbatch never sent: reconcile sees no job and sends it, once.
    QTest::newRow("before sbatch was sent") << "unknown-stored"
                                            << "run %1: was not submitted; submitted as job "
                                            << "submitted";
}

void TestCliCluster::killedDuringSubmitIsSettledOnce()
{
#ifndef SCALELAB_TEST_HOOKS
    QSKIP("scalelab was built without the fault hook: configure with -DSCALELAB_TEST_HOOKS=ON (./setup.sh test does)");
#endif
    QFETCH(QString, step);
    QFETCH(QString, statusLine);
    QFETCH(QString, submitState);
    const qsizetype before = runsJson().size();
    QProcessEnvironment env;
    // A step of the submit protocol, not a command: the `sbatch --version`
    // probe, reconcile and polls cannot trigger it.
    env.insert(QStringLiteral("SCALELAB_FAULT_KILL_AFTER"), step);
    // Unique per test run: the cluster's accounting outlives the test.
    const QString name = QStringLiteral("killed-%1-%2").arg(step).arg(QCoreApplication::applicationPid());
    const auto killed = runCli({QStringLiteral("submit"), writeSpec(name, 2)}, env);
    QCOMPARE(killed.exitCode, -1);   // died by SIGKILL at that step
    QJsonArray runs = runsJson();
    QCOMPARE(runs.size(), before + 1);
    const QJsonObject run = runs.last().toObject();
    const qint64 id = run.value(QStringLiteral("id")).toInteger();
    QCOMPARE(run.value(QStringLiteral("jobId")).toString(), QString());
    QCOMPARE(run.value(QStringLiteral("submitState")).toString(), QStringLiteral("unknown"));
    const auto st = runCli({QStringLiteral("status")});
    QVERIFY2(st.out.contains(statusLine.arg(id)), qPrintable(st.out + st.err));
    const QJsonObject done = waitForState(id, {QStringLiteral("COMPLETED")}, 120);
    QCOMPARE(done.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
    QCOMPARE(done.value(QStringLiteral("submitState")).toString(), submitState);
    // Exactly one job carries this run's name on the cluster.
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-F"), qEnvironmentVariable("SCALELAB_SSH_CONFIG"), QStringLiteral("testbed"),
               QStringLiteral("sacct"), QStringLiteral("-X"), QStringLiteral("-n"), QStringLiteral("-P"),
               QStringLiteral("--name=") + name, QStringLiteral("--format=JobID")});
    QVERIFY(ssh.waitForFinished(30000));
    const QStringList jobs =
        QString::fromUtf8(ssh.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(jobs.size(), 1);
    QCOMPARE(jobs.front().trimmed(), done.value(QStringLiteral("jobId")).toString());
}

QString TestCliCluster::writeProject(const QString &marker, int files)
{
    const QString dir = m_files.filePath(QStringLiteral("proj"));
    QDir().mkpath(dir);
    QFile train(dir + QStringLiteral("/train.py"));
    train.open(QIODevice::WriteOnly);
    train.write("import os\nprint('" + marker.toUtf8() + "', os.getcwd(), flush=True)\n");
    for (int i = 0; i < files; ++i) {
        QFile f(dir + QStringLiteral("/data%1.txt").arg(i));
        f.open(QIODevice::WriteOnly);
        f.write(marker.toUtf8() + QByteArray::number(i));
    }
    // Relative to the spec's folder; the remote folder is this test run's own.
    return QStringLiteral(R"(, "project": {"folder": "proj", "remoteFolder": "~/scalelab-cli-test-%1"})")
        .arg(QCoreApplication::applicationPid());
}

qint64 TestCliCluster::jobsNamed(const QString &name)
{
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-F"), qEnvironmentVariable("SCALELAB_SSH_CONFIG"), QStringLiteral("testbed"),
               QStringLiteral("sacct"), QStringLiteral("-X"), QStringLiteral("-n"), QStringLiteral("-P"),
               QStringLiteral("--starttime=now-2hours"), QStringLiteral("--name=") + name,
               QStringLiteral("--format=JobID")});
    if (!ssh.waitForFinished(30000))
        return -1;
    return QString::fromUtf8(ssh.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size();
}

// `submit --project`: the progress on stderr, the job runs train.py from its
// own run folder, a second submit sends only the edited file.
void TestCliCluster::projectFolderRunsFromItsRunFolder()
{
    const QString name = QStringLiteral("project-cli-%1").arg(QCoreApplication::applicationPid());
    const QString extra = writeProject(QStringLiteral("first-code"), 10);
    const QString spec = writeSpec(
        name, 1, extra, {"\"program\": \"" + m_programs.toUtf8() + "/hello.py\"", "\"program\": \"train.py\""});
    const auto r = runCli({QStringLiteral("submit"), QStringLiteral("--json"), spec});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.err.contains(QLatin1String("project ")) && r.err.contains(QLatin1String("11 files")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("project: sent 11/11 files")), qPrintable(r.err));
    const qint64 id = QJsonDocument::fromJson(r.out.toUtf8())
                          .object()
                          .value("runs")
                          .toArray()
                          .first()
                          .toObject()
                          .value("id")
                          .toInteger();
    QFile train(m_files.filePath(QStringLiteral("proj/train.py")));
    QVERIFY(train.open(QIODevice::Append));
    train.write("# edited\n");
    train.close();
    const auto again = runCli({QStringLiteral("submit"), spec});
    QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    QVERIFY2(again.err.contains(QLatin1String("project: sent 1/1 files")), qPrintable(again.err));
    const QJsonObject done = waitForState(id, {QStringLiteral("COMPLETED"), QStringLiteral("FAILED")}, 180);
    QCOMPARE(done.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
    const auto fetched = runCli({QStringLiteral("fetch"), QString::number(id)});
    QVERIFY2(fetched.exitCode == 0, qPrintable(fetched.out + fetched.err));
    QDirIterator it(m_data.path(), {QStringLiteral("scalelab-*.out")}, QDir::Files, QDirIterator::Subdirectories);
    bool seen = false;
    while (it.hasNext()) {
        QFile out(it.next());
        out.open(QIODevice::ReadOnly);
        const QByteArray text = out.readAll();
        seen = seen || (text.contains("first-code") && text.contains("/runs/sl-"));
    }
    QVERIFY2(seen, "no fetched output shows train.py running in its run folder");
}

void TestCliCluster::killedDuringProjectUploadIsSentOnce_data()
{
    QTest::addColumn<QString>("step");
    QTest::newRow("objects-pack-sent") << "objects-pack-sent";
    QTest::newRow("snapshot-sent") << "snapshot-sent";
    QTest::newRow("snapshot-laid-out") << "snapshot-laid-out";
}

// Killed (SIGKILL) at each step of the project's upload: no job; the next
// `status` sends the rest and exactly one job, which completes.
void TestCliCluster::killedDuringProjectUploadIsSentOnce()
{
#ifndef SCALELAB_TEST_HOOKS
    QSKIP("scalelab was built without the fault hook: configure with -DSCALELAB_TEST_HOOKS=ON (./setup.sh test does)");
#endif
    QFETCH(QString, step);
    const QString name = QStringLiteral("killed-project-%1-%2").arg(step).arg(QCoreApplication::applicationPid());
    const QString extra = writeProject(name, 600);   // two packs
    const QString spec = writeSpec(
        name, 1, extra, {"\"program\": \"" + m_programs.toUtf8() + "/hello.py\"", "\"program\": \"train.py\""});
    QProcessEnvironment env;
    env.insert(QStringLiteral("SCALELAB_FAULT_KILL_AFTER"), step);
    const auto killed = runCli({QStringLiteral("submit"), spec}, env);
    QCOMPARE(killed.exitCode, -1);
    const QJsonObject run = runsJson().last().toObject();
    const qint64 id = run.value(QStringLiteral("id")).toInteger();
    QCOMPARE(run.value(QStringLiteral("jobId")).toString(), QString());
    QCOMPARE(run.value(QStringLiteral("submitState")).toString(), QStringLiteral("intent"));
    QCOMPARE(jobsNamed(name), 0);
    const auto st = runCli({QStringLiteral("status")});
    QVERIFY2(st.out.contains(QStringLiteral("run %1: was not submitted; submitted as job ").arg(id)),
             qPrintable(st.out + st.err));
    const QJsonObject done = waitForState(id, {QStringLiteral("COMPLETED"), QStringLiteral("FAILED")}, 180);
    QCOMPARE(done.value(QStringLiteral("state")).toString(), QStringLiteral("COMPLETED"));
    QCOMPARE(jobsNamed(name), 1);
}

QTEST_GUILESS_MAIN(TestCliCluster)
#include "tst_cli_cluster.moc"
