// SPDX-License-Identifier: GPL-3.0-or-later
// RunStore: the schema, as the list of migrations that build it.
#include "core/store/RunStoreSql.h"

#include <QStringList>

namespace scalelab {

namespace {

// The first schema: studies, runs, their states, files and metrics.
QStringList firstSchema()
{
    return {
        QStringLiteral("CREATE TABLE studies (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                       " created TEXT NOT NULL, spec_template TEXT NOT NULL DEFAULT '',"
                       " notes TEXT NOT NULL DEFAULT '')"),
        QStringLiteral("CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                       " study_id INTEGER REFERENCES studies(id) ON DELETE SET NULL,"
                       " token TEXT NOT NULL UNIQUE, profile TEXT NOT NULL DEFAULT '',"
                       " cluster_alias TEXT NOT NULL DEFAULT '', partition TEXT NOT NULL DEFAULT '',"
                       " gpus INTEGER NOT NULL DEFAULT 0, nodes INTEGER NOT NULL DEFAULT 0,"
                       " framework TEXT NOT NULL DEFAULT '', spec_json TEXT NOT NULL DEFAULT '',"
                       " script TEXT NOT NULL DEFAULT '', remote_dir TEXT NOT NULL DEFAULT '',"
                       " job_id TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT 'UNKNOWN',"
                       " reason TEXT NOT NULL DEFAULT '',"
                       " submit_state TEXT NOT NULL DEFAULT 'intent' CHECK (submit_state IN"
                       " ('intent','uploaded','submitted','rejected','unknown','reconciled')),"
                       " rejection TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, updated TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX runs_study ON runs(study_id)"),
        QStringLiteral("CREATE INDEX runs_cluster ON runs(cluster_alias, submit_state)"),
        QStringLiteral("CREATE TABLE state_history (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                       " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " state TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', at TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX state_history_run ON state_history(run_id)"),
        QStringLiteral("CREATE TABLE accounting (run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
                       " job_id TEXT, state TEXT, exit_code TEXT, submit_time TEXT, start_time TEXT,"
                       " end_time TEXT, elapsed TEXT, alloc_tres TEXT, max_rss TEXT, node_list TEXT,"
                       " reason TEXT, total_cpu TEXT, alloc_cpus INTEGER, partition TEXT, account TEXT,"
                       " tres_usage_in_ave TEXT, tres_usage_in_max TEXT, timelimit TEXT, job_name TEXT,"
                       " work_dir TEXT, comment TEXT, raw TEXT, lines_json TEXT, recorded TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE files (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " remote_path TEXT NOT NULL, local_path TEXT NOT NULL DEFAULT '',"
                       " size INTEGER NOT NULL DEFAULT -1, fetched_offset INTEGER NOT NULL DEFAULT 0,"
                       " fetched_at TEXT, PRIMARY KEY (run_id, remote_path))"),
        QStringLiteral("CREATE TABLE metrics (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " name TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL DEFAULT '',"
                       " source TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, name, source))"),
    };
}

}   // namespace

// Each entry is one migration, applied in its own transaction; the database's
// PRAGMA user_version is the number of entries applied. Never edit an entry
// once released: append a new one.
// table: the migrations, in order
const QList<QStringList> &runStoreMigrations()
{
    static const QList<QStringList> m = {
        firstSchema(),
        {
            // The Slurm version that ran the job (`sbatch --version` of the cluster), "" if not known.
            QStringLiteral("ALTER TABLE runs ADD COLUMN slurm_version TEXT NOT NULL DEFAULT ''"),
        },
        {
            // Where each value came from, and the series behind it (per-epoch curves).
            QStringLiteral("ALTER TABLE metrics ADD COLUMN file TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE metrics ADD COLUMN line INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE metrics ADD COLUMN rule TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE metrics ADD COLUMN formula TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("CREATE TABLE metric_series (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                           " name TEXT NOT NULL, unit TEXT NOT NULL DEFAULT '', steps BLOB NOT NULL,"
                           " vals BLOB NOT NULL, PRIMARY KEY (run_id, name))"),
        },
        {
            // What the researcher set on a run (hidden from the views; the store keeps the run) and
            // the line of its output that says why it failed (RunStoreFlags.cpp).
            QStringLiteral("CREATE TABLE run_flags (run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
                           " hidden INTEGER NOT NULL DEFAULT 0, failure_line TEXT NOT NULL DEFAULT '')"),
        },
        {
            // The spec file a run was made from (absolute path), "" when it came from stdin or the window's form.
            QStringLiteral("ALTER TABLE runs ADD COLUMN spec_file TEXT NOT NULL DEFAULT ''"),
        },
        {
            // A pending job's expected start as squeue's %S prints it (cluster local time), "" when Slurm
            // has none; written by the poll (JobPoller), cleared once the job starts.
            QStringLiteral("ALTER TABLE runs ADD COLUMN expected_start TEXT NOT NULL DEFAULT ''"),
        },
        {
            // The project folder a run was sent with (RunStoreSnapshots.cpp): the snapshot id, the
            // manifest ("<sha256> <size> <mode> <path>" lines: the file list with hashes), the git
            // commit and dirty state (-1: not a git work tree).
            QStringLiteral(
                "CREATE TABLE run_snapshots (run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
                " snapshot_id TEXT NOT NULL, local_folder TEXT NOT NULL DEFAULT '',"
                " remote_folder TEXT NOT NULL DEFAULT '', git_commit TEXT NOT NULL DEFAULT '',"
                " git_dirty INTEGER NOT NULL DEFAULT -1, manifest BLOB NOT NULL)"),
        },
        {
            // Live alerts of running runs (RunStoreAlerts.cpp): one per run and rule; `notified` once the
            // window has shown it, so what was raised while it was closed is summarised at its next start.
            QStringLiteral("CREATE TABLE run_alerts (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES"
                           " runs(id) ON DELETE CASCADE, rule TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',"
                           " evidence TEXT NOT NULL DEFAULT '', action TEXT NOT NULL DEFAULT '',"
                           " raised_at TEXT NOT NULL, notified INTEGER NOT NULL DEFAULT 0, UNIQUE (run_id, rule))"),
        },
        {
            // The jobs of a run longer than the time limit (RunStoreSegments.cpp): one row per segment
            // in chain order, its job id and, once it ended, sacct's state, exit code and times.
            QStringLiteral("CREATE TABLE run_segments (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                           " segment INTEGER NOT NULL, job_id TEXT NOT NULL, state TEXT NOT NULL DEFAULT '',"
                           " exit_code TEXT NOT NULL DEFAULT '', submit_time TEXT NOT NULL DEFAULT '',"
                           " start_time TEXT NOT NULL DEFAULT '', end_time TEXT NOT NULL DEFAULT '',"
                           " elapsed TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, segment))"),
            QStringLiteral("CREATE INDEX run_segments_job ON run_segments(job_id)"),
        },
    };
    return m;
}

}   // namespace scalelab
