// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/StoreFile.h"

#include "core/base/AtomicFile.h"
#include "core/base/Logging.h"
#include "core/base/PrivateFiles.h"
#include "core/store/RunStoreSql.h"
#include "core/store/StoreHealth.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sqlite3.h>

#include <algorithm>

namespace scalelab {

namespace {

constexpr char kStampFormat[] = "yyyyMMdd-HHmmss-zzz";

// One sqlite3 connection of our own, closed when it goes.
struct Connection {
    sqlite3 *db = nullptr;
    ~Connection() { sqlite3_close_v2(db); }
    QString message() const { return db ? QString::fromUtf8(sqlite3_errmsg(db)) : QStringLiteral("out of memory"); }
};

Result<void> openConnection(Connection &c, const QString &path, int flags)
{
    const int rc = sqlite3_open_v2(QFile::encodeName(path).constData(), &c.db, flags, nullptr);
    if (rc != SQLITE_OK)
        return RunStoreSql::sqliteError(c.db, rc, QStringLiteral("opening"), c.message());
    sqlite3_busy_timeout(c.db, RunStoreSql::kBusyTimeoutMs);
    return success();
}

// The backup's path for `reason` at `when`, not yet taken.
QString backupName(const QString &dir, const QDateTime &when, const QString &reason)
{
    return QStringLiteral("%1/runs-%2-%3.sqlite").arg(dir, when.toString(QLatin1String(kStampFormat)), reason);
}

// The store file read through an SQLite connection's own handle. This
// process never opens and closes a descriptor of its own on the store: a
// close() drops every POSIX lock the process holds on the file, those of its
// open connections too, and another process could then take the store as
// its own alone, checkpoint and delete the WAL under them (their reads would
// stay on the old WAL index for good).
class RawStoreFile {
public:
    Result<void> open(const QString &path)
    {
        if (auto e = openConnection(m_c, path, SQLITE_OPEN_READONLY); !e)
            return e;
        if (sqlite3_file_control(m_c.db, "main", SQLITE_FCNTL_FILE_POINTER, &m_file) != SQLITE_OK || !m_file
            || !m_file->pMethods)
            return fail(ErrorCode::LocalFile, QStringLiteral("cannot read %1").arg(path));
        return success();
    }
    qint64 size() const
    {
        sqlite3_int64 bytes = 0;
        return m_file->pMethods->xFileSize(m_file, &bytes) == SQLITE_OK ? qint64(bytes) : -1;
    }
    // Up to `length` bytes from `offset` (fewer at the end of the file).
    QByteArray read(qint64 offset, qint64 length) const
    {
        const qint64 n = std::max<qint64>(0, std::min(length, size() - offset));
        QByteArray out(n, Qt::Uninitialized);
        if (n > 0 && m_file->pMethods->xRead(m_file, out.data(), int(n), offset) != SQLITE_OK)
            return {};
        return out;
    }

private:
    Connection m_c;
    sqlite3_file *m_file = nullptr;
};

// Copies a store that may be damaged, byte for byte, owner-only (read
// through SQLite, see RawStoreFile). Its -wal holds no locks: copied as a file.
Result<void> copyRaw(const QString &from, const QString &to)
{
    const auto cannot = [&from, &to] {
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot copy %1 to %2; free some space there or move the "
                                                         "file away by hand")
                                              .arg(from, to));
    };
    QFile::remove(to);
    if (from.endsWith(QLatin1String("-wal"))) {
        if (!QFile::copy(from, to))
            return cannot();
        QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
        return success();
    }
    RawStoreFile in;
    if (auto e = in.open(from); !e)
        return e;
    if (const auto made = PrivateFiles::makeFile(to); !made)
        return fail(ErrorCode::LocalFile, made.errorText());
    AtomicFile out(to);
    if (auto e = out.open(); !e)
        return e;
    constexpr qint64 kChunk = 1 << 20;
    for (qint64 at = 0, size = in.size(); at < size; at += kChunk) {
        const QByteArray bytes = in.read(at, kChunk);
        if (bytes.isEmpty() || out.device()->write(bytes) != bytes.size())
            return cannot();
    }
    return out.commit();
}

}   // namespace

