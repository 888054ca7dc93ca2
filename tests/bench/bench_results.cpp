// SPDX-License-Identifier: GPL-3.0-or-later
// Results benchmark (prints ratios; not a pass/fail test).
// A run store with 1,000, 10,000 and 100,000 finished runs (8 metrics and an
// accounting record each). For each size:
//  - ours: the Results place reloads; the time until the runs table holds
//    every row and has painted them, and the longest GUI-thread stall
//    meanwhile: another thread posts a stamped call to the GUI thread every
//    millisecond and each call measures how long it waited (StallProbe);
//    the place's first showing (first layout and paint of every widget) is
//    reported apart, as first_show_stall_ms;
//  - baseline: the `sqlite3` command-line tool running the same four
//    queries (studies, runs, metrics, accounting) on the same file.
// The last line is `ratio=<ours / sqlite3>` for 100,000 runs (goal <= 2,
// stall <= 16 ms).
// Usage: bench_results [largest run count]
#include "core/store/RunStore.h"
#include "tests/bench/GuiStallProbe.h"
#include "ui/common/AppServices.h"
#include "ui/results/ResultsPlace.h"
#include "ui/results/RunsTableModel.h"

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
#include <thread>
#include <cstdio>

using namespace scalelab;
using benchsupport::StallProbe;
using benchsupport::threadCpuMs;

namespace {

// Fills the store in-process with one INSERT ... SELECT per table (a
// recursive CTE counts the runs), so setting up 100,000 runs takes seconds.
QString fill(const QString &dbPath, int runs)
{
    const QString name = QStringLiteral("bench-fill-%1").arg(runs);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath);
        if (!db.open())
            return db.lastError().text();
        QSqlQuery q(db);
        const QString count =
            QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %1)").arg(runs);
        const QStringList sql = {
            QStringLiteral("BEGIN"),
            QStringLiteral("INSERT INTO studies (id, name, created) VALUES (1, 'scaling', '2026-01-01T00:00:00.000Z')"),
            count
                + QStringLiteral(
                    " INSERT INTO runs (id, study_id, token, profile, cluster_alias, partition, gpus, nodes,"
                    " framework, spec_json, script, job_id, state, submit_state, created, updated)"
                    " SELECT x, CASE WHEN x <= 8 THEN 1 ELSE NULL END, 'sl-' || printf('%016x', x), 'puhti',"
                    " 'puhti', 'gpu', 1 << (x % 4), 1 + (x % 4) / 3, 'pytorch-ddp',"
                    " '{\"profile\":\"puhti\",\"gpus\":4,\"jobName\":\"resnet\"}',"
                    " printf('%.*c', 1500, '#'), CAST(1000000 + x AS TEXT), 'COMPLETED', 'submitted',"
                    " '2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z' FROM c"),
            count
                + QStringLiteral(" INSERT INTO metrics (run_id, name, value, unit, source)"
                                 " SELECT x, m.name, (x % 97) * m.scale, m.unit, m.source FROM c,"
                                 " (SELECT 'train_time_s' AS name, 3.5 AS scale, 's' AS unit, 'log' AS source"
                                 "  UNION ALL SELECT 'elapsed_s', 4.0, 's', 'sacct'"
                                 "  UNION ALL SELECT 'samples_per_s', 10.0, 'samples/s', 'log'"
                                 "  UNION ALL SELECT 'test_accuracy', 0.01, '', 'log'"
                                 "  UNION ALL SELECT 'gpu_util_mean_pct', 1.0, '%', 'gpu'"
                                 "  UNION ALL SELECT 'gpu_hours', 0.02, 'GPU h', 'sacct'"
                                 "  UNION ALL SELECT 'cpu_efficiency', 0.01, '', 'sacct'"
                                 "  UNION ALL SELECT 'queue_wait_s', 2.0, 's', 'sacct') AS m"),
            count
                + QStringLiteral(
                    " INSERT INTO accounting (run_id, job_id, state, exit_code, submit_time, start_time,"
                    " end_time, elapsed, alloc_tres, max_rss, node_list, partition, account, raw, lines_json,"
                    " recorded)"
                    " SELECT x, CAST(1000000 + x AS TEXT), 'COMPLETED', '0:0', '2026-01-01T00:00:00',"
                    " '2026-01-01T00:01:00', '2026-01-01T00:31:00', '00:30:00',"
                    " 'billing=40,cpu=40,gres/gpu=4,mem=64G,node=1', '12G', 'r01g01', 'gpu',"
                    " 'project_2001234', '', '[]', '2026-01-01T01:00:00.000Z' FROM c"),
            QStringLiteral("COMMIT"),
        };
        for (const QString &s : sql)
            if (!q.exec(s)) {
                error = q.lastError().text();
                break;
            }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

