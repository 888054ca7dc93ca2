// SPDX-License-Identifier: GPL-3.0-or-later
// The run store when another program holds it or its file is damaged: reads
// never wait for a writer, a busy store says who holds it, a damaged file is
// neither read nor written (truncated and corrupted at many offsets), and
// backups (before a migration, by hand) bring every run back, also to a store
// open in another process while `scalelab store restore` runs.
#include "core/store/RunStore.h"
#include "core/store/RunStoreSql.h"
#include "core/store/StoreFile.h"
#include "core/store/StoreHealth.h"

#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;

namespace {

RunRecord newRun(int i)
{
    RunRecord r;
    r.profile = QStringLiteral("testbed");
    r.clusterAlias = QStringLiteral("testbed");
    r.partition = QStringLiteral("gpu");
    r.gpus = 1 + i % 8;
    r.nodes = 1;
    r.framework = QStringLiteral("pytorch-ddp");
    // A few hundred bytes each, so the runs span many pages.
    r.script = QStringLiteral("#!/bin/bash\n#SBATCH --gpus=%1\n").arg(r.gpus) + QString(300, QLatin1Char('x'));
    return r;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

QList<qint64> idsOf(const QList<RunRecord> &runs)
{
    QList<qint64> ids;
    for (const RunRecord &r : runs)
        ids << r.id;
    return ids;
}

// Another program's connection (the sqlite3 shell, a second ScaleLab) on the file.
struct OtherWriter {
    QString name;
    explicit OtherWriter(const QString &path)
        : name(QStringLiteral("other-writer"))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            q.exec(QStringLiteral("PRAGMA busy_timeout=0"));
        }
    }
    bool holdWriteLock()
    {
        QSqlQuery q(QSqlDatabase::database(name, false));
        return q.exec(QStringLiteral("BEGIN IMMEDIATE"))
               && q.exec(QStringLiteral("INSERT INTO studies (name, created) VALUES ('held', '2026-01-01')"));
    }
    ~OtherWriter()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
};

}   // namespace

class TestStoreSafety : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsDoNotWaitForAnotherWriter();
    void aBusyStoreSaysWhoHoldsIt();
    void olderSchemaIsBackedUpBeforeMigrating();
    void damageAtManyOffsetsIsNeverReadOrWritten();
    void corruptionFoundLaterStopsWrites();
    void damageFoundLaterIsToldAndKept();
    void backupAndRestoreBringBackEveryRun();
    void restoreByAnotherProcessReachesAnOpenStore();

private:
    // A store in `dir` with `n` runs, every connection closed (the WAL checkpointed away).
    static QList<qint64> fill(const QString &dir, int n);
};

QList<qint64> TestStoreSafety::fill(const QString &dir, int n)
{
    RunStore store(dir);
    QList<qint64> ids;
    for (int i = 0; i < n; ++i) {
        const auto r = store.createRun(newRun(i));
        if (!r)
            qWarning("%s", qPrintable(r.errorText()));
        ids << (r ? r->id : -1);
    }
    return ids;
}

void TestStoreSafety::readsDoNotWaitForAnotherWriter()
{
    QTemporaryDir dir;
    const QList<qint64> ids = fill(dir.path(), 3);
    RunStore probe(dir.path());
    OtherWriter other(probe.databasePath());
    QVERIFY(other.holdWriteLock());
    // Before: every open ran its migration check inside BEGIN IMMEDIATE and
    // failed here after 10 s with "database is locked".
    RunStore reader(dir.path());
    const auto runs = reader.runs();
    QVERIFY2(runs.ok(), qPrintable(runs.errorText()));
    QCOMPARE(idsOf(*runs), ids);
    QCOMPARE(reader.schemaVersion().value(), RunStore::latestSchemaVersion());
}

