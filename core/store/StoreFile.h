// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace scalelab {

// The store as a file: is it sound, copies of it, putting a copy back. Each
// call opens its own SQLite connection (none of RunStore's), so it works on a
// store RunStore refuses. Copies go through SQLite's online backup API: a
// consistent snapshot even while another connection writes.
class StoreFile {
public:
    // Backups kept per store; older ones are deleted after each new one.
    static constexpr int kKeep = 5;

    struct Backup {
        QString path;
        QDateTime made;   // UTC, from the file name
        QString reason;   // "daily", "manual", "before-migration-5", "before-restore"
        qint64 bytes = 0;
    };
    struct Restored {
        QString backup;   // the copy put in place
        QString keptAs;   // where the replaced store was kept ("" when there was none)
        bool replacedFile = false;   // SQLite could not write the old file: a new file instead
    };

    static QString directoryFor(const QString &dbPath);   // <folder of the store>/backups

    // "" when `dbPath` is sound (or does not exist yet / is empty), else what
    // is wrong in plain words: not an SQLite file, cut short, or the first
    // lines of PRAGMA quick_check. Fails only when the file cannot be read.
    static Result<QString> check(const QString &dbPath);
    // What a researcher reads about a damaged store: `why` (SQLite's or the
    // check's words) said plainly, what ScaleLab does about it, and the way
    // out: the last backup when there is one, else moving the file away.
    static QString damageMessage(const QString &dbPath, const QString &why);
    static QString plainDamage(const QString &why);
    // Cheap shape check of the file alone (header, length a whole number of pages).
    static QString shapeProblem(const QString &dbPath);

    // A copy of the sound store into directoryFor(dbPath); keeps the newest kKeep.
    // Refused (StoreDamaged) for a damaged store: it would push good copies out.
    static Result<Backup> backup(const QString &dbPath, const QString &reason);
    static QList<Backup> backups(const QString &dbPath);   // newest first
    // No backup made in the last 24 hours.
    static bool dailyDue(const QString &dbPath, const QDateTime &now = QDateTime::currentDateTimeUtc());

    // Puts `backupPath` (a sound copy) in place of the store. The store as it
    // was is first copied beside it (runs.sqlite.before-restore-<time>). The
    // store is written in place through SQLite's backup API (a damaged one
    // emptied by SQLite's reset first), so every connection, in this process
    // or another (a window open during `scalelab store restore`), sees the
    // restored runs; only a file SQLite cannot write at all is replaced.
    // Every RunStore of this process reopens (StoreHealth::restored); another
    // process's sees the file changed (StoreHealth::state).
    static Result<Restored> restore(const QString &dbPath, const QString &backupPath);

private:
    static Result<void> copyDatabase(const QString &from, const QString &to);
    static Result<void> writeInPlace(const QString &dbPath, const QString &backupPath);
    static Result<void> replaceFile(const QString &dbPath, const QString &backupPath);
    static Result<QString> quickCheck(const QString &dbPath);
    static void prune(const QString &dbPath);
};

}   // namespace scalelab
