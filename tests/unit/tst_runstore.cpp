// SPDX-License-Identifier: GPL-3.0-or-later
// The run store: schema, runs and their history, accounting, files, metrics,
// per-thread connections, and surviving kill -9 in the middle of writes.
#include "core/store/RunStore.h"
#include "core/slurm/SacctParser.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <cstdio>

using namespace scalelab;

namespace {

SacctRecord sampleRecord(const QString &jobId)
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/slurm-samples/sacct-parsable2-all.txt"));
    f.open(QIODevice::ReadOnly);
    const auto parsed = SacctParser::parseWithHeader(f.readAll());
    for (const auto &r : parsed.records)
        if (r.jobId == jobId)
            return r;
    return {};
}

RunRecord newRun(const QString &cluster = QStringLiteral("testbed"), int gpus = 2)
{
    RunRecord r;
    r.profile = QStringLiteral("testbed");
    r.clusterAlias = cluster;
    r.partition = QStringLiteral("gpu");
    r.gpus = gpus;
    r.nodes = 1;
    r.framework = QStringLiteral("pytorch-ddp");
    r.specJson = R"({"partition":"gpu","gpus":2})";
    r.script = QStringLiteral("#!/bin/bash\n#SBATCH --job-name='a researcher''s job'\necho hi\n");
    return r;
}

// Child process body: write complete runs in a loop until killed. A line is
// printed only after the run's last transaction committed.
int crashWriter(const QString &dir)
{
    RunStore store(dir);
    if (!store.open().errorText().isEmpty())
        return 2;
    const SacctRecord acct = sampleRecord(QStringLiteral("3"));
    for (int i = 0;; ++i) {
        auto run = store.createRun(newRun());
        if (!run.ok())
            return 3;
        const qint64 id = run.value().id;
        if (!store.markSubmitted(id, QString::number(1000 + i)).errorText().isEmpty())
            return 4;
        if (!store.updateState(id, JobState::Running, {}).ok())
            return 5;
        if (!store.recordFinal(id, acct).errorText().isEmpty())
            return 6;
        std::printf("committed %lld\n", static_cast<long long>(id));
        std::fflush(stdout);
    }
}

}   // namespace

class TestRunStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void opensAndMigrates();
    void reopenKeepsDataAndVersion();
    void refusesNewerSchema();
    void dataDirFromEnvironment();
    void studies();
    void createRunStoresIntent();
    void duplicateTokenRejected();
    void submitStatesAndActiveLists();
    void stateHistoryOnlyOnChange();
    void expectedStartAndQueueWaits();
    void finalStateWithAccounting();
    void filesAndMetrics();
    void foreignKeysEnforced();
    void concurrentThreads();
    void survivesKill9();

private:
    QTemporaryDir *m_dir = nullptr;
};

void TestRunStore::init()
{
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
}

void TestRunStore::cleanup()
{
    delete m_dir;
    m_dir = nullptr;
}

void TestRunStore::opensAndMigrates()
{
    RunStore store(m_dir->path());
    QCOMPARE(store.open().errorText(), QString());
    QVERIFY(QFile::exists(m_dir->path() + "/runs.sqlite"));
    QCOMPARE(store.schemaVersion().value(), RunStore::latestSchemaVersion());
    QCOMPARE(store.integrityCheck().value(), QStringLiteral("ok"));
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "raw-check");
        raw.setDatabaseName(store.databasePath());
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec("PRAGMA journal_mode"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        QVERIFY(q.exec("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"));
        QStringList tables;
        while (q.next())
            tables << q.value(0).toString();
        for (const char *t : {"accounting", "files", "metrics", "runs", "state_history", "studies"})
            QVERIFY2(tables.contains(QLatin1String(t)), t);
    }
    QSqlDatabase::removeDatabase("raw-check");
}

void TestRunStore::reopenKeepsDataAndVersion()
{
    qint64 id = 0;
    {
        RunStore store(m_dir->path());
        auto r = store.createRun(newRun());
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        id = r.value().id;
    }
    RunStore again(m_dir->path());
    QCOMPARE(again.schemaVersion().value(), RunStore::latestSchemaVersion());
    QVERIFY(again.run(id).ok());
}