void TestStoreSafety::aBusyStoreSaysWhoHoldsIt()
{
    QTemporaryDir dir;
    fill(dir.path(), 1);
    RunStore store(dir.path());
    QVERIFY(store.open().ok());
    store.setThreadBusyTimeout(50);
    OtherWriter other(store.databasePath());
    QVERIFY(other.holdWriteLock());
    const auto written = store.setStudyNotes(1, QStringLiteral("notes"));
    QVERIFY(written.failedWith(ErrorCode::StoreBusy));
    QVERIFY2(written.errorText().contains(store.databasePath()), qPrintable(written.errorText()));
    QVERIFY2(written.errorText().contains(QLatin1String("another ScaleLab")), qPrintable(written.errorText()));
    QVERIFY(store.runs().ok());   // reading still works
}

void TestStoreSafety::olderSchemaIsBackedUpBeforeMigrating()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
    const int older = RunStore::latestSchemaVersion() - 1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("older"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode=WAL")));
        for (int v = 0; v < older; ++v)
            for (const QString &sql : runStoreMigrations()[v])
                QVERIFY2(q.exec(sql), qPrintable(sql));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=%1").arg(older)));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO runs (token, created, updated) VALUES ('sl-old', 'x', 'x')")));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("older"));
    RunStore store(dir.path());
    QVERIFY2(store.open().ok(), qPrintable(store.open().errorText()));
    QCOMPARE(store.schemaVersion().value(), RunStore::latestSchemaVersion());
    const QList<StoreFile::Backup> backups = StoreFile::backups(path);
    QCOMPARE(backups.size(), 1);
    QCOMPARE(backups.front().reason, QStringLiteral("before-migration-%1").arg(older + 1));
    // The copy is the store as it was, older schema and all.
    RunStore copy(dir.filePath(QStringLiteral("copy")));
    QVERIFY(QDir().mkpath(copy.dataDirectory()));
    QVERIFY(QFile::copy(backups.front().path, copy.databasePath()));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("copy"));
    db.setDatabaseName(copy.databasePath());
    QVERIFY(db.open());
    QSqlQuery q(db);
    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version")) && q.next());
    QCOMPARE(q.value(0).toInt(), older);
    q.finish();
    db.close();
    db = {};
    QSqlDatabase::removeDatabase(QStringLiteral("copy"));
}

void TestStoreSafety::damageAtManyOffsetsIsNeverReadOrWritten()
{
    QTemporaryDir dir;
    const QList<qint64> ids = fill(dir.path(), 120);
    const QString path = RunStore(dir.path()).databasePath();
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
    const auto backup = StoreFile::backup(path, QStringLiteral("manual"));
    QVERIFY2(backup.ok(), qPrintable(backup.errorText()));
    const QByteArray pristine = readAll(path);
    const qint64 page = 4096;
    QVERIFY(pristine.size() >= 8 * page && pristine.size() % page == 0);

    // Cut short (within a page, at page boundaries) and overwritten (every
    // page's b-tree header and first cell pointers).
    QList<QPair<QString, QByteArray>> cases;
    for (qint64 cut : {qint64(1), qint64(50), qint64(100), qint64(200), page - 1, page + 1, 2 * page + 50,
                       pristine.size() - 2 * page, pristine.size() - page - 1, pristine.size() - page,
                       pristine.size() - 2048, pristine.size() - 100, pristine.size() - 7, pristine.size() - 1})
        cases.append({QStringLiteral("cut at %1").arg(cut), pristine.left(cut)});
    for (qint64 p = 0; p < pristine.size() / page; ++p)
        for (qint64 at : {qint64(0), qint64(8)}) {
            QByteArray bytes = pristine;
            const qint64 offset = p * page + at + (p == 0 ? 100 : 0);   // page 1 starts after the file header
            bytes.replace(offset, 8, QByteArray(8, '\xff'));
            cases.append({QStringLiteral("overwritten at %1").arg(offset), bytes});
        }

    int refused = 0;
    for (const auto &[what, bytes] : cases) {
        QFile::remove(path + QStringLiteral("-wal"));
        QFile::remove(path + QStringLiteral("-shm"));
        writeAll(path, bytes);
        {
            RunStore store(dir.path());
            const auto runs = store.runs();
            if (runs) {
                // Nothing the check could see: then every run reads back as it was, no phantoms.
                QVERIFY2(idsOf(*runs) == ids, qPrintable(what));
            } else {
                ++refused;
                QVERIFY2(runs.failedWith(ErrorCode::StoreDamaged),
                         qPrintable(what + QLatin1String(": ") + runs.errorText()));
                QVERIFY2(runs.errorText().contains(path) && runs.errorText().contains(QLatin1String("store restore")),
                         qPrintable(runs.errorText()));
                QVERIFY2(store.createRun(newRun(0)).failedWith(ErrorCode::StoreDamaged), qPrintable(what));
                QVERIFY2(store.setStudyNotes(1, QStringLiteral("x")).failedWith(ErrorCode::StoreDamaged),
                         qPrintable(what));
            }
        }
        if (readAll(path) != bytes)
            QVERIFY2(false, qPrintable(what + QLatin1String(": the damaged file was written")));
        QVERIFY2(QFileInfo(path + QStringLiteral("-wal")).size() == 0, qPrintable(what));
        // The backup brings every run back.
        const auto restored = StoreFile::restore(path, backup->path);
        QVERIFY2(restored.ok(), qPrintable(what + QLatin1String(": ") + restored.errorText()));
        RunStore store(dir.path());
        const auto runs = store.runs();
        QVERIFY2(runs.ok(), qPrintable(what + QLatin1String(": ") + runs.errorText()));
        QVERIFY2(idsOf(*runs) == ids, qPrintable(what));
    }
    qInfo("%d of %d damaged stores refused", refused, int(cases.size()));
    QVERIFY(refused >= cases.size() * 3 / 4);
}