QString StoreFile::directoryFor(const QString &dbPath)
{
    return QFileInfo(dbPath).absolutePath() + QStringLiteral("/backups");
}

QString StoreFile::plainDamage(const QString &why)
{
    // shapeProblem's own sentences are plain already.
    for (const char *plain : {"it ", "its ", "cannot be read"})
        if (why.startsWith(QLatin1String(plain)))
            return why;
    if (why.contains(QLatin1String("not a database"), Qt::CaseInsensitive))
        return QStringLiteral("it is not a run store: its first bytes are not an SQLite database's");
    // "database disk image is malformed", quick_check's "*** in database main *** Page 7: …"
    return QStringLiteral("parts of the file cannot be read back (it was cut short or overwritten)");
}

QString StoreFile::damageMessage(const QString &dbPath, const QString &why)
{
    const QString head = QStringLiteral("The run store %1 is damaged: %2. ScaleLab stopped reading and writing it, "
                                        "so nothing more is lost.")
                             .arg(dbPath, plainDamage(why));
    const QList<Backup> all = backups(dbPath);
    if (all.isEmpty())
        return head
               + QStringLiteral(" There is no backup of it yet: move the file away to start an empty store "
                                "(its runs are lost), or put back a copy you have with "
                                "`scalelab store restore FILE`.");
    return head
           + QStringLiteral(" Put the last backup back (%1, made %2 UTC) with File \u25b8 Run store \u25b8 "
                            "Restore last backup or `scalelab store restore`; the damaged file is kept beside it.")
                 .arg(all.front().path, all.front().made.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
}

QString StoreFile::shapeProblem(const QString &dbPath)
{
    const QFileInfo info(dbPath);
    if (!info.exists() || info.size() == 0)
        return {};   // a store not created yet
    RawStoreFile f;   // never a descriptor of our own on the store (see RawStoreFile)
    if (auto e = f.open(dbPath); !e)
        return QStringLiteral("cannot be read: %1").arg(e.error().message);
    const QByteArray header = f.read(0, 100);
    if (header.size() < 100 || !header.startsWith(QByteArrayLiteral("SQLite format 3\0")))
        return QStringLiteral("it is not an SQLite database (its first bytes are not SQLite's)");
    // Bytes 16-17: the page size, big-endian; 1 stands for 65536.
    qint64 pageSize = (quint8(header[16]) << 8) | quint8(header[17]);
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0)
        return QStringLiteral("its header is damaged (page size %1)").arg(pageSize);
    if (f.size() % pageSize != 0)
        return QStringLiteral("it was cut short: %1 bytes is not a whole number of %2-byte pages")
            .arg(f.size())
            .arg(pageSize);
    // A file cut at a page boundary passes here; quick_check finds its missing pages.
    return {};
}

Result<QString> StoreFile::quickCheck(const QString &dbPath)
{
    Connection c;
    if (auto e = openConnection(c, dbPath, SQLITE_OPEN_READWRITE); !e)
        return fail(e.error());
    sqlite3_stmt *stmt = nullptr;
    int rc = sqlite3_prepare_v2(c.db, "PRAGMA quick_check(5)", -1, &stmt, nullptr);
    QStringList lines;
    if (rc == SQLITE_OK)
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
            lines << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
    switch (rc & 0xff) {
    case SQLITE_DONE:
        return lines == QStringList{QStringLiteral("ok")} ? QString() : lines.join(QStringLiteral("; "));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return c.message();
    default:
        return RunStoreSql::sqliteError(c.db, rc, QStringLiteral("PRAGMA quick_check"), c.message());
    }
}

Result<QString> StoreFile::check(const QString &dbPath)
{
    if (const QString shape = shapeProblem(dbPath); !shape.isEmpty())
        return shape;
    if (!QFileInfo(dbPath).exists() || QFileInfo(dbPath).size() == 0)
        return QString();
    return quickCheck(dbPath);
}