void TestRunStore::refusesNewerSchema()
{
    {
        RunStore store(m_dir->path());
        QCOMPARE(store.open().errorText(), QString());
    }
    {
        QSqlDatabase raw = QSqlDatabase::addDatabase("QSQLITE", "raw-future");
        raw.setDatabaseName(m_dir->path() + "/runs.sqlite");
        QVERIFY(raw.open());
        QSqlQuery q(raw);
        QVERIFY(q.exec("PRAGMA user_version=99"));
    }
    QSqlDatabase::removeDatabase("raw-future");
    RunStore store(m_dir->path());
    const auto opened = store.open();
    // Recognised by its code; the message is for the researcher.
    QVERIFY(opened.failedWith(ErrorCode::StoreNewerSchema));
    QVERIFY(opened.errorText().contains("newer"));
    QVERIFY(opened.errorText().contains("99"));
    // Refused for the life of the RunStore, every call.
    QVERIFY(store.runs().failedWith(ErrorCode::StoreNewerSchema));
    QVERIFY(store.schemaVersion().failedWith(ErrorCode::StoreNewerSchema));
    QVERIFY(store.setMetric({1, "m", 1, "", ""}).failedWith(ErrorCode::StoreNewerSchema));
}

void TestRunStore::dataDirFromEnvironment()
{
    qputenv("SCALELAB_DATA_DIR", m_dir->path().toUtf8());
    QCOMPARE(RunStore::defaultDataDirectory(), m_dir->path());
    RunStore store;
    QCOMPARE(store.databasePath(), m_dir->path() + "/runs.sqlite");
    QCOMPARE(store.runFilesDirectory(7), m_dir->path() + "/runs/7");
    qunsetenv("SCALELAB_DATA_DIR");
    QVERIFY(RunStore::defaultDataDirectory().endsWith("/ScaleLab"));
}

void TestRunStore::studies()
{
    RunStore store(m_dir->path());
    auto id = store.createStudy({0, "scaling resnet", {}, R"({"gpus":1})", ""});
    QVERIFY2(id.ok(), qPrintable(id.errorText()));
    QVERIFY(!store.createStudy({0, "  ", {}, {}, {}}).ok());
    QCOMPARE(store.setStudyNotes(id.value(), "a researcher's notes").errorText(), QString());
    auto s = store.study(id.value());
    QVERIFY(s.ok());
    QCOMPARE(s.value().name, QStringLiteral("scaling resnet"));
    QCOMPARE(s.value().notes, QStringLiteral("a researcher's notes"));
    QCOMPARE(s.value().specTemplateJson, QByteArray(R"({"gpus":1})"));
    QVERIFY(s.value().created.isValid());
    QVERIFY(!store.study(9999).ok());
    RunRecord r = newRun();
    r.studyId = id.value();
    QVERIFY(store.createRun(r).ok());
    QVERIFY(store.createRun(newRun()).ok());
    QCOMPARE(store.runsInStudy(id.value()).value().size(), 1);
    QCOMPARE(store.runs().value().size(), 2);
}

void TestRunStore::createRunStoresIntent()
{
    RunStore store(m_dir->path());
    RunRecord in = newRun();
    in.jobId = "123";   // ignored: nothing has been submitted yet
    auto r = store.createRun(in);
    QVERIFY2(r.ok(), qPrintable(r.errorText()));
    QVERIFY(r.value().id > 0);
    QVERIFY(QRegularExpression("^sl-[0-9a-f]{16}$").match(r.value().token).hasMatch());
    QCOMPARE(r.value().submitState, SubmitState::Intent);
    QCOMPARE(r.value().jobId, QString());
    QCOMPARE(r.value().script, in.script);
    QCOMPARE(r.value().specJson, in.specJson);
    QCOMPARE(r.value().studyId, 0);
    QVERIFY(r.value().created.isValid());
    QCOMPARE(store.runByToken(r.value().token).value().id, r.value().id);
    QVERIFY(!store.runByToken("sl-nope").ok());
    QVERIFY(!store.run(424242).ok());
    QVERIFY(RunStore::newToken() != RunStore::newToken());
}