void TestStoreSafety::corruptionFoundLaterStopsWrites()
{
    QTemporaryDir dir;
    fill(dir.path(), 120);
    RunStore store(dir.path());
    QVERIFY(store.open().ok());
    store.closeThreadConnection();   // the check at open is done; the next connection skips it
    QByteArray bytes = readAll(store.databasePath());
    const qint64 page = 4096;
    for (qint64 p = 1; p < bytes.size() / page; ++p)
        bytes.replace(p * page, 8, QByteArray(8, '\xff'));
    writeAll(store.databasePath(), bytes);
    const auto runs = store.runs();   // SQLite itself meets the damage
    QVERIFY2(runs.failedWith(ErrorCode::StoreDamaged), qPrintable(runs.errorText()));
    QVERIFY(store.createRun(newRun(0)).failedWith(ErrorCode::StoreDamaged));
    store.closeThreadConnection();
    QCOMPARE(readAll(store.databasePath()), bytes);
}

// Damage met by a read after the open is told to the listeners once (the
// window's banner), and stays known after the connection that met it closes
// (SQLite then deletes the empty -wal: not a change of the file).
void TestStoreSafety::damageFoundLaterIsToldAndKept()
{
    QTemporaryDir dir;
    fill(dir.path(), 120);
    RunStore store(dir.path());
    QVERIFY(store.open().ok());
    store.closeThreadConnection();
    QStringList told;
    const int listener = StoreHealth::addListener(
        [&told](const QString &key, const QString &why) { told << key + QStringLiteral(": ") + why; });
    const auto forget = qScopeGuard([listener] { StoreHealth::removeListener(listener); });
    QByteArray bytes = readAll(store.databasePath());
    for (qint64 p = 1; p < bytes.size() / 4096; ++p)
        bytes.replace(p * 4096, 8, QByteArray(8, '\xff'));
    writeAll(store.databasePath(), bytes);
    QVERIFY(store.runs().failedWith(ErrorCode::StoreDamaged));
    QCOMPARE(told.size(), 1);
    QVERIFY2(told.first().startsWith(StoreHealth::key(store.databasePath())), qPrintable(told.first()));
    store.closeThreadConnection();   // the last connection: its empty -wal goes
    QVERIFY(StoreHealth::damage(store.databasePath()).has_value());
    QVERIFY(store.createRun(newRun(0)).failedWith(ErrorCode::StoreDamaged));
    QCOMPARE(told.size(), 1);   // told once
    store.closeThreadConnection();
    QCOMPARE(readAll(store.databasePath()), bytes);
}

