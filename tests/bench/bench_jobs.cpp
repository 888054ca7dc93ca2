// SPDX-License-Identifier: GPL-3.0-or-later
// Jobs benchmark (prints ratios; not a pass/fail test).
// A run store with 1,000, 10,000 and 100,000 runs (most in studies of 8, a
// state history of three states, accounting for the finished ones, some hidden
// or with a failure line). For each size:
//  - ours: the Jobs place reloads (RunStore::jobsRecords and the tree built on
//    the background pool, swapped into the model, the view laid out and
//    painted); the time until the tree is painted, and the longest GUI-thread
//    stall meanwhile (StallProbe, as in bench_results); a patch of one changed
//    run (runsChanged with its id) is timed apart;
//  - baseline: the `sqlite3` command-line tool running the same queries (a count and five reads)
//    (studies, runs, state history, accounting, flags) on the same file.
// The first showing (the place shown while its first read runs: the view is
// given the first rows only) is timed apart, its longest stall on its own line.
// The last line is `ratio=<ours / sqlite3>` for 100,000 runs (goal <= 2 at every
// size, every GUI-thread stall <= 16 ms, the first showing's included).
// Usage: bench_jobs [largest run count]
#include "core/store/RunStore.h"
#include "tests/bench/GuiStallProbe.h"
#include "ui/common/AppServices.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTreeView>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

using namespace scalelab;
using benchsupport::StallProbe;
using benchsupport::threadCpuMs;

namespace {

// Fills the store in-process with one INSERT ... SELECT per table (a
// recursive CTE counts the runs), so setting up 100,000 runs takes seconds.
QString fill(const QString &dbPath, int runs)
{
    const QString name = QStringLiteral("bench-jobs-fill-%1").arg(runs);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath);
        if (!db.open())
            return db.lastError().text();
        QSqlQuery q(db);
        const QString count =
            QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %1)").arg(runs);
        // Every fiftieth run is still running (no final state, no accounting);
        // the runs insert spells it out: its printf('%016x') would read as an arg() marker.
        const QString running = QStringLiteral("x % 50 = 0");
        const QStringList sql = {
            QStringLiteral("BEGIN"),
            count
                + QStringLiteral(" INSERT INTO studies (id, name, created) SELECT x, 'study ' || x,"
                                 " strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (x * 8) || ' minutes')"
                                 " FROM c WHERE x <= %1 / 8 + 1")
                      .arg(runs),
            count
                + QStringLiteral(
                    " INSERT INTO runs (id, study_id, token, profile, cluster_alias, partition, gpus, nodes,"
                    " framework, spec_json, script, job_id, state, submit_state, created, updated)"
                    " SELECT x, CASE WHEN x % 5 = 0 THEN NULL ELSE (x + 7) / 8 END, 'sl-' || printf('%016x', x),"
                    " 'puhti', 'puhti', 'gpu', 1 << (x % 4), 1 + (x % 4) / 3, 'pytorch-ddp',"
                    " '{\"profile\":\"puhti\",\"gpus\":4,\"time\":\"01:00:00\",\"jobName\":\"resnet-' || x || '\"}',"
                    " printf('%.*c', 1500, '#'), CAST(1000000 + x AS TEXT),"
                    " CASE WHEN x % 50 = 0 THEN 'RUNNING' ELSE 'COMPLETED' END, 'submitted',"
                    " strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || x || ' minutes'),"
                    " '2026-01-01T01:00:00.000Z' FROM c"),
            count
                + QStringLiteral(" INSERT INTO state_history (run_id, state, reason, at)"
                                 " SELECT x, s.state, '', strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01',"
                                 " '+' || (x * 60 + s.offset) || ' seconds') FROM c,"
                                 " (SELECT 'PENDING' AS state, 0 AS offset, 0 AS ord UNION ALL SELECT 'RUNNING', 60, 1"
                                 "  UNION ALL SELECT 'COMPLETED', 1860, 2) AS s"
                                 " WHERE NOT (%1 AND s.state = 'COMPLETED') ORDER BY x, s.ord")
                      .arg(running),
            count
                + QStringLiteral(
                      " INSERT INTO accounting (run_id, job_id, state, exit_code, submit_time, start_time,"
                      " end_time, elapsed, alloc_tres, max_rss, node_list, partition, account, timelimit, raw,"
                      " lines_json, recorded)"
                      " SELECT x, CAST(1000000 + x AS TEXT), 'COMPLETED', '0:0', '2026-01-01T00:00:00',"
                      " '2026-01-01T00:01:00', '2026-01-01T00:31:00', '00:30:00',"
                      " 'billing=40,cpu=40,gres/gpu=4,mem=64G,node=1', '12G', 'r01g01', 'gpu',"
                      " 'project_2001234', '01:00:00', '', '[]', '2026-01-01T01:00:00.000Z' FROM c WHERE NOT %1")
                      .arg(running),
            count
                + QStringLiteral(" INSERT INTO run_flags (run_id, hidden, failure_line) SELECT x, x % 100 = 0,"
                                 " CASE WHEN x % 7 = 0 THEN 'line 42: ValueError: bad batch ' || x ELSE '' END"
                                 " FROM c WHERE x % 100 = 0 OR x % 7 = 0"),
            QStringLiteral("COMMIT"),
        };
        for (const QString &s : sql)
            if (!q.exec(s)) {
                error = q.lastError().text() + QStringLiteral(" in ") + s.left(120);
                break;
            }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