void TestRunStore::duplicateTokenRejected()
{
    RunStore store(m_dir->path());
    RunRecord r = newRun();
    r.token = "sl-00000000000000aa";
    QVERIFY(store.createRun(r).ok());
    auto dup = store.createRun(r);
    QVERIFY(!dup.ok());
    QVERIFY(dup.errorText().contains("UNIQUE", Qt::CaseInsensitive));
}

void TestRunStore::submitStatesAndActiveLists()
{
    RunStore store(m_dir->path());
    const qint64 a = store.createRun(newRun()).value().id;
    const qint64 b = store.createRun(newRun()).value().id;
    const qint64 c = store.createRun(newRun()).value().id;
    const qint64 other = store.createRun(newRun("elsewhere")).value().id;
    QCOMPARE(store.unresolvedRuns("testbed").value().size(), 3);
    QCOMPARE(store.setRemoteDir(a, "/home/r/.scalelab/runs/x").errorText(), QString());
    QCOMPARE(store.setSubmitState(a, SubmitState::Uploaded).errorText(), QString());
    QCOMPARE(store.markSubmitted(a, "41").errorText(), QString());
    QCOMPARE(store.setSubmitState(b, SubmitState::Rejected, "sbatch: error: Invalid partition").errorText(), QString());
    QCOMPARE(store.setSubmitState(c, SubmitState::Unknown, "connection lost").errorText(), QString());
    QCOMPARE(store.markSubmitted(other, "7").errorText(), QString());
    QVERIFY(!store.setSubmitState(9999, SubmitState::Uploaded).errorText().isEmpty());

    auto ra = store.run(a).value();
    QCOMPARE(ra.submitState, SubmitState::Submitted);
    QCOMPARE(ra.jobId, QStringLiteral("41"));
    QCOMPARE(ra.state, JobState::Pending);
    QCOMPARE(ra.remoteDir, QStringLiteral("/home/r/.scalelab/runs/x"));
    QCOMPARE(store.run(b).value().rejection, QStringLiteral("sbatch: error: Invalid partition"));

    auto active = store.activeRuns("testbed").value();
    QCOMPARE(active.size(), 1);
    QCOMPARE(active[0].id, a);
    auto unresolved = store.unresolvedRuns("testbed").value();
    QCOMPARE(unresolved.size(), 1);
    QCOMPARE(unresolved[0].id, c);

    QVERIFY(store.updateState(a, JobState::Completed, {}).ok());
    QVERIFY(store.activeRuns("testbed").value().isEmpty());
    QCOMPARE(store.markSubmitted(c, "42", SubmitState::Reconciled).errorText(), QString());
    QCOMPARE(store.activeRuns("testbed").value().size(), 1);
    QCOMPARE(store.run(c).value().submitState, SubmitState::Reconciled);
    QCOMPARE(store.deleteRun(c).errorText(), QString());
    QVERIFY(!store.run(c).ok());
}

void TestRunStore::stateHistoryOnlyOnChange()
{
    RunStore store(m_dir->path());
    const qint64 id = store.createRun(newRun()).value().id;
    QCOMPARE(store.markSubmitted(id, "5").errorText(), QString());
    const QDateTime t0 = QDateTime::fromString("2026-11-22T10:08:24.000Z", Qt::ISODateWithMs);
    QCOMPARE(store.updateState(id, JobState::Pending, "Resources", t0).value(), true);
    QCOMPARE(store.updateState(id, JobState::Pending, "Resources").value(), false);
    QCOMPARE(store.updateState(id, JobState::Running, {}).value(), true);
    QCOMPARE(store.updateState(id, JobState::Running, {}).value(), false);
    auto h = store.stateHistory(id).value();
    QCOMPARE(h.size(), 3);   // PENDING (submitted), PENDING/Resources, RUNNING
    QCOMPARE(h[0].state, JobState::Pending);
    QCOMPARE(h[1].reason, QStringLiteral("Resources"));
    QCOMPARE(h[1].at, t0);
    QCOMPARE(h[2].state, JobState::Running);
    QVERIFY(!store.updateState(9999, JobState::Running, {}).ok());
}