// The queries RunStore::tableRecords runs, through the sqlite3 CLI.
double sqliteSeconds(const QString &dbPath)
{
    const QString sql = QStringLiteral(
        "SELECT id, name, created, spec_template, notes FROM studies;"
        "SELECT id, study_id, token, profile, cluster_alias, partition, gpus, nodes, framework, spec_json, '',"
        " remote_dir, job_id, state, reason, submit_state, rejection, created, updated FROM runs ORDER BY id;"
        "SELECT run_id, name, value, unit, source FROM metrics ORDER BY run_id, name, source;"
        "SELECT * FROM accounting;");
    return benchsupport::sqliteCliSeconds(dbPath, sql);
}

struct Measured {
    double seconds = 0;
    double stallMs = 0;
    int rows = 0;
    double guiCpuMs = 0;   // the GUI thread's CPU time over the reload
};

// One reload of the place, timed to its painted table.
Measured reloadOnce(ResultsPlace &place)
{
    QElapsedTimer clock;
    StallProbe probe(&place);
    bool loaded = false;
    const auto conn = QObject::connect(&place, &ResultsPlace::tableLoaded, [&] { loaded = true; });
    clock.start();
    const double cpu0 = threadCpuMs();
    probe.start();
    place.reload();
    while (!loaded)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    place.view()->viewport()->repaint();   // the rows on screen
    const qint64 end = clock.nsecsElapsed();
    const double guiCpu = threadCpuMs() - cpu0;
    const double stall = probe.stop();
    QObject::disconnect(conn);
    return {end / 1e9, stall, place.model()->rowCount(), guiCpu};
}

}   // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int largest = argc > 1 ? QByteArray(argv[1]).toInt() : 100000;
    double ratio = -1;
    for (int runs : {1000, 10000, 100000}) {
        if (runs > largest)
            break;
        QTemporaryDir dir;
        qputenv("SCALELAB_DATA_DIR", dir.filePath(QStringLiteral("data")).toUtf8());
        AppServices services;
        if (!services.storeError().isEmpty()) {
            std::fprintf(stderr, "bench_results: %s\n", qPrintable(services.storeError()));
            return 2;
        }
        // The window opens the store on the pool after its first paint; the
        // bench opens it here, so the file exists before it is filled.
        if (const auto opened = services.store().runs(); !opened.ok()) {
            std::fprintf(stderr, "%s: %s\n", "bench_results", qPrintable(opened.errorText()));
            return 2;
        }
        const QString dbPath = services.store().databasePath();
        if (const QString e = fill(dbPath, runs); !e.isEmpty()) {
            std::fprintf(stderr, "bench_results: filling the store failed: %s\n", qPrintable(e));
            return 2;
        }
        ResultsPlace place(services);
        place.resize(1280, 800);
        // The first showing (every widget's first layout and paint, the
        // tree's first layout of every row) is measured on its own: the
        // reloads below are what a researcher waits for again and again.
        StallProbe firstShow(&place);
        firstShow.start();
        place.show();
        while (place.isLoading())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        place.view()->viewport()->repaint();
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 100)   // delayed layouts and the charts' replots
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const double firstShowStall = firstShow.stop();
        Measured best{1e30, 0, 0};
        double worstStall = 0, worstGuiCpu = 0;
        for (int i = 0; i < 3; ++i) {
            const Measured m = reloadOnce(place);
            if (m.rows != runs) {
                std::fprintf(stderr, "bench_results: the table shows %d rows, expected %d\n", m.rows, runs);
                return 1;
            }
            best.seconds = std::min(best.seconds, m.seconds);
            worstStall = std::max(worstStall, m.stallMs);
            worstGuiCpu = std::max(worstGuiCpu, m.guiCpuMs);
        }
        const double sqlite = sqliteSeconds(dbPath);
        if (sqlite <= 0) {
            std::fprintf(stderr, "bench_results: sqlite3 failed (is the sqlite3 package installed?)\n");
            return 2;
        }
        ratio = best.seconds / sqlite;
        std::printf("runs=%d table_shown_s=%.3f sqlite3_s=%.3f ratio=%.2f longest_gui_stall_ms=%.1f "
                    "gui_thread_cpu_ms=%.1f first_show_stall_ms=%.1f\n",
                    runs, best.seconds, sqlite, ratio, worstStall, worstGuiCpu, firstShowStall);
        std::fflush(stdout);
    }
    std::printf("ratio=%.2f\n", ratio);
    return 0;
}
