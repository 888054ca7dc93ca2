// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreStates: the submission of a run's job and its state changes, each
// with a state_history row.
#include "core/store/RunStoreStates.h"

#include "core/base/Logging.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreTransaction.h"

namespace scalelab {

Result<void> RunStoreStates::markSubmitted(qint64 runId, const QString &jobId, SubmitState how)
{
    return recordSubmission(runId, {jobId}, how, false);
}

Result<void> RunStoreStates::recordSubmission(qint64 runId, const QStringList &jobIds, SubmitState how, bool asSegments)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("UPDATE runs SET job_id = ?, submit_state = ?, rejection = '', updated = ? WHERE id = ?"),
            {jobIds.first(), submitStateId(how), RunStoreSql::toText({}), runId});
        !e)
        return fail(e.error());
    if (auto e = RunStoreSql::oneRowChanged(q, QStringLiteral("run"), runId); !e)
        return e;
    for (qsizetype i = 0; asSegments && i < jobIds.size(); ++i) {
        // A segment already known (an earlier reconcile) keeps what it has.
        if (auto e = RunStoreSql::exec(
                q, QStringLiteral("INSERT OR IGNORE INTO run_segments (run_id, segment, job_id) VALUES (?, ?, ?)"),
                {runId, int(i + 1), jobIds.at(i)});
            !e)
            return fail(e.error());
    }
    if (auto st = updateStateIn(db, runId, JobState::Pending, {}, {}); !st)
        return fail(st.error());
    if (auto e = tx.commit(); !e)
        return e;
    qCInfo(lcStore).noquote() << QStringLiteral("run %1: submission %2, job %3")
                                     .arg(runId)
                                     .arg(submitStateId(how), jobIds.join(QStringLiteral(", ")));
    return success();
}

Result<bool> RunStoreStates::updateState(qint64 runId, JobState state, const QString &reason, const QDateTime &at)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return fail(e.error());
    auto r = updateStateIn(db, runId, state, reason, at);
    if (!r.ok())
        return r;
    if (auto e = tx.commit(); !e)
        return fail(e.error());
    return r;
}

Result<bool> RunStoreStates::updateStateIn(QSqlDatabase &db, qint64 runId, JobState state, const QString &reason,
                                           const QDateTime &at)
{
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT state, reason FROM runs WHERE id = ?"), {runId}); !e)
        return fail(e.error());
    if (!q.next())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(runId));
    const QString newState = SlurmJobState::id(state);
    const QString oldState = q.value(0).toString();
    if (oldState == newState && q.value(1).toString() == reason)
        return false;
    q.finish();
    const QString when = RunStoreSql::toText(at);
    QSqlQuery u(db);
    if (auto e = RunStoreSql::exec(u, QStringLiteral("UPDATE runs SET state = ?, reason = ?, updated = ? WHERE id = ?"),
                                   {newState, reason, when, runId});
        !e)
        return fail(e.error());
    QSqlQuery h(db);
    if (auto e = RunStoreSql::exec(
            h, QStringLiteral("INSERT INTO state_history (run_id, state, reason, at) VALUES (?, ?, ?, ?)"),
            {runId, newState, reason, when});
        !e)
        return fail(e.error());
    // Slurm's reason words (Resources, Priority, ...) carry no user values.
    qCInfo(lcStore).noquote() << QStringLiteral("run %1: state %2 -> %3%4")
                                     .arg(runId)
                                     .arg(oldState, newState,
                                          reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
    return true;
}

}   // namespace scalelab
