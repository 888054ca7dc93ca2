// SPDX-License-Identifier: GPL-3.0-or-later
// A project folder sent with a run (core/client/ProjectSync, SlurmClient,
// RunLifecycle, the store and the spec): the shell bodies, tar, sha256sum and
// hard links run for real in a local shell standing in for the cluster
// (LocalShellExecutor), with a stand-in `sbatch` that only records its call.
#include "LocalShellExecutor.h"
#include "ProfileFixtures.h"
#include "core/base/Sha256.h"
#include "core/client/ProjectSync.h"
#include "core/client/RunDraft.h"
#include "core/client/RunLifecycle.h"
#include "core/client/SlurmClient.h"
#include "core/compose/SbatchRenderer.h"
#include "core/model/JobSpecJson.h"
#include "core/project/ProjectSnapshotter.h"
#include "core/store/RunStore.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;
using scalelab::test::LocalShellExecutor;

namespace {

void writeFile(const QString &path, const QByteArray &data, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(data);
    f.close();
    if (executable)
        QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

// A folder with the shapes that break naive quoting or tar: spaces, quotes,
// '$', a long path, an executable, two files with the same bytes.
void makeProject(const QString &dir, int extraFiles = 20)
{
    writeFile(dir + "/train.py", "print('epoch 1')\n");
    writeFile(dir + "/run.sh", "#!/bin/sh\necho run\n", true);
    writeFile(dir + "/it's \"odd\" $HOME `x`.py", "odd = True\n");
    writeFile(dir + "/" + QString(60, 'p') + "/" + QString(70, 'q') + "/model.py", "deep = 1\n");
    writeFile(dir + "/copy-a.txt", "same bytes\n");
    writeFile(dir + "/copy-b.txt", "same bytes\n");
    for (int i = 0; i < extraFiles; ++i)
        writeFile(dir + QStringLiteral("/pkg/m%1.py").arg(i), QByteArray(1000 + i, char('a' + i % 26)));
}

}   // namespace

class TestProjectSync : public QObject {
    Q_OBJECT

    QTemporaryDir m_home{QDir::tempPath() + QStringLiteral("/tst_project_sync-XXXXXX")};
    QString root() const { return m_home.path() + QStringLiteral("/scalelab"); }

    // A stand-in sbatch on the PATH of the local "cluster": prints a job id and
    // appends the folder it was started in to `log`.
    void fakeSbatch(LocalShellExecutor &exec, const QString &bin, const QString &log)
    {
        writeFile(bin + "/sbatch",
                  "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'slurm 22.05.8'; exit 0; fi\n"
                  "pwd >> \"$SBATCH_LOG\"\necho 4242\n",
                  true);
        exec.environment.insert("PATH", bin + ":" + exec.environment.value("PATH"));
        exec.environment.insert("SBATCH_LOG", log);
    }

    // One run with a project, stored as `scalelab submit` stores it.
    qint64 storeProjectRun(RunStore &store, const QString &project, const QString &remoteFolder)
    {
        JobSpec spec = test::testbedSpec(QStringLiteral("p"), 1, QStringLiteral("train.py"));
        spec.project = ProjectSpec{project, remoteFolder};
        const ClusterProfile &profile = test::repoProfile(QStringLiteral("testbed"));
        SubmitRequest r{spec, &profile, QStringLiteral("testbed"), {}, std::nullopt};
        r.snapshot = RunLifecycle::snapshotProject(spec, profile).value();
        const auto runs = RunLifecycle::storeBatch(store, {r}, {});
        return runs.ok() ? runs->front().id : 0;
    }

private Q_SLOTS:
    void submitSendsTheProjectBeforeTheScript()
    {
        QTemporaryDir data, project, bin;
        makeProject(project.path(), 3);
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        const qint64 id = storeProjectRun(store, project.path(), QStringLiteral("~/submit"));
        QVERIFY(id > 0);
        LocalShellExecutor exec(m_home.path());
        fakeSbatch(exec, bin.path(), bin.path() + "/sbatch.log");
        SlurmClient client(exec, store, QStringLiteral("testbed"));
        const SubmitOutcome o = client.submit(id);
        QVERIFY2(o.kind == SubmitOutcome::Kind::Submitted, qPrintable(o.message));
        const RunRecord run = store.run(id).value();
        const QString folder = m_home.path() + "/submit/runs/" + run.token;
        QCOMPARE(run.remoteDir, folder);
        QCOMPARE(readFile(bin.path() + "/sbatch.log"), (folder + "\n").toUtf8());   // sbatch ran in the run folder
        QCOMPARE(readFile(folder + "/train.py"), QByteArray("print('epoch 1')\n"));
        QVERIFY(QFileInfo::exists(folder + "/job.sbatch"));
        QCOMPARE(exec.steps,
                 (QList<SubmitStep>{SubmitStep::DirectoryStored, SubmitStep::ObjectsPackSent, SubmitStep::SnapshotSent,
                                    SubmitStep::SnapshotLaidOut, SubmitStep::ScriptUploaded, SubmitStep::UnknownStored,
                                    SubmitStep::SbatchReturned, SubmitStep::OutcomeStored}));
        QVERIFY(client.lastSync().has_value());
        QCOMPARE(client.lastSync()->progress.filesSent, client.lastSync()->progress.filesToSend);
    }

