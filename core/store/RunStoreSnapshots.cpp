// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreSnapshots: the project folder each run was sent with (run_snapshots), in a
// table of its own so the runs table stays as it is.
#include "core/store/RunStoreSnapshots.h"

#include "core/store/RunStoreSql.h"

namespace scalelab {

Result<void> RunStoreSnapshots::insertSnapshotIn(QSqlDatabase &db, qint64 runId, const ProjectSnapshot &s)
{
    QSqlQuery q(db);
    return RunStoreSql::exec(
        q,
        QStringLiteral("INSERT INTO run_snapshots (run_id, snapshot_id, local_folder, remote_folder,"
                       " git_commit, git_dirty, manifest) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        {runId, QString::fromLatin1(s.id), s.folder, s.remoteFolder, s.gitCommit,
         s.gitDirty ? (*s.gitDirty ? 1 : 0) : -1, s.manifest.text()});
}

Result<std::optional<ProjectSnapshot>> RunStoreSnapshots::runSnapshot(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q,
                              QStringLiteral("SELECT snapshot_id, local_folder, remote_folder, git_commit, git_dirty,"
                                             " manifest FROM run_snapshots WHERE run_id = ?"),
                              {runId});
        !e)
        return fail(e.error());
    if (!q.next())
        return std::optional<ProjectSnapshot>{};
    ProjectSnapshot s;
    s.id = q.value(0).toString().toLatin1();
    s.folder = q.value(1).toString();
    s.remoteFolder = q.value(2).toString();
    s.gitCommit = q.value(3).toString();
    if (const int dirty = q.value(4).toInt(); dirty >= 0)
        s.gitDirty = dirty == 1;
    auto manifest = ProjectManifest::fromText(q.value(5).toByteArray());
    if (!manifest)
        return fail(ErrorCode::StoreFailed, QStringLiteral("run store: the project manifest of run %1 is damaged: %2")
                                                .arg(runId)
                                                .arg(manifest.error().message));
    s.manifest = *manifest;
    return std::optional<ProjectSnapshot>(s);
}

}   // namespace scalelab
