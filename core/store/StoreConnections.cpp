// SPDX-License-Identifier: GPL-3.0-or-later
// StoreConnections: opening this thread's connection, the check at open, the
// schema version read without the write lock, migrations and the daily backup.
#include "core/store/StoreConnections.h"

#include "core/base/Logging.h"
#include "core/base/PrivateFiles.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreTransaction.h"
#include "core/store/StoreFile.h"
#include "core/store/StoreHealth.h"

#include <QAtomicInteger>
#include <QScopeGuard>

namespace scalelab {

namespace {

int latestSchemaVersion()
{
    return int(runStoreMigrations().size());
}

quint64 threadSerial()
{
    // Unique for the life of the process, unlike thread ids which get reused.
    static QAtomicInteger<quint64> next(1);
    thread_local const quint64 serial = next.fetchAndAddRelaxed(1);
    return serial;
}

}   // namespace

StoreConnections::StoreConnections(const QString &dataDir)
    : m_dataDir(dataDir)
{
    static QAtomicInteger<quint64> stores(1);
    m_connectionPrefix = QStringLiteral("scalelab-runstore-%1").arg(stores.fetchAndAddRelaxed(1));
}

StoreConnections::~StoreConnections()
{
    QMutexLocker lock(&m_mutex);
    for (const QString &name : std::as_const(m_connections))
        QSqlDatabase::removeDatabase(name);
}

QString StoreConnections::databasePath() const
{
    return m_dataDir + QStringLiteral("/runs.sqlite");
}

void StoreConnections::closeThreadConnection()
{
    const QString name = threadConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    QMutexLocker lock(&m_mutex);
    m_connections.remove(name);
    m_connectionGeneration.remove(name);
}

QString StoreConnections::threadConnectionName() const
{
    return m_connectionPrefix + QStringLiteral("-t") + QString::number(threadSerial());
}

Result<void> StoreConnections::connection(QSqlDatabase &db)
{
    // A damaged file is neither read (its rows may be phantoms) nor written.
    const StoreHealth::State health = StoreHealth::state(databasePath());
    if (health.damage)
        return RunStoreSql::damaged(databasePath(), *health.damage);
    const QString name = threadConnectionName();
    if (QSqlDatabase::contains(name)) {
        db = QSqlDatabase::database(name, false);
        bool current = false;
        {
            QMutexLocker lock(&m_mutex);
            current = m_connectionGeneration.value(name, ~quint64(0)) == health.generation;
        }
        if (db.isOpen() && current)
            return ensureReady(db, health.generation);
        db.close();   // opened before a restore: reopen onto the restored file
    } else {
        // Owner only from the first start: the store holds accounts, paths
        // and job scripts (SQLite gives its -wal and -shm files the mode of
        // the database file).
        Result<void> made = PrivateFiles::makeDirectory(m_dataDir);
        if (made)
            made = PrivateFiles::makeFile(databasePath());
        if (!made)
            return fail(
                ErrorCode::StoreUnavailable,
                QStringLiteral("run store: %1 (set SCALELAB_DATA_DIR to a writable directory)").arg(made.errorText()));
        db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        QMutexLocker lock(&m_mutex);
        m_connections.insert(name);
    }
    if (auto e = openConnection(db); !e)
        return e;
    {
        QMutexLocker lock(&m_mutex);
        m_connectionGeneration.insert(name, health.generation);
    }
    return ensureReady(db, health.generation);
}

void StoreConnections::setThreadBusyTimeout(int ms)
{
    const QString name = threadConnectionName();
    {
        QMutexLocker lock(&m_mutex);
        m_busyTimeouts.insert(name, ms);
    }
    if (QSqlDatabase::contains(name))
        if (QSqlDatabase db = QSqlDatabase::database(name, false); db.isOpen())
            (void)RunStoreSql::execPlain(
                db, QStringLiteral("PRAGMA busy_timeout=%1").arg(ms));   // the next open sets it too
}

int StoreConnections::threadBusyTimeout()
{
    QMutexLocker lock(&m_mutex);
    return m_busyTimeouts.value(threadConnectionName(), kBusyTimeoutMs);
}

Result<void> StoreConnections::openConnection(QSqlDatabase &db)
{
    const int busyMs = threadBusyTimeout();
    db.setDatabaseName(databasePath());
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(busyMs));
    if (!db.open())
        return fail(ErrorCode::StoreUnavailable,
                    QStringLiteral("run store: opening %1 failed: %2; check that the folder is yours and writable, "
                                   "or set SCALELAB_DATA_DIR to another one")
                        .arg(databasePath(), db.lastError().text()));
    // This connection's settings: none of them needs the write lock.
    for (const QString &pragma : {QStringLiteral("PRAGMA synchronous=NORMAL"), QStringLiteral("PRAGMA foreign_keys=ON"),
                                  QStringLiteral("PRAGMA busy_timeout=%1").arg(busyMs)}) {
        if (auto e = RunStoreSql::execPlain(db, pragma); !e)
            return e;
    }
    return success();
}