    void stoppedAtEachNewStep_data()
    {
        QTest::addColumn<int>("step");
        QTest::newRow("directory-stored") << int(SubmitStep::DirectoryStored);
        QTest::newRow("objects-pack-sent") << int(SubmitStep::ObjectsPackSent);
        QTest::newRow("snapshot-sent") << int(SubmitStep::SnapshotSent);
        QTest::newRow("snapshot-laid-out") << int(SubmitStep::SnapshotLaidOut);
    }

    // Stopped at each step of the project's upload: no sbatch, the run left
    // sendable; the next session (reconcile, then submit) sends exactly one
    // job, on the whole snapshot.
    void stoppedAtEachNewStep()
    {
        QFETCH(int, step);
        QTemporaryDir data, project, bin;
        makeProject(project.path(), 600);   // two packs
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        const QString remote = QStringLiteral("stop-%1").arg(step);
        const qint64 id = storeProjectRun(store, project.path(), remote);
        const QString log = bin.path() + "/sbatch.log";
        {
            LocalShellExecutor exec(m_home.path());
            fakeSbatch(exec, bin.path(), log);
            exec.deadAfter = SubmitStep(step);
            SlurmClient client(exec, store, QStringLiteral("testbed"));
            const SubmitOutcome o = client.submit(id);
            QVERIFY(exec.dead());
            QCOMPARE(o.kind, SubmitOutcome::Kind::NotSent);
            QVERIFY(!QFileInfo::exists(log));
            QVERIFY(store.run(id)->submitState != SubmitState::Unknown);
        }
        LocalShellExecutor exec(m_home.path());
        fakeSbatch(exec, bin.path(), log);
        SlurmClient client(exec, store, QStringLiteral("testbed"));
        RunLifecycle lifecycle(client, store);
        const ReconcileReport report = lifecycle.reconcileUnresolved();
        QCOMPARE(report.runs.size(), 1);
        QVERIFY(report.runs.front().resubmit.has_value());
        QCOMPARE(report.runs.front().resubmit->kind, SubmitOutcome::Kind::Submitted);
        const RunRecord run = store.run(id).value();
        QCOMPARE(readFile(log), (run.remoteDir + "\n").toUtf8());   // exactly one sbatch
        const ProjectSnapshot snapshot = store.runSnapshot(id).value().value();
        for (const ProjectFile &f : snapshot.manifest.files)
            QCOMPARE(Sha256::hexOf(readFile(run.remoteDir + "/" + f.path)), f.sha256);
        // The first pack stored before the stop was not sent again.
        if (SubmitStep(step) != SubmitStep::DirectoryStored)
            QVERIFY(client.lastSync()->progress.filesPresent >= ProjectSync::kPackFiles);
    }

