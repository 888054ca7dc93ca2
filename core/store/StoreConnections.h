// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>

#include <optional>

class QSqlDatabase;

namespace scalelab {

// The store file's connections, one per thread, opened lazily: what every
// query group (`...Queries`) asks for its `QSqlDatabase`. The first open (and
// the first after a restore) checks the file (StoreFile::check) and reads its
// schema version without the write lock; only an older schema is migrated, in
// a write transaction, after a backup; the daily backup is made then. A store
// refused once (newer schema) stays refused. RunStore owns one.
class StoreConnections {
public:
    static constexpr int kBusyTimeoutMs = 10000;

    explicit StoreConnections(const QString &dataDir);
    ~StoreConnections();   // removes every connection it made
    StoreConnections(const StoreConnections &) = delete;
    StoreConnections &operator=(const StoreConnections &) = delete;

    QString dataDirectory() const { return m_dataDir; }
    QString databasePath() const;
    // This thread's open, checked and migrated connection (see RunStore::open).
    Result<void> connection(QSqlDatabase &db);
    void setThreadBusyTimeout(int ms);
    void closeThreadConnection();

private:
    QString threadConnectionName() const;
    Result<void> openConnection(QSqlDatabase &db);
    Result<void> useWal(QSqlDatabase &db);
    Result<void> ensureReady(QSqlDatabase &db, quint64 generation);
    int threadBusyTimeout();
    Result<void> prepareStore(QSqlDatabase &db);
    Result<void> migrate(QSqlDatabase &db);
    tl::unexpected<Error> newerSchema(int version) const;
    void backUpIfDaily(QSqlDatabase &db);

    QString m_dataDir;
    QString m_connectionPrefix;
    QMutex m_mutex;   // guards the members below
    QSet<QString> m_connections;   // names created, removed in the destructor
    QHash<QString, quint64> m_connectionGeneration;   // StoreHealth's generation each was opened at
    std::optional<quint64> m_readyGeneration;   // checked and migrated at this generation
    std::optional<Error> m_refusal;
    QHash<QString, int> m_busyTimeouts;   // by connection name, when not kBusyTimeoutMs
    QMutex m_prepareMutex;   // held while one thread checks and migrates the store
};

}   // namespace scalelab
