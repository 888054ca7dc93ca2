// SPDX-License-Identifier: GPL-3.0-or-later
// RunStore: per-run flags the researcher sets (hidden) and the failure line
// found in a run's output, in their own table so the runs table stays as is.
#include "core/store/RunStore.h"

#include "core/store/RunStoreSql.h"

namespace scalelab {

QString RunStore::withdrawnText()
{
    return QStringLiteral("withdrawn by the researcher before it reached Slurm");
}

QString RunStore::setHidden(qint64 runId, bool hidden)
{
    QSqlDatabase db;
    if (QString e = connection(db); !e.isEmpty())
        return e;
    QSqlQuery q(db);
    if (QString e = RunStoreSql::exec(q, QStringLiteral("SELECT 1 FROM runs WHERE id = ?"), {runId}); !e.isEmpty())
        return e;
    if (!q.next())
        return QStringLiteral("run store: no run with id %1").arg(runId);
    q.finish();
    QSqlQuery u(db);
    return RunStoreSql::exec(u,
                             QStringLiteral("INSERT INTO run_flags (run_id, hidden) VALUES (?, ?)"
                                            " ON CONFLICT(run_id) DO UPDATE SET hidden = excluded.hidden"),
                             {runId, hidden ? 1 : 0});
}

StoreResult<QSet<qint64>> RunStore::hiddenRuns()
{
    QSqlDatabase db;
    if (QString e = connection(db); !e.isEmpty())
        return StoreResult<QSet<qint64>>::failure(e);
    QSqlQuery q(db);
    if (QString e = RunStoreSql::exec(q, QStringLiteral("SELECT run_id FROM run_flags WHERE hidden <> 0")); !e.isEmpty())
        return StoreResult<QSet<qint64>>::failure(e);
    QSet<qint64> out;
    while (q.next())
        out.insert(q.value(0).toLongLong());
    return {out, {}};
}

QString RunStore::setFailureLine(qint64 runId, const QString &line)
{
    QSqlDatabase db;
    if (QString e = connection(db); !e.isEmpty())
        return e;
    QSqlQuery q(db);
    return RunStoreSql::exec(q,
                             QStringLiteral("INSERT INTO run_flags (run_id, failure_line) VALUES (?, ?)"
                                            " ON CONFLICT(run_id) DO UPDATE SET failure_line = excluded.failure_line"),
                             {runId, line});
}

StoreResult<QHash<qint64, QString>> RunStore::failureLines()
{
    QSqlDatabase db;
    if (QString e = connection(db); !e.isEmpty())
        return StoreResult<QHash<qint64, QString>>::failure(e);
    QSqlQuery q(db);
    if (QString e = RunStoreSql::exec(q, QStringLiteral("SELECT run_id, failure_line FROM run_flags WHERE failure_line <> ''"));
        !e.isEmpty())
        return StoreResult<QHash<qint64, QString>>::failure(e);
    QHash<qint64, QString> out;
    while (q.next())
        out.insert(q.value(0).toLongLong(), q.value(1).toString());
    return {out, {}};
}

QString RunStore::withdrawRun(qint64 runId)
{
    QSqlDatabase db;
    if (QString e = connection(db); !e.isEmpty())
        return e;
    // One conditional statement: a run a worker has already moved on
    // (unknown, submitted) is not touched.
    QSqlQuery q(db);
    if (QString e = RunStoreSql::exec(
            q,
            QStringLiteral("UPDATE runs SET submit_state = 'rejected', rejection = ?, updated = ?"
                           " WHERE id = ? AND job_id = '' AND submit_state IN ('intent','uploaded')"),
            {withdrawnText(), RunStoreSql::toText({}), runId});
        !e.isEmpty())
        return e;
    if (q.numRowsAffected() == 1)
        return {};
    const auto r = run(runId);
    if (!r.ok())
        return r.error;
    return QStringLiteral("run %1 cannot be withdrawn: it %2").arg(runId).arg(
        r.value.hasJob() ? QStringLiteral("is Slurm job %1; cancel it instead").arg(r.value.jobId)
                         : QStringLiteral("may already have reached Slurm (%1)").arg(submitStateId(r.value.submitState)));
}

QString RunStore::setRunStudy(qint64 runId, qint64 studyId)
{
    QSqlDatabase db;
    if (QString e = connection(db); !e.isEmpty())
        return e;
    QSqlQuery q(db);
    if (QString e = RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET study_id = ?, updated = ? WHERE id = ?"),
                                      {studyId > 0 ? QVariant(studyId) : QVariant(), RunStoreSql::toText({}), runId});
        !e.isEmpty())
        return e;
    return q.numRowsAffected() == 1 ? QString() : QStringLiteral("run store: no run with id %1").arg(runId);
}

} // namespace scalelab