    void firstSendThenOnlyTheChangedFile()
    {
        QTemporaryDir project;
        makeProject(project.path());
        const auto first = ProjectSnapshotter::take(project.path());
        QVERIFY2(first.ok(), qPrintable(first.errorText()));
        LocalShellExecutor exec(m_home.path());
        const auto sent = ProjectSync(exec).send(*first, root(), root() + "/runs/one");
        QVERIFY2(sent.ok(), qPrintable(sent.errorText()));
        const qsizetype files = first->manifest.files.size();
        QCOMPARE(sent->progress.filesSent, files - 1);   // copy-a and copy-b share one object
        QCOMPARE(sent->progress.filesPresent, 0);
        QCOMPARE(sent->copied, false);
        // The run folder holds every file with its bytes; executables stay executable.
        for (const ProjectFile &f : first->manifest.files)
            QCOMPARE(Sha256::hexOf(readFile(root() + "/runs/one/" + f.path)), f.sha256);
        QVERIFY(QFileInfo(root() + "/runs/one/run.sh").permissions().testFlag(QFileDevice::ExeOwner));
        QVERIFY(!QFileInfo(root() + "/runs/one/train.py").permissions().testFlag(QFileDevice::WriteOwner));
        QProcess check;
        check.setWorkingDirectory(root() + "/runs/one");
        check.start("sha256sum", {"-c", "--quiet", ".scalelab-snapshot.sha256"});
        QVERIFY(check.waitForFinished(20000));
        QCOMPARE(check.exitCode(), 0);
        QCOMPARE(exec.steps, (QList<SubmitStep>{SubmitStep::ObjectsPackSent, SubmitStep::SnapshotSent,
                                                SubmitStep::SnapshotLaidOut}));

        // An edit, a second run: only that file travels, the first run keeps its code.
        writeFile(project.path() + "/train.py", "print('epoch 2')\n");
        const auto second = ProjectSnapshotter::take(project.path());
        QVERIFY(second->id != first->id);
        LocalShellExecutor again(m_home.path());
        const auto resent = ProjectSync(again).send(*second, root(), root() + "/runs/two");
        QVERIFY2(resent.ok(), qPrintable(resent.errorText()));
        QCOMPARE(resent->progress.filesSent, 1);
        QCOMPARE(resent->progress.bytesSent, qint64(17));
        QCOMPARE(resent->progress.filesPresent, files - 1);
        const qint64 manifestBytes = second->manifest.text().size();
        QVERIFY2(resent->wireBytes < 17 + 4 * 1024 + 3 * manifestBytes, qPrintable(QString::number(resent->wireBytes)));
        QCOMPARE(readFile(root() + "/runs/two/train.py"), QByteArray("print('epoch 2')\n"));
        QCOMPARE(readFile(root() + "/runs/one/train.py"), QByteArray("print('epoch 1')\n"));
        QCOMPARE(resent->commands, 3);   // which exist, one pack, the layout
    }

    // A connection lost in the second pack: the next send sends only what the
    // first pack did not store; nothing half-written is ever an object.
    void resumesAfterADroppedConnection()
    {
        QTemporaryDir project;
        makeProject(project.path(), 600);   // more than one pack of 512 files
        const auto s = ProjectSnapshotter::take(project.path());
        LocalShellExecutor exec(m_home.path());
        int packs = 0;
        exec.intercept = [&](const QStringList &argv, const QByteArray &) -> std::optional<RemoteResult> {
            if (!argv.join(' ').contains("mktemp") || ++packs < 2)
                return std::nullopt;
            RemoteResult lost;
            lost.transportError = QStringLiteral("connection reset");
            return lost;
        };
        const auto cut = ProjectSync(exec).send(*s, root() + "/resume", root() + "/resume/runs/r");
        QVERIFY(cut.failedWith(ErrorCode::Transport));
        QVERIFY(!QFileInfo::exists(root() + "/resume/runs/r/train.py"));
        const qsizetype unique = s->manifest.files.size() - 1;
        QCOMPARE(QDir(root() + "/resume/.scalelab/objects").entryList(QDir::Files).size(), ProjectSync::kPackFiles);
        LocalShellExecutor retry(m_home.path());
        const auto done = ProjectSync(retry).send(*s, root() + "/resume", root() + "/resume/runs/r");
        QVERIFY2(done.ok(), qPrintable(done.errorText()));
        QCOMPARE(done->progress.filesSent, unique - ProjectSync::kPackFiles);
        QVERIFY(done->progress.filesPresent >= ProjectSync::kPackFiles);   // copy-b may share copy-a's object
        QCOMPARE(readFile(root() + "/resume/runs/r/pkg/m599.py").size(), 1599);
    }

    void cancelledBetweenPacks()
    {
        QTemporaryDir project;
        makeProject(project.path(), 600);
        const auto s = ProjectSnapshotter::take(project.path());
        LocalShellExecutor exec(m_home.path());
        QList<qsizetype> seen;
        const auto r =
            ProjectSync(exec).send(*s, root() + "/cancel", root() + "/cancel/runs/c", [&](const SyncProgress &p) {
                seen << p.filesSent;
                return p.filesSent == 0;   // stop after the first pack
            });
        QVERIFY(r.failedWith(ErrorCode::WrongState));
        QCOMPARE(seen, (QList<qsizetype>{0, ProjectSync::kPackFiles}));
        QVERIFY(!QFileInfo::exists(root() + "/cancel/runs/c"));
    }

