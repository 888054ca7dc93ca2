// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreFlags: per-run flags the researcher sets (hidden) and the failure line
// found in a run's output, in their own table so the runs table stays as is.
#include "core/store/RunStoreFlags.h"

#include "core/store/RunStoreRuns.h"
#include "core/store/RunStoreSql.h"

namespace scalelab {

QString RunStoreFlags::withdrawnText()
{
    return QStringLiteral("withdrawn by the researcher before it reached Slurm");
}

Result<void> RunStoreFlags::setHidden(qint64 runId, bool hidden)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT 1 FROM runs WHERE id = ?"), {runId}); !e)
        return e;
    if (!q.next())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(runId));
    q.finish();
    QSqlQuery u(db);
    return RunStoreSql::exec(u,
                             QStringLiteral("INSERT INTO run_flags (run_id, hidden) VALUES (?, ?)"
                                            " ON CONFLICT(run_id) DO UPDATE SET hidden = excluded.hidden"),
                             {runId, hidden ? 1 : 0});
}

Result<QSet<qint64>> RunStoreFlags::hiddenRuns()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT run_id FROM run_flags WHERE hidden <> 0")); !e)
        return fail(e.error());
    QSet<qint64> out;
    while (q.next())
        out.insert(q.value(0).toLongLong());
    return out;
}

Result<void> RunStoreFlags::setFailureLine(qint64 runId, const QString &line)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    return RunStoreSql::exec(q,
                             QStringLiteral("INSERT INTO run_flags (run_id, failure_line) VALUES (?, ?)"
                                            " ON CONFLICT(run_id) DO UPDATE SET failure_line = excluded.failure_line"),
                             {runId, line});
}

Result<QHash<qint64, QString>> RunStoreFlags::failureLines()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q, QStringLiteral("SELECT run_id, failure_line FROM run_flags WHERE failure_line <> ''"));
        !e)
        return fail(e.error());
    QHash<qint64, QString> out;
    while (q.next())
        out.insert(q.value(0).toLongLong(), q.value(1).toString());
    return out;
}

Result<void> RunStoreFlags::withdrawRun(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    // One conditional statement: a run a worker has already moved on
    // (unknown, submitted) is not touched.
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q,
                              QStringLiteral("UPDATE runs SET submit_state = 'rejected', rejection = ?, updated = ?"
                                             " WHERE id = ? AND job_id = '' AND submit_state IN ('intent','uploaded')"),
                              {withdrawnText(), RunStoreSql::toText({}), runId});
        !e)
        return e;
    if (q.numRowsAffected() == 1)
        return success();
    const auto r = RunStoreRuns(connections()).run(runId);
    if (!r)
        return fail(r.error());
    return fail(
        ErrorCode::WrongState,
        QStringLiteral("run %1 cannot be withdrawn: it %2")
            .arg(runId)
            .arg(r->hasJob()
                     ? QStringLiteral("is Slurm job %1; cancel it instead").arg(r->jobId)
                     : QStringLiteral("may already have reached Slurm (%1)").arg(submitStateId(r->submitState))));
}

Result<void> RunStoreFlags::setRunStudy(qint64 runId, qint64 studyId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET study_id = ?, updated = ? WHERE id = ?"),
                                   {studyId > 0 ? QVariant(studyId) : QVariant(), RunStoreSql::toText({}), runId});
        !e)
        return e;
    if (q.numRowsAffected() != 1)
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(runId));
    return success();
}

}   // namespace scalelab