// A pending run's expected start, and every run's queue wait with its
// partition and GPUs, waits behind a dependency or a hold left out.
void TestRunStore::expectedStartAndQueueWaits()
{
    RunStore store(m_dir->path());
    RunRecord r = newRun();
    r.partition = QStringLiteral("gpu");
    r.gpus = 4;
    const qint64 a = store.createRun(r).value().id;
    QCOMPARE(store.setExpectedStart(a, "2026-11-27T08:24:58").value(), true);
    QCOMPARE(store.setExpectedStart(a, "2026-11-27T08:24:58").value(), false);
    QCOMPARE(store.run(a).value().expectedStart, QStringLiteral("2026-11-27T08:24:58"));
    QCOMPARE(store.runs().value().value(0).expectedStart, QStringLiteral("2026-11-27T08:24:58"));
    QCOMPARE(store.setMetric({a, "queue_wait_s", 120, "s", "sacct"}).errorText(), QString());
    r.token = RunStore::newToken();
    const qint64 b = store.createRun(r).value().id;   // a study's second run: waited behind the first
    QCOMPARE(store.markSubmitted(b, "6").errorText(), QString());
    QCOMPARE(store.updateState(b, JobState::Pending, "Dependency").value(), true);
    QCOMPARE(store.setMetric({b, "queue_wait_s", 9000, "s", "sacct"}).errorText(), QString());
    const auto waits = store.queueWaits();
    QCOMPARE(waits.errorText(), QString());
    QCOMPARE(waits->size(), 1);
    QCOMPARE(waits->value(0), (QueueWait{r.clusterAlias, "gpu", 4, 120}));
    QCOMPARE(store.markSubmitted(a, "5").errorText(), QString());
    QCOMPARE(store.recordFinal(a, sampleRecord("5")).errorText(), QString());   // an ended job expects no start
    QCOMPARE(store.run(a).value().expectedStart, QString());
}

void TestRunStore::finalStateWithAccounting()
{
    RunStore store(m_dir->path());
    const qint64 id = store.createRun(newRun()).value().id;
    QCOMPARE(store.markSubmitted(id, "1").errorText(), QString());
    QVERIFY(!store.accounting(id).value().has_value());
    const SacctRecord timeout = sampleRecord("1");
    QCOMPARE(timeout.state, JobState::Timeout);
    QCOMPARE(store.recordFinal(id, timeout).errorText(), QString());
    auto run = store.run(id).value();
    QCOMPARE(run.state, JobState::Timeout);
    QCOMPARE(run.reason, QString());   // sacct's "None"
    auto acct = store.accounting(id);
    QVERIFY(acct.ok());
    QVERIFY(acct.value().has_value());
    const SacctRecord &a = *acct.value();
    QCOMPARE(a.state, JobState::Timeout);
    QCOMPARE(a.maxRss, QStringLiteral("62056K"));
    QCOMPARE(a.allocatedGpus(), 1);
    QCOMPARE(a.elapsed, QStringLiteral("00:01:24"));
    QCOMPARE(a.rawLines, timeout.rawLines);
    QCOMPARE(a.lines, timeout.lines);
    QCOMPARE(a.lines.size(), 2);
    QCOMPARE(a.lines[1].value("MaxRSS"), QStringLiteral("62056K"));
}

void TestRunStore::filesAndMetrics()
{
    RunStore store(m_dir->path());
    const qint64 id = store.createRun(newRun()).value().id;
    FileRecord f{id,
                 "/home/r/.scalelab/runs/t/scalelab-5.out",
                 store.runFilesDirectory(id) + "/scalelab-5.out",
                 100,
                 40,
                 QDateTime::currentDateTimeUtc()};
    QCOMPARE(store.recordFile(f).errorText(), QString());
    f.fetchedOffset = 100;
    QCOMPARE(store.recordFile(f).errorText(), QString());   // replaces
    auto files = store.files(id).value();
    QCOMPARE(files.size(), 1);
    QCOMPARE(files[0].fetchedOffset, 100);
    QVERIFY(store.file(id, f.remotePath).value().has_value());
    QVERIFY(!store.file(id, "/nope").value().has_value());
    QCOMPARE(store.setMetric({id, "test_accuracy", 0.9091, "", "stdout"}).errorText(), QString());
    QCOMPARE(store.setMetric({id, "train_time_s", 0.91, "s", "stdout"}).errorText(), QString());
    QCOMPARE(store.setMetric({id, "train_time_s", 0.95, "s", "stdout"}).errorText(), QString());
    QVERIFY(!store.setMetric({id, "", 1, "", ""}).errorText().isEmpty());
    auto m = store.metrics(id).value();
    QCOMPARE(m.size(), 2);
    QCOMPARE(m[1].value, 0.95);
    // deleting the run removes what hangs off it
    QCOMPARE(store.deleteRun(id).errorText(), QString());
    QVERIFY(store.files(id).value().isEmpty());
    QVERIFY(store.metrics(id).value().isEmpty());
}