    void refusesAFileChangedSinceTheSnapshot()
    {
        QTemporaryDir project;
        makeProject(project.path());
        const auto s = ProjectSnapshotter::take(project.path());
        writeFile(project.path() + "/train.py", "print('edited after the snapshot')\n");
        LocalShellExecutor exec(m_home.path());
        const auto r = ProjectSync(exec).send(*s, root() + "/changed", root() + "/changed/runs/c");
        QVERIFY(r.failedWith(ErrorCode::LocalFile));
        QVERIFY2(r.errorText().contains(QLatin1String("train.py changed since the snapshot")),
                 qPrintable(r.errorText()));
        QVERIFY(!QFileInfo::exists(root() + "/changed/runs/c"));
    }

    // Where hard links fail, each file is copied and compared.
    void copiesWhereLinksFail()
    {
        QTemporaryDir project;
        makeProject(project.path(), 3);
        const auto s = ProjectSnapshotter::take(project.path());
        LocalShellExecutor exec(m_home.path());
        exec.intercept = [](const QStringList &argv, const QByteArray &) -> std::optional<RemoteResult> {
            if (!argv.join(' ').contains(".layout.tar"))
                return std::nullopt;
            RemoteResult noLinks;
            noLinks.exitCode = 94;
            return noLinks;
        };
        const auto r = ProjectSync(exec).send(*s, root() + "/copies", root() + "/copies/runs/c");
        QVERIFY2(r.ok(), qPrintable(r.errorText()));
        QVERIFY(r->copied);
        for (const ProjectFile &f : s->manifest.files)
            QCOMPARE(Sha256::hexOf(readFile(root() + "/copies/runs/c/" + f.path)), f.sha256);
    }

    void remoteFolders_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("expected");   // "" = refused
        QTest::newRow("default") << "$HOME/scalelab"
                                 << "/home/r/scalelab";
        QTest::newRow("braces") << "${HOME}/x/"
                                << "/home/r/x";
        QTest::newRow("tilde") << "~/code"
                               << "/home/r/code";
        QTest::newRow("relative") << "work/sl"
                                  << "/home/r/work/sl";
        QTest::newRow("absolute") << "/scratch/project_2001234/r"
                                  << "/scratch/project_2001234/r";
        QTest::newRow("other variable") << "$SCRATCH/x"
                                        << "";
        QTest::newRow("space") << "/scratch/my runs"
                               << "";
        QTest::newRow("quote") << "/scratch/it's"
                               << "";
        QTest::newRow("dot-dot") << "/scratch/../etc"
                                 << "";
        QTest::newRow("root") << "/"
                              << "";
    }

    void remoteFolders()
    {
        QFETCH(QString, folder);
        QFETCH(QString, expected);
        const auto r = SlurmClient::resolveRemoteFolder(folder, QStringLiteral("/home/r"));
        QCOMPARE(r.ok() ? *r : QString(), expected);
        if (!r)
            QVERIFY2(r.errorText().contains(QLatin1String("project.remoteFolder")), qPrintable(r.errorText()));
    }

    // With a project the run folder holds the code: a relative program is
    // taken from there, not from the home directory.
    void programResolvesInTheRunFolder()
    {
        JobSpec spec = test::testbedSpec(QStringLiteral("p"), 1, QStringLiteral("src/train.py"));
        const ClusterProfile &profile = test::repoProfile(QStringLiteral("testbed"));
        QVERIFY(renderSbatch(spec, profile).contains(QLatin1String("python3 \"$HOME\"/src/train.py")));
        spec.project.folder = QStringLiteral("/home/a-researcher/code");
        const QString script = renderSbatch(spec, profile);
        QVERIFY2(script.contains(QLatin1String("python3 ./src/train.py")), qPrintable(script));
        spec.program = QStringLiteral("/opt/tools/train.py");   // absolute stays absolute
        QVERIFY(renderSbatch(spec, profile).contains(QLatin1String("python3 /opt/tools/train.py")));
    }