// The five queries RunStore::jobsRecords runs, through the sqlite3 CLI.
double sqliteSeconds(const QString &dbPath)
{
    const QString sql = QStringLiteral(
        "SELECT id, name, created, spec_template, notes FROM studies ORDER BY id;"
        "SELECT count(*) FROM runs;"
        "SELECT id, study_id, token, profile, cluster_alias, partition, gpus, nodes, framework, spec_json, '',"
        " remote_dir, job_id, state, reason, submit_state, rejection, created, updated, slurm_version, spec_file,"
        " script <> '', CASE WHEN json_valid(spec_json) THEN json_extract(spec_json, '$.time') END,"
        " CASE WHEN json_valid(spec_json) THEN json_extract(spec_json, '$.jobName') END FROM runs ORDER BY id;"
        "SELECT run_id, state, at FROM state_history ORDER BY run_id, id;"
        "SELECT run_id, elapsed, timelimit FROM accounting;"
        "SELECT run_id, hidden, failure_line FROM run_flags;");
    return benchsupport::sqliteCliSeconds(dbPath, sql);
}

struct Measured {
    double seconds = 0;
    double stallMs = 0;
    double guiCpuMs = 0;   // the GUI thread's CPU time over the reload
};

// One reload (or one patch, with `runIds`), timed to the painted tree.
Measured readOnce(JobsPlace &place, AppServices &services, const QList<qint64> &runIds = {})
{
    QElapsedTimer clock;
    StallProbe probe(&place);
    bool loaded = false;
    const auto conn = QObject::connect(place.model(), &JobsModel::loaded, [&] { loaded = true; });
    clock.start();
    const double cpu0 = threadCpuMs();
    probe.start();
    if (runIds.isEmpty())
        place.reload();
    else
        Q_EMIT services.runsChanged(runIds);
    while (!loaded || place.isLoading())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    place.view()->viewport()->repaint();   // the rows on screen
    const qint64 end = clock.nsecsElapsed();
    const double guiCpu = threadCpuMs() - cpu0;
    const double stall = probe.stop();
    QObject::disconnect(conn);
    return {end / 1e9, stall, guiCpu};
}

}   // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int largest = argc > 1 ? QByteArray(argv[1]).toInt() : 100000;
    double ratio = -1, worstRatio = 0, longestWait = 0;
    for (int runs : {1000, 10000, 100000}) {
        if (runs > largest)
            break;
        QTemporaryDir dir;
        qputenv("SCALELAB_DATA_DIR", dir.filePath(QStringLiteral("data")).toUtf8());
        qputenv("SCALELAB_SETTINGS_FILE", dir.filePath(QStringLiteral("settings.ini")).toUtf8());
        AppServices services;
        if (!services.storeError().isEmpty()) {
            std::fprintf(stderr, "bench_jobs: %s\n", qPrintable(services.storeError()));
            return 2;
        }
        // The window opens the store on the pool after its first paint; the
        // bench opens it here, so the file exists before it is filled.
        if (const auto opened = services.store().runs(); !opened.ok()) {
            std::fprintf(stderr, "%s: %s\n", "bench_jobs", qPrintable(opened.errorText()));
            return 2;
        }
        const QString dbPath = services.store().databasePath();
        if (const QString e = fill(dbPath, runs); !e.isEmpty()) {
            std::fprintf(stderr, "bench_jobs: filling the store failed: %s\n", qPrintable(e));
            return 2;
        }
        const int visible = runs - runs / 100;   // every hundredth run is hidden
        JobsPlace place(services);
        place.resize(1280, 800);
        StallProbe firstShow(&place);
        firstShow.start();
        place.show();
        while (place.isLoading())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        place.view()->viewport()->repaint();
        const double firstShowStall = firstShow.stop();
        Measured best{1e30, 0, 0};
        double worstStall = 0, worstGuiCpu = 0;
        for (int i = 0; i < 3; ++i) {
            const Measured m = readOnce(place, services);
            // The tree read holds every run; the view is given its first rows (fetchMore for the rest).
            if (const int shown = place.model()->runCount(); shown != visible) {
                std::fprintf(stderr, "bench_jobs: the tree holds %d runs, expected %d\n", shown, visible);
                return 1;
            }
            best.seconds = std::min(best.seconds, m.seconds);
            worstStall = std::max(worstStall, m.stallMs);
            worstGuiCpu = std::max(worstGuiCpu, m.guiCpuMs);
        }
        // One run changes (a poll saw it finish): only its row is read again.
        Measured patch{1e30, 0, 0};
        for (int i = 0; i < 3; ++i) {
            const Measured m = readOnce(place, services, {qint64(runs / 2 + 1)});
            patch.seconds = std::min(patch.seconds, m.seconds);
            patch.stallMs = std::max(patch.stallMs, m.stallMs);
        }
        const double sqlite = sqliteSeconds(dbPath);
        if (sqlite <= 0) {
            std::fprintf(stderr, "bench_jobs: sqlite3 failed (is the sqlite3 package installed?)\n");
            return 2;
        }
        ratio = best.seconds / sqlite;
        worstRatio = std::max(worstRatio, ratio);
        longestWait = std::max({longestWait, firstShowStall, worstStall, patch.stallMs});
        // The first showing on its own line: the view given its first rows.
        std::printf("runs=%d first_show_stall_ms=%.1f\n", runs, firstShowStall);
        std::printf("runs=%d tree_shown_s=%.3f sqlite3_s=%.3f ratio=%.2f longest_gui_stall_ms=%.1f "
                    "gui_thread_cpu_ms=%.1f first_show_stall_ms=%.1f patch_one_run_s=%.4f patch_stall_ms=%.1f\n",
                    runs, best.seconds, sqlite, ratio, worstStall, worstGuiCpu, firstShowStall, patch.seconds,
                    patch.stallMs);
        std::fflush(stdout);
    }
    std::printf("longest_gui_wait_ms=%.1f (first showing included; goal <= 16) worst_ratio=%.2f (goal <= 2)\n",
                longestWait, worstRatio);
    std::printf("ratio=%.2f\n", ratio);
    return 0;
}
