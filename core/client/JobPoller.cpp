// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/JobPoller.h"

#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"
#include "core/client/SlurmClient.h"
#include "core/compose/SegmentScript.h"
#include "core/model/JobSpecJson.h"
#include "core/slurm/SacctParser.h"
#include "core/slurm/SegmentAccounting.h"
#include "core/slurm/SlurmTime.h"
#include "core/slurm/SqueueParser.h"

#include <QRegularExpression>

#include <algorithm>

namespace scalelab {

namespace {
QString cleanReason(const QString &reason)
{
    return reason == QLatin1String("None") || reason == QLatin1String("(null)") ? QString() : reason;
}

// queuedSegmentsShellBody's lines: segment number -> job id.
QHash<int, QString> queuedSegments(const QByteArray &out)
{
    static const QRegularExpression line(QStringLiteral("^scalelab-segment-(\\d+)\\.jobid (\\d+)(;\\S*)?$"));
    QHash<int, QString> ids;
    for (const QString &text : QString::fromUtf8(out).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = line.match(text.trimmed());
        if (m.hasMatch() && RemoteValidation::isJobId(m.captured(2)))
            ids.insert(m.captured(1).toInt(), m.captured(2));
    }
    return ids;
}
}   // namespace

QString JobPoller::queuedSegmentsShellBody(const QString &remoteDir)
{
    return QStringLiteral("cd %1 || exit 97; for f in %2; do [ -s \"$f\" ] && echo \"$f $(head -n 1 \"$f\")\"; "
                          "done; exit 0")
        .arg(ShellQuote::quote(remoteDir), SegmentScript::nextJobFileName(QStringLiteral("*")));
}

JobPoller::JobPoller(RemoteExecutor &executor, RunStore &store, const QString &clusterAlias)
    : m_exec(executor)
    , m_store(store)
    , m_alias(clusterAlias)
{}

PollResult JobPoller::pollOnce()
{
    PollResult result;
    const auto active = m_store.activeRuns(m_alias);
    if (!active.ok()) {
        result.message = active.error().message;
        return result;
    }
    QHash<QString, RunRecord> byJob;
    for (const RunRecord &run : *active)
        if (RemoteValidation::isJobId(run.jobId))
            byJob.insert(run.jobId, run);
    result.activeRuns = int(byJob.size());
    if (byJob.isEmpty())
        return result;
    QSet<QString> inQueue;
    if (!pollQueue(byJob, inQueue, result))
        return result;
    QStringList gone;
    for (auto it = byJob.constBegin(); it != byJob.constEnd(); ++it)
        if (!inQueue.contains(it.key()))
            gone << it.key();
    if (gone.isEmpty())
        return result;
    std::sort(gone.begin(), gone.end(),
              [](const QString &a, const QString &b) { return a.toLongLong() < b.toLongLong(); });
    pollAccounting(byJob, gone, result);
    return result;
}

// squeue's %S of a pending job (what `squeue --start` shows): when the
// scheduler expects it to start; cleared once it left pending. True when the
// run changed in any way.
Result<bool> JobPoller::storeExpectedStart(qint64 runId, const SqueueRow &row, bool stateChanged)
{
    const QString start = row.state == JobState::Pending && SlurmTime::parseTimestamp(row.startTime)
                              ? row.startTime.trimmed()
                              : QString();
    auto changed = m_store.setExpectedStart(runId, start);
    if (!changed.ok())
        return changed;
    return stateChanged || *changed;
}

// The jobs still in the queue, their states stored; false when squeue could not be read.
bool JobPoller::pollQueue(const QHash<QString, RunRecord> &byJob, QSet<QString> &inQueue, PollResult &result)
{
    // One squeue for the user: filtered by slurmctld, unlike a -j list.
    const RemoteResult sq =
        m_exec.run(SlurmClient::queryArgv({QStringLiteral("squeue"), QStringLiteral("--me"),
                                           QStringLiteral("--noheader"), SqueueParser::formatArgument()}),
                   kQueryTimeoutMs);
    ++result.squeueCalls;
    if (!sq.transportOk()) {
        result.transportError = sq.transportError;
        result.message = QStringLiteral("squeue: %1").arg(sq.transportError);
        return false;
    }
    const auto parsed = SqueueParser().parse(sq.out, sq.err);
    if (parsed.controllerDown) {
        result.controllerDown = true;
        result.message = parsed.controllerMessage;
        return false;
    }
    if (sq.exitCode != 0) {
        result.message =
            QStringLiteral("squeue failed (exit %1): %2").arg(sq.exitCode).arg(RemoteValidation::sanitize(sq.err, 400));
        return false;
    }
    result.diagnostics << parsed.diagnostics;

    for (const SqueueRow &row : parsed.rows) {
        const auto it = byJob.constFind(row.jobId);
        if (it == byJob.constEnd())
            continue;   // not a ScaleLab job of this store
        if (SlurmJobState::isTerminal(row.state))
            continue;   // finished: sacct has the final word and the accounting
        inQueue.insert(row.jobId);
        const QString reason = cleanReason(row.reason);
        auto changed = m_store.updateState(it->id, row.state, reason);
        if (changed.ok())
            changed = storeExpectedStart(it->id, row, *changed);
        if (!changed.ok())
            result.diagnostics << Diagnostic{
                Severity::Warning, QStringLiteral("store-error"), {}, 0, 0, changed.error().message, {}};
        else if (*changed)
            result.updates << RunStateUpdate{it->id, row.jobId, it->state, row.state, reason, false};
    }
    return true;
}

// The final states of the jobs that left the queue; the ones sacct does not know yet are missing.
void JobPoller::pollAccounting(const QHash<QString, RunRecord> &byJob, const QStringList &gone, PollResult &result)
{
    // One sacct for every job that left the queue (with steps: MaxRSS lives there).
    QStringList args{QStringLiteral("sacct"), QStringLiteral("--jobs=") + gone.join(QLatin1Char(','))};
    args << SacctParser::formatArguments();
    const RemoteResult sa = m_exec.run(SlurmClient::queryArgv(args), kQueryTimeoutMs);
    ++result.sacctCalls;
    if (!sa.ok()) {
        result.transportError = sa.transportError;
        result.message = sa.transportOk() ? QStringLiteral("sacct failed (exit %1): %2")
                                                .arg(sa.exitCode)
                                                .arg(RemoteValidation::sanitize(sa.err, 400))
                                          : QStringLiteral("sacct: %1").arg(sa.transportError);
        return;
    }
    const auto acct = SacctParser().parse(sa.out);
    result.diagnostics << acct.diagnostics;
    QSet<QString> seen;
    for (const SacctRecord &rec : acct.records) {
        const auto it = byJob.constFind(rec.jobId);
        if (it == byJob.constEnd())
            continue;
        seen.insert(rec.jobId);
        // sacct trails squeue by seconds: a job just gone from squeue may
        // still read RUNNING here. Only a final state is taken.
        if (!SlurmJobState::isTerminal(rec.state))
            continue;
        // Seen on 22.05: right after the end, slurmdbd may hold a half-written
        // job line (JobName "allocation", no Partition/WorkDir). Wait for the
        // full record, but not forever.
        if (rec.partition.isEmpty() && m_incompleteCycles.value(rec.jobId) < 3) {
            m_incompleteCycles[rec.jobId] += 1;
            result.missingJobs << rec.jobId;
            seen.insert(rec.jobId);
            continue;
        }
        m_incompleteCycles.remove(rec.jobId);
        const Result<bool> ended = recordEnd(*it, rec);
        if (!ended) {
            result.diagnostics << Diagnostic{
                Severity::Warning, QStringLiteral("store-error"), {}, 0, 0, ended.error().message, {}};
            continue;
        }
        // A segment followed by another: the run goes on (PENDING), nothing to fetch yet.
        result.updates << RunStateUpdate{
            it->id, rec.jobId, it->state, *ended ? rec.state : JobState::Pending, cleanReason(rec.reason), *ended};
    }
    for (const QString &id : gone)
        if (!seen.contains(id))
            result.missingJobs << id;
}

// The end of a job: the run's end, or for a run of segments the end of one
// segment, after which the poll follows the next. The last segment (or one
// cancelled: cancel ends the chain) ends the run, with the accounting of all
// its segments (SegmentAccounting). True = the run ended.
Result<bool> JobPoller::recordEnd(const RunRecord &run, const SacctRecord &rec)
{
    const auto segments = m_store.segments(run.id);
    if (!segments)
        return fail(segments.error());
    if (segments->isEmpty()) {
        if (auto e = m_store.recordFinal(run.id, rec); !e)
            return fail(e.error());
        return true;
    }
    if (rec.state != JobState::Cancelled) {
        if (auto e = storeQueuedSegments(run, *segments, rec.jobId); !e)
            return fail(e.error());
        const auto next = m_store.recordSegmentEnd(run.id, rec);
        if (!next)
            return fail(next.error());
        if (*next)
            return false;
    }
    QList<SacctRecord> all;
    for (const SegmentRecord &s : *segments) {
        if (!s.ended() || s.jobId == rec.jobId)
            continue;
        SacctRecord earlier;
        earlier.jobId = s.jobId;
        earlier.submit = s.submit;
        earlier.start = s.start;
        earlier.end = s.end;
        earlier.elapsed = s.elapsed;
        all << earlier;
    }
    all << rec;
    if (auto e = m_store.recordFinal(run.id, SegmentAccounting::combine(all)); !e)
        return fail(e.error());
    return true;
}

// "until-done": the last stored segment ended; the one it queued (if the work
// was not done and sbatch took it) is read from the run folder and stored, so
// the poll follows it. A failed read keeps the segment's end for the next poll.
Result<void> JobPoller::storeQueuedSegments(const RunRecord &run, const QList<SegmentRecord> &segments,
                                            const QString &endedJob)
{
    if (segments.isEmpty() || segments.last().jobId != endedJob || run.remoteDir.isEmpty())
        return success();
    const JobSpecParseResult spec = parseJobSpec(run.specJson);
    if (!spec.spec || !spec.spec->segments.untilDone)
        return success();
    const RemoteResult r = m_exec.run(
        {QStringLiteral("sh"), QStringLiteral("-c"), queuedSegmentsShellBody(run.remoteDir)}, kQueryTimeoutMs);
    if (!r.transportOk())
        return fail(ErrorCode::Transport, r.transportError);
    if (r.exitCode != 0)
        return fail(ErrorCode::RemoteFailed, QStringLiteral("reading the queued segments in %1 failed: %2")
                                                 .arg(run.remoteDir, RemoteValidation::sanitize(r.err, 300)));
    const QHash<int, QString> queued = queuedSegments(r.out);
    for (int k = segments.last().segment + 1; queued.contains(k); ++k)
        if (auto e = m_store.addSegment(run.id, k, queued.value(k)); !e)
            return e;
    return success();
}

}   // namespace scalelab