    void specField()
    {
        JobSpec s = test::testbedSpec(QStringLiteral("p"), 1, QStringLiteral("train.py"));
        s.project = ProjectSpec{QStringLiteral("../code"), QStringLiteral("$HOME/sl")};
        const auto back = parseJobSpec(jobSpecToJson(s));
        QVERIFY(back.spec);
        QCOMPARE(back.spec->project, s.project);
        const auto typo = parseJobSpec(R"({"profile": "testbed", "gpus": 1, "framework": "pytorch-ddp",
                                          "project": {"folder": "x", "remoteFolda": "y"}})");
        QVERIFY(!typo.spec);
        QVERIFY(typo.errors.front().message.contains(QLatin1String("project.remoteFolda")));
        const auto empty = parseJobSpec(R"({"profile": "testbed", "gpus": 1, "framework": "pytorch-ddp",
                                           "project": {}})");
        QVERIFY(!empty.spec);
        QCOMPARE(empty.errors.front().field, QStringLiteral("project.folder"));
    }

    void batchRefusesProjectProblems()
    {
        QTemporaryDir project;
        makeProject(project.path(), 1);
        writeFile(project.path() + "/job.sbatch", "#!/bin/bash\n");
        JobSpec spec = test::testbedSpec(QStringLiteral("p"), 1, QStringLiteral("train.py"));
        spec.project.folder = project.path();
        spec.project.remoteFolder = QStringLiteral("$WORK/x");
        const ClusterProfile &profile = test::repoProfile(QStringLiteral("testbed"));
        SubmitRequest r{spec, &profile, QStringLiteral("testbed"), {}, std::nullopt};
        QTemporaryDir data;
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        r.spec.project.remoteFolder.clear();
        const auto unsnapped = RunLifecycle::storeBatch(store, {r}, {});
        r.spec.project.remoteFolder = spec.project.remoteFolder;
        QVERIFY2(unsnapped.errorText().contains(QLatin1String("no snapshot")), qPrintable(unsnapped.errorText()));
        QCOMPARE(store.runs()->size(), 0);
        r.snapshot = RunLifecycle::snapshotProject(spec, profile).value();
        QCOMPARE(r.snapshot->remoteFolder, QStringLiteral("$WORK/x"));
        QStringList messages;
        for (const Diagnostic &d : RunLifecycle::validateBatch({r}))
            messages << d.message;
        QVERIFY2(messages.join('\n').contains(QLatin1String("project.remoteFolder")), qPrintable(messages.join('\n')));
        QVERIFY2(messages.join('\n').contains(QLatin1String("job.sbatch would take the place")),
                 qPrintable(messages.join('\n')));
        spec.project.remoteFolder.clear();
        QCOMPARE(RunLifecycle::snapshotProject(spec, profile)->remoteFolder, profile.remoteProjectFolder);
    }

    void storeKeepsTheSnapshot()
    {
        QTemporaryDir data, project;
        makeProject(project.path(), 2);
        auto s = ProjectSnapshotter::take(project.path()).value();
        s.remoteFolder = QStringLiteral("$HOME/scalelab");
        s.gitCommit = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
        s.gitDirty = true;
        s.skipped.clear();
        s.excluded = 0;
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        const ClusterProfile &profile = test::repoProfile(QStringLiteral("testbed"));
        const RunRecord one = draftRun(test::testbedSpec("p", 1, "train.py"), profile, QStringLiteral("testbed"));
        const RunRecord two = draftRun(test::testbedSpec("p", 1, "train.py"), profile, QStringLiteral("testbed"));
        const auto runs = store.createRuns({one, two}, std::nullopt, {s, std::nullopt});
        QVERIFY2(runs.ok(), qPrintable(runs.errorText()));
        QCOMPARE(store.runSnapshot(runs->at(0).id).value(), std::optional<ProjectSnapshot>(s));
        QCOMPARE(store.runSnapshot(runs->at(1).id).value(), std::nullopt);
    }

    // A store of the previous schema gets the table; its runs have no snapshot.
    void migrationAddsTheTable()
    {
        QTemporaryDir data;
        qint64 id = 0;
        {
            RunStore store(data.path());
            QCOMPARE(store.open().errorText(), QString());
            const ClusterProfile &profile = test::repoProfile(QStringLiteral("testbed"));
            id = store.createRun(draftRun(test::testbedSpec("p", 1, "t.py"), profile, "testbed")).value().id;
            store.closeThreadConnection();
        }
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("downgrade"));
            db.setDatabaseName(RunStore(data.path()).databasePath());
            QVERIFY(db.open());
            QSqlQuery q(db);
            // Before run_snapshots (and run_alerts and run_segments, which came after it).
            QVERIFY(q.exec(QStringLiteral("DROP TABLE run_segments")));
            QVERIFY(q.exec(QStringLiteral("DROP TABLE run_alerts")));
            QVERIFY(q.exec(QStringLiteral("DROP TABLE run_snapshots")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=%1").arg(RunStore::latestSchemaVersion() - 3)));
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("downgrade"));
        RunStore store(data.path());
        QCOMPARE(store.open().errorText(), QString());
        QCOMPARE(store.schemaVersion().value(), RunStore::latestSchemaVersion());
        QCOMPARE(store.runSnapshot(id).value(), std::nullopt);
        QVERIFY(store.run(id).ok());
    }
};

QTEST_GUILESS_MAIN(TestProjectSync)
#include "tst_project_sync.moc"