Result<void> StoreFile::copyDatabase(const QString &from, const QString &to)
{
    Connection src;
    Connection dst;
    if (auto e = openConnection(src, from, SQLITE_OPEN_READWRITE); !e)
        return e;
    if (auto e = openConnection(dst, to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE); !e)
        return e;
    sqlite3_backup *b = sqlite3_backup_init(dst.db, "main", src.db, "main");
    if (!b)
        return RunStoreSql::sqliteError(dst.db, sqlite3_errcode(dst.db), QStringLiteral("backup"), dst.message());
    const int rc = sqlite3_backup_step(b, -1);
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        // Which side failed: the source's error names the store, else the copy's.
        sqlite3 *side = sqlite3_errcode(src.db) != SQLITE_OK ? src.db : dst.db;
        return RunStoreSql::sqliteError(side, rc, QStringLiteral("backup"), QString::fromUtf8(sqlite3_errstr(rc)));
    }
    return success();
}

Result<StoreFile::Backup> StoreFile::backup(const QString &dbPath, const QString &reason)
{
    const Result<QString> problem = check(dbPath);
    if (!problem)
        return fail(problem.error());
    if (!problem->isEmpty())
        return RunStoreSql::damaged(dbPath, *problem);
    const QString dir = directoryFor(dbPath);
    if (const auto made = PrivateFiles::makeDirectory(dir); !made)
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot back up the run store: %1").arg(made.errorText()));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString path = backupName(dir, now, reason);
    const QString part = path + QStringLiteral(".part");
    QFile::remove(part);
    if (const auto made = PrivateFiles::makeFile(part); !made)
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot back up the run store: %1").arg(made.errorText()));
    if (auto e = copyDatabase(dbPath, part); !e) {
        QFile::remove(part);
        return fail(e.error());
    }
    // Only a finished copy carries a backup's name.
    if (!QFile::rename(part, path)) {
        QFile::remove(part);
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot name the run store backup %1").arg(path));
    }
    qCInfo(lcStore).noquote() << QStringLiteral("backed up %1 to %2").arg(dbPath, path);
    prune(dbPath);
    return Backup{path, now, reason, QFileInfo(path).size()};
}

QList<StoreFile::Backup> StoreFile::backups(const QString &dbPath)
{
    QList<Backup> out;
    const QDir dir(directoryFor(dbPath));
    const QStringList names =
        dir.entryList({QStringLiteral("runs-*.sqlite")}, QDir::Files, QDir::Name | QDir::Reversed);
    for (const QString &name : names) {
        // runs-<yyyyMMdd-HHmmss-zzz>-<reason>.sqlite
        const QString stem = name.mid(5, name.size() - 5 - 7);
        const QString stamp = stem.left(19);
        const QDateTime local = QDateTime::fromString(stamp, QLatin1String(kStampFormat));
        if (!local.isValid())
            continue;
        const QDateTime made(local.date(), local.time(), Qt::UTC);
        out << Backup{dir.filePath(name), made, stem.mid(20), QFileInfo(dir.filePath(name)).size()};
    }
    return out;
}

bool StoreFile::dailyDue(const QString &dbPath, const QDateTime &now)
{
    const QList<Backup> all = backups(dbPath);
    return all.isEmpty() || all.front().made.secsTo(now) >= 24 * 3600;
}

void StoreFile::prune(const QString &dbPath)
{
    const QList<Backup> all = backups(dbPath);
    for (qsizetype i = kKeep; i < all.size(); ++i)
        QFile::remove(all[i].path);
}