void TestStoreSafety::backupAndRestoreBringBackEveryRun()
{
    QTemporaryDir dir;
    const QList<qint64> first = fill(dir.path(), 3);
    RunStore store(dir.path());
    const QString path = store.databasePath();
    const auto b = StoreFile::backup(path, QStringLiteral("manual"));
    QVERIFY2(b.ok(), qPrintable(b.errorText()));
    QVERIFY(store.createRun(newRun(7)).ok());
    QCOMPARE(store.runs()->size(), 4);
    // Restored while this store's connection is open: it sees the backup's runs.
    const auto restored = StoreFile::restore(path, b->path);
    QVERIFY2(restored.ok(), qPrintable(restored.errorText()));
    QVERIFY(!restored->replacedFile);
    QVERIFY(QFile::exists(restored->keptAs));
    QCOMPARE(idsOf(store.runs().value()), first);
    // The newest kKeep backups are kept.
    for (int i = 0; i < StoreFile::kKeep + 2; ++i)
        QVERIFY(StoreFile::backup(path, QStringLiteral("manual")).ok());
    QCOMPARE(StoreFile::backups(path).size(), StoreFile::kKeep);
    QCOMPARE(StoreFile::check(path).value(), QString());
    // A daily one is due only after a day.
    QVERIFY(!StoreFile::dailyDue(path));
    QVERIFY(StoreFile::dailyDue(path, QDateTime::currentDateTimeUtc().addDays(1).addSecs(60)));
}

namespace {

// `scalelab store restore BACKUP` in a process of its own (a terminal beside an open window).
QString restoreInAnotherProcess(const QString &dataDir, const QString &backup)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SCALELAB_DATA_DIR"), dataDir);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SCALELAB_BINARY), {QStringLiteral("store"), QStringLiteral("restore"), backup});
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(QString::fromUtf8(p.readAllStandardError()));
    return {};
}

}   // namespace

void TestStoreSafety::restoreByAnotherProcessReachesAnOpenStore()
{
    QTemporaryDir dir;
    const QList<qint64> first = fill(dir.path(), 3);
    RunStore store(dir.path());
    const QString path = store.databasePath();
    const auto b = StoreFile::backup(path, QStringLiteral("manual"));
    QVERIFY2(b.ok(), qPrintable(b.errorText()));
    QVERIFY(store.createRun(newRun(7)).ok());
    QCOMPARE(store.runs()->size(), 4);
    // A sound store, this connection open: it reads the restored runs.
    QCOMPARE(restoreInAnotherProcess(dir.path(), b->path), QString());
    QCOMPARE(idsOf(store.runs().value()), first);

    // A store this process found damaged: after the other process's restore
    // it is read again (not refused for ever, not the old file).
    QVERIFY(store.createRun(newRun(8)).ok());
    store.closeThreadConnection();
    QByteArray bytes = readAll(path);
    for (qint64 p = 1; p < bytes.size() / 4096; ++p)
        bytes.replace(p * 4096, 8, QByteArray(8, '\xff'));
    writeAll(path, bytes);
    QVERIFY(store.runs().failedWith(ErrorCode::StoreDamaged));
    QVERIFY(store.runs().failedWith(ErrorCode::StoreDamaged));   // still, nothing changed
    QCOMPARE(restoreInAnotherProcess(dir.path(), b->path), QString());
    const auto runs = store.runs();
    QVERIFY2(runs.ok(), qPrintable(runs.errorText()));
    QCOMPARE(idsOf(*runs), first);
    QVERIFY(store.createRun(newRun(9)).ok());   // and written again
}

QTEST_GUILESS_MAIN(TestStoreSafety)
#include "tst_storesafety.moc"
