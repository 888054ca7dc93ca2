// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreSegments: the jobs of a run longer than the time limit (run_segments), one
// row per segment in chain order. The run's own job_id is the segment the
// poll follows: the first, then each next one as the one before ends.
#include "core/store/RunStoreSegments.h"

#include "core/base/Logging.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreStates.h"
#include "core/store/RunStoreTransaction.h"

namespace scalelab {

Result<void> RunStoreSegments::markSubmittedSegments(qint64 runId, const QStringList &jobIds, SubmitState how)
{
    if (jobIds.isEmpty())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: run %1 has no segment job id").arg(runId));
    return RunStoreStates(connections()).recordSubmission(runId, jobIds, how, true);
}

Result<void> RunStoreSegments::addSegment(qint64 runId, int segment, const QString &jobId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("INSERT OR IGNORE INTO run_segments (run_id, segment, job_id) VALUES (?, ?, ?)"),
            {runId, segment, jobId});
        !e)
        return fail(e.error());
    qCInfo(lcStore).noquote()
        << QStringLiteral("run %1: segment %2 queued as job %3").arg(runId).arg(segment).arg(jobId);
    return success();
}

Result<QList<SegmentRecord>> RunStoreSegments::segments(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q,
                                   QStringLiteral("SELECT segment, job_id, state, exit_code, submit_time, start_time,"
                                                  " end_time, elapsed FROM run_segments WHERE run_id = ? ORDER BY"
                                                  " segment"),
                                   {runId});
        !e)
        return fail(e.error());
    QList<SegmentRecord> out;
    while (q.next()) {
        SegmentRecord s;
        s.runId = runId;
        s.segment = q.value(0).toInt();
        s.jobId = q.value(1).toString();
        s.stateText = q.value(2).toString();
        s.state = s.stateText.isEmpty() ? JobState::Pending : SlurmJobState::parse(s.stateText);
        s.exitCode = q.value(3).toString();
        s.submit = q.value(4).toString();
        s.start = q.value(5).toString();
        s.end = q.value(6).toString();
        s.elapsed = q.value(7).toString();
        out << s;
    }
    return out;
}

Result<std::optional<QString>> RunStoreSegments::recordSegmentEnd(qint64 runId, const SacctRecord &a)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return fail(e.error());
    QSqlQuery q(db);
    const QString stateText = a.stateText.isEmpty() ? SlurmJobState::id(a.state) : a.stateText;
    if (auto e = RunStoreSql::exec(q,
                                   QStringLiteral("UPDATE run_segments SET state = ?, exit_code = ?, submit_time = ?,"
                                                  " start_time = ?, end_time = ?, elapsed = ? WHERE run_id = ? AND"
                                                  " job_id = ?"),
                                   {stateText, a.exitCode, a.submit, a.start, a.end, a.elapsed, runId, a.jobId});
        !e)
        return fail(e.error());
    if (auto e = RunStoreSql::exec(q,
                                   QStringLiteral("SELECT job_id FROM run_segments WHERE run_id = ? AND segment >"
                                                  " (SELECT segment FROM run_segments WHERE run_id = ? AND job_id = ?)"
                                                  " ORDER BY segment LIMIT 1"),
                                   {runId, runId, a.jobId});
        !e)
        return fail(e.error());
    std::optional<QString> next;
    if (q.next())
        next = q.value(0).toString();
    if (next) {
        if (auto e = RunStoreSql::exec(
                q, QStringLiteral("UPDATE runs SET job_id = ?, expected_start = '', updated = ? WHERE id = ?"),
                {*next, RunStoreSql::toText({}), runId});
            !e)
            return fail(e.error());
        if (auto st = RunStoreStates::updateStateIn(db, runId, JobState::Pending, {}, {}); !st)
            return fail(st.error());
    }
    if (auto e = tx.commit(); !e)
        return fail(e.error());
    return next;
}

}   // namespace scalelab