Result<StoreFile::Restored> StoreFile::restore(const QString &dbPath, const QString &backupPath)
{
    const Result<QString> backupProblem = check(backupPath);
    if (!backupProblem)
        return fail(backupProblem.error());
    if (!QFileInfo(backupPath).isFile() || QFileInfo(backupPath).size() == 0 || !backupProblem->isEmpty())
        return fail(
            ErrorCode::InvalidValue,
            QStringLiteral("%1 is not a usable run store backup%2; pick another one (`scalelab store list` shows them)")
                .arg(backupPath, backupProblem->isEmpty() ? QString() : QStringLiteral(" (%1)").arg(*backupProblem)));
    Restored out{backupPath, {}, false};
    const bool exists = QFileInfo(dbPath).exists() && QFileInfo(dbPath).size() > 0;
    if (exists) {
        out.keptAs = QStringLiteral("%1.before-restore-%2")
                         .arg(dbPath, QDateTime::currentDateTimeUtc().toString(QLatin1String(kStampFormat)));
        if (auto e = copyRaw(dbPath, out.keptAs); !e)
            return fail(e.error());
        if (QFileInfo::exists(dbPath + QStringLiteral("-wal")))
            if (auto e = copyRaw(dbPath + QStringLiteral("-wal"), out.keptAs + QStringLiteral("-wal")); !e)
                return fail(e.error());
    }
    if (auto e = writeInPlace(dbPath, backupPath); !e) {
        // Only when SQLite cannot write the file at all: another process's
        // open connection keeps the old file, so it is named in the log.
        qCWarning(lcStore).noquote()
            << QStringLiteral("restoring %1 in place failed (%2): replacing the file").arg(dbPath, e.error().message);
        out.replacedFile = true;
        if (auto r = replaceFile(dbPath, backupPath); !r)
            return fail(r.error());
    }
    StoreHealth::restored(dbPath);
    qCInfo(lcStore).noquote() << QStringLiteral("restored %1 from %2").arg(dbPath, backupPath);
    return out;
}

Result<void> StoreFile::writeInPlace(const QString &dbPath, const QString &backupPath)
{
    if (!QFileInfo(dbPath).exists() || QFileInfo(dbPath).size() == 0) {
        if (const auto made = PrivateFiles::makeFile(dbPath); !made)
            return fail(ErrorCode::LocalFile, QStringLiteral("cannot restore the run store: %1").arg(made.errorText()));
        return copyDatabase(backupPath, dbPath);
    }
    const Result<QString> current = check(dbPath);
    if (!current.ok() || !current->isEmpty()) {
        // A damaged file is first emptied through SQLite (its reset of a
        // database, then VACUUM): the same file under SQLite's locks, so the
        // copy below reaches every connection, in this process or another.
        Connection c;
        if (auto e = openConnection(c, dbPath, SQLITE_OPEN_READWRITE); !e)
            return e;
        sqlite3_db_config(c.db, SQLITE_DBCONFIG_RESET_DATABASE, 1, nullptr);
        const int rc = sqlite3_exec(c.db, "VACUUM", nullptr, nullptr, nullptr);
        sqlite3_db_config(c.db, SQLITE_DBCONFIG_RESET_DATABASE, 0, nullptr);
        if (rc != SQLITE_OK)
            return RunStoreSql::sqliteError(c.db, rc, QStringLiteral("emptying the damaged store"), c.message());
    }
    // Written through SQLite: other connections (another window) see the restored runs.
    return copyDatabase(backupPath, dbPath);
}

Result<void> StoreFile::replaceFile(const QString &dbPath, const QString &backupPath)
{
    const QString part = dbPath + QStringLiteral(".restoring");
    QFile::remove(part);
    if (const auto made = PrivateFiles::makeFile(part); !made)
        return fail(ErrorCode::LocalFile, QStringLiteral("cannot restore the run store: %1").arg(made.errorText()));
    if (auto e = copyDatabase(backupPath, part); !e) {
        QFile::remove(part);
        return e;
    }
    // The damaged file's journal belongs to it alone: it must not be replayed into the copy.
    QFile::remove(dbPath + QStringLiteral("-wal"));
    QFile::remove(dbPath + QStringLiteral("-shm"));
    QFile::remove(dbPath);
    if (!QFile::rename(part, dbPath))
        return fail(
            ErrorCode::LocalFile,
            QStringLiteral("cannot put the restored store in place: rename %1 to %2 by hand").arg(part, dbPath));
    return success();
}

}   // namespace scalelab