Result<void> StoreConnections::useWal(QSqlDatabase &db)
{
    // WAL is the file's, set once: asking reads, switching would wait for writers.
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA journal_mode")); !e)
        return e;
    const bool wal = q.next() && q.value(0).toString().compare(QLatin1String("wal"), Qt::CaseInsensitive) == 0;
    q.finish();
    if (!wal)
        return RunStoreSql::execPlain(db, QStringLiteral("PRAGMA journal_mode=WAL"));
    return success();
}

Result<void> StoreConnections::ensureReady(QSqlDatabase &db, quint64 generation)
{
    {
        QMutexLocker lock(&m_mutex);
        // A store refused once (e.g. written by a newer ScaleLab) stays refused:
        // nothing may read or write a schema this build does not know.
        if (m_refusal)
            return fail(*m_refusal);
        if (m_readyGeneration == generation)
            return success();
    }
    // One thread checks and migrates; the others wait for it (a thread with
    // a short busy timeout, the window's, only that long).
    if (!m_prepareMutex.tryLock(threadBusyTimeout()))
        return fail(ErrorCode::StoreBusy,
                    QStringLiteral("run store %1 is still being opened (checked or migrated); try again in a moment")
                        .arg(databasePath()));
    const auto unlock = qScopeGuard([this] { m_prepareMutex.unlock(); });
    {
        QMutexLocker lock(&m_mutex);
        if (m_refusal)
            return fail(*m_refusal);
        if (m_readyGeneration == generation)
            return success();
    }
    Result<void> e = prepareStore(db);
    QMutexLocker lock(&m_mutex);
    if (!e) {
        if (e.error().code == ErrorCode::StoreNewerSchema)
            m_refusal = e.error();
        return e;
    }
    m_readyGeneration = generation;
    return success();
}

Result<void> StoreConnections::prepareStore(QSqlDatabase &db)
{
    // Read-only and cheap (one pass over the file): damage found here, not row by row later.
    const Result<QString> problem = StoreFile::check(databasePath());
    if (!problem)
        return fail(problem.error());
    if (!problem->isEmpty()) {
        StoreHealth::markDamaged(databasePath(), *problem);
        return RunStoreSql::damaged(databasePath(), *problem);
    }
    // Only now, on a sound file: switching a new store to WAL writes its header.
    if (auto e = useWal(db); !e)
        return e;
    // The version is read without a transaction: a current store never asks for the write lock.
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA user_version")); !e)
        return e;
    const int current = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    if (current > latestSchemaVersion())
        return newerSchema(current);
    if (current == latestSchemaVersion()) {
        backUpIfDaily(db);
        return success();
    }
    if (current > 0 && current < latestSchemaVersion()) {
        const auto b = StoreFile::backup(databasePath(), QStringLiteral("before-migration-%1").arg(current + 1));
        if (!b)
            return fail(b.error().code, QStringLiteral("run store: not migrating %1 without a backup: %2")
                                            .arg(databasePath(), b.error().message));
    }
    return migrate(db);
}

void StoreConnections::backUpIfDaily(QSqlDatabase &db)
{
    if (!StoreFile::dailyDue(databasePath()))
        return;
    QSqlQuery q(db);
    if (!RunStoreSql::exec(q, QStringLiteral("SELECT EXISTS (SELECT 1 FROM runs)")).ok() || !q.next()
        || !q.value(0).toBool())
        return;   // nothing to keep yet
    q.finish();
    if (const auto b = StoreFile::backup(databasePath(), QStringLiteral("daily")); !b)
        qCWarning(lcStore).noquote() << QStringLiteral("daily backup skipped: %1").arg(b.error().message);
}

tl::unexpected<Error> StoreConnections::newerSchema(int version) const
{
    return fail(ErrorCode::StoreNewerSchema, QStringLiteral("run store: %1 has schema version %2, newer than this "
                                                            "ScaleLab (%3); use a newer ScaleLab or another "
                                                            "SCALELAB_DATA_DIR")
                                                 .arg(databasePath())
                                                 .arg(version)
                                                 .arg(latestSchemaVersion()));
}

Result<void> StoreConnections::migrate(QSqlDatabase &db)
{
    const auto &all = runStoreMigrations();
    for (int version = 0; version < all.size(); ++version) {
        RunStoreTransaction tx(db);
        if (auto e = tx.begin(); !e)
            return fail(e.error());
        // Read inside the transaction: another process may have migrated meanwhile.
        QSqlQuery q(db);
        if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA user_version")); !e)
            return fail(e.error());
        const int current = q.next() ? q.value(0).toInt() : 0;
        q.finish();
        if (current > all.size())
            return newerSchema(current);
        if (current > version)
            continue;
        for (const QString &sql : all[version])
            if (auto e = RunStoreSql::execPlain(db, sql); !e)
                return fail(e.error().code,
                            QStringLiteral("run store migration %1: %2").arg(version + 1).arg(e.error().message));
        if (auto e = RunStoreSql::execPlain(db, QStringLiteral("PRAGMA user_version=%1").arg(version + 1)); !e)
            return e;
        if (auto e = tx.commit(); !e)
            return fail(e.error());
    }
    return {};
}

}   // namespace scalelab
