// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/StoreCommands.h"

#include "app/cli/CliParser.h"
#include "core/store/RunStore.h"
#include "core/store/StoreFile.h"

#include <QFileInfo>

namespace scalelab {

namespace {

using Json = nlohmann::ordered_json;

Json backupJson(const StoreFile::Backup &b)
{
    return Json{{"path", b.path.toStdString()},
                {"made", b.made.toString(Qt::ISODateWithMs).toStdString()},
                {"reason", b.reason.toStdString()},
                {"bytes", b.bytes}};
}

Json backupsJson(const QString &db)
{
    Json arr = Json::array();
    for (const StoreFile::Backup &b : StoreFile::backups(db))
        arr.push_back(backupJson(b));
    return arr;
}

void printBackups(CliContext &ctx, const QString &db)
{
    const QList<StoreFile::Backup> all = StoreFile::backups(db);
    if (all.isEmpty())
        ctx.out << "no backups yet in " << StoreFile::directoryFor(db) << " (make one: scalelab store backup)\n";
    for (const StoreFile::Backup &b : all)
        ctx.out << b.made.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << " UTC  " << b.reason << "  "
                << b.bytes / 1024 << " KiB  " << b.path << "\n";
}

int failed(CliContext &ctx, const Error &e)
{
    ctx.err << "scalelab: " << e.message << "\n";
    return int(ExitCode::Errors);
}

int check(CliContext &ctx, const QString &db, bool json)
{
    const Result<QString> problem = StoreFile::check(db);
    if (!problem)
        return failed(ctx, problem.error());
    if (json)
        ctx.printJson("store", Json{{"action", "check"},
                                    {"store", db.toStdString()},
                                    {"sound", problem->isEmpty()},
                                    {"problem", problem->isEmpty() ? Json(nullptr) : Json(problem->toStdString())},
                                    {"backups", backupsJson(db)}});
    if (problem->isEmpty()) {
        if (!json) {
            ctx.out << db << ": sound (PRAGMA quick_check: ok)\n";
            printBackups(ctx, db);
        }
        return 0;
    }
    ctx.err << "scalelab: run store " << db << " is damaged: " << *problem
            << ".\nScaleLab does not write into it. Put the last backup back with `scalelab store restore` "
               "(the damaged file is kept beside it), or name an older one (`scalelab store list`).\n";
    return int(ExitCode::Errors);
}

int backup(CliContext &ctx, const QString &db, bool json)
{
    const auto made = StoreFile::backup(db, QStringLiteral("manual"));
    if (!made)
        return failed(ctx, made.error());
    if (json)
        ctx.printJson("store", Json{{"action", "backup"},
                                    {"store", db.toStdString()},
                                    {"backup", backupJson(*made)},
                                    {"backups", backupsJson(db)}});
    else
        ctx.out << "backed up " << db << " to " << made->path << " (the newest " << StoreFile::kKeep
                << " backups are kept)\n";
    return 0;
}

int restore(CliContext &ctx, const QString &db, const QStringList &args, bool json)
{
    QString from;
    if (!args.isEmpty()) {
        from = args.front();
        if (!QFileInfo(from).isFile())
            return ctx.unusable(QStringLiteral("no backup file %1; `scalelab store list` shows the backups").arg(from));
    } else if (const QList<StoreFile::Backup> all = StoreFile::backups(db); !all.isEmpty()) {
        from = all.front().path;
    } else {
        return ctx.unusable(QStringLiteral("no backups of %1 in %2 to restore from; name a backup file")
                                .arg(db, StoreFile::directoryFor(db)));
    }
    const auto done = StoreFile::restore(db, from);
    if (!done) {
        if (done.error().code == ErrorCode::InvalidValue)
            return ctx.unusable(done.error().message);
        return failed(ctx, done.error());
    }
    RunStore store(QFileInfo(db).absolutePath());
    const auto runs = store.runs();   // opens, migrates an older backup, and counts what came back
    if (json)
        ctx.printJson("store",
                      Json{{"action", "restore"},
                           {"store", db.toStdString()},
                           {"restoredFrom", from.toStdString()},
                           {"keptAs", done->keptAs.isEmpty() ? Json(nullptr) : Json(done->keptAs.toStdString())},
                           {"runs", runs ? Json(runs->size()) : Json(nullptr)},
                           {"backups", backupsJson(db)}});
    else {
        ctx.out << "restored " << db << " from " << from << "\n";
        if (!done->keptAs.isEmpty())
            ctx.out << "the store as it was is kept as " << done->keptAs << "\n";
    }
    if (!runs)
        return failed(ctx, runs.error());
    if (!json)
        ctx.out << runs->size() << " run(s) in the restored store\n";
    return 0;
}

}   // namespace

int StoreCommands::run(CliContext &ctx, const QStringList &args)
{
    CliParser a(
        QStringLiteral("store"), QStringLiteral("check|backup|list|restore [BACKUP] [--json]"),
        QStringLiteral("Looks after the run store file (runs.sqlite in SCALELAB_DATA_DIR):\n"
                       "  check    is it sound (its shape and SQLite's PRAGMA quick_check); exit 1 when damaged\n"
                       "  backup   copy it into the backups folder beside it (SQLite's online backup: safe while\n"
                       "           another ScaleLab writes); the newest 5 are kept\n"
                       "  list     the backups, newest first\n"
                       "  restore  put BACKUP (default: the newest backup) in place of the store; the store as it\n"
                       "           was is kept beside it as runs.sqlite.before-restore-<time>\n"
                       "ScaleLab also backs up by itself: before every schema migration and once a day.\n"
                       "Close other ScaleLab windows before a restore."));
    a.examples({QStringLiteral("scalelab store check"), QStringLiteral("scalelab store backup"),
                QStringLiteral("scalelab store restore"),
                QStringLiteral(
                    "scalelab store restore ~/.local/share/ScaleLab/backups/runs-20260101-120000-000-daily.sqlite")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    const QStringList words = a.positional();
    const QStringList actions{QStringLiteral("check"), QStringLiteral("backup"), QStringLiteral("list"),
                              QStringLiteral("restore")};
    if (words.isEmpty() || !actions.contains(words.front()))
        return ctx.unusable(
            QStringLiteral("store needs one of check, backup, list, restore%1 (see `scalelab store --help`)")
                .arg(words.isEmpty() ? QString() : didYouMean(words.front(), actions)));
    const QString action = words.front();
    if (action != QLatin1String("restore") && words.size() > 1)
        return ctx.unusable(
            QStringLiteral("store %1 takes no more arguments (see `scalelab store --help`)").arg(action));
    if (words.size() > 2)
        return ctx.unusable(QStringLiteral("store restore takes one backup file (see `scalelab store --help`)"));
    const bool json = a.isSet(QStringLiteral("json"));
    const QString db = RunStore().databasePath();
    if (action == QLatin1String("check"))
        return check(ctx, db, json);
    if (action == QLatin1String("backup"))
        return backup(ctx, db, json);
    if (action == QLatin1String("restore"))
        return restore(ctx, db, words.mid(1), json);
    if (json)
        ctx.printJson("store", Json{{"action", "list"}, {"store", db.toStdString()}, {"backups", backupsJson(db)}});
    else
        printBackups(ctx, db);
    return 0;
}

}   // namespace scalelab