void TestRunStore::foreignKeysEnforced()
{
    RunStore store(m_dir->path());
    QVERIFY(!store.recordFile({9999, "/x", "/y", 1, 1, {}}).errorText().isEmpty());
    QVERIFY(!store.setMetric({9999, "m", 1, "", ""}).errorText().isEmpty());
    RunRecord r = newRun();
    r.studyId = 777;   // no such study
    QVERIFY(!store.createRun(r).ok());
}

void TestRunStore::concurrentThreads()
{
    RunStore store(m_dir->path());
    QCOMPARE(store.open().errorText(), QString());
    QList<QThread *> threads;
    QAtomicInt failures = 0;
    for (int t = 0; t < 4; ++t) {
        threads << QThread::create([&store, &failures] {
            for (int i = 0; i < 25; ++i) {
                auto r = store.createRun(newRun());
                if (!r.ok() || !store.markSubmitted(r.value().id, QString::number(i + 1)).errorText().isEmpty()
                    || !store.updateState(r.value().id, JobState::Running, {}).ok())
                    failures.fetchAndAddRelaxed(1);
            }
            store.closeThreadConnection();
        });
        threads.last()->start();
    }
    for (QThread *t : threads) {
        QVERIFY(t->wait(60000));
        delete t;
    }
    QCOMPARE(failures.loadRelaxed(), 0);
    QCOMPARE(store.runs().value().size(), 100);
    QCOMPARE(store.activeRuns("testbed").value().size(), 100);
}

void TestRunStore::survivesKill9()
{
    QSet<qint64> committed;
    for (int round = 0; round < 3; ++round) {
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {"--crash-writer", m_dir->path()});
        QVERIFY(child.waitForStarted());
        QByteArray out;
        // Let it write for a varying while, then SIGKILL mid-loop.
        const int wanted = 20 + round * 15;
        QElapsedTimer timer;
        timer.start();
        while (out.count('\n') < wanted && timer.elapsed() < 20000 && child.state() == QProcess::Running) {
            child.waitForReadyRead(200);
            out += child.readAllStandardOutput();
        }
        QVERIFY2(child.state() == QProcess::Running, "writer stopped by itself");
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(10000));
        out += child.readAllStandardOutput();
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        for (const QByteArray &line : out.split('\n'))
            if (line.startsWith("committed "))
                committed.insert(line.mid(10).toLongLong());
    }
    QVERIFY(committed.size() >= 20 + 35 + 50);
    RunStore store(m_dir->path());
    QCOMPARE(store.open().errorText(), QString());
    QCOMPARE(store.integrityCheck().value(), QStringLiteral("ok"));
    for (qint64 id : std::as_const(committed)) {
        auto r = store.run(id);
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        QCOMPARE(r.value().state, JobState::Completed);
        QCOMPARE(store.stateHistory(id).value().size(), 3);
        QVERIFY(store.accounting(id).value().has_value());
    }
    // Runs the child had not finished are whole transactions or absent: every
    // run row has a consistent history.
    for (const auto &r : store.runs().value()) {
        const auto h = store.stateHistory(r.id).value();
        if (r.state == JobState::Completed)
            QVERIFY(store.accounting(r.id).value().has_value());
        if (r.hasJob())
            QVERIFY(!h.isEmpty());
    }
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc >= 3 && qstrcmp(argv[1], "--crash-writer") == 0)
        return crashWriter(QString::fromLocal8Bit(argv[2]));
    TestRunStore t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_runstore.moc"
