// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient: polling, cancel and fetching output files.
#include "core/client/SlurmClient.h"

#include "core/base/AtomicFile.h"
#include "core/base/PrivateFiles.h"
#include "core/base/RemoteValidation.h"
#include "core/slurm/SacctParser.h"
#include "core/slurm/SqueueParser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

namespace scalelab {

namespace {

QString cleanReason(const QString &reason)
{
    return reason == QLatin1String("None") || reason == QLatin1String("(null)") ? QString() : reason;
}
}   // namespace

PollResult SlurmClient::pollOnce()
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

// The jobs still in the queue, their states stored; false when squeue could not be read.
bool SlurmClient::pollQueue(const QHash<QString, RunRecord> &byJob, QSet<QString> &inQueue, PollResult &result)
{
    // One squeue for the user: filtered by slurmctld, unlike a -j list.
    const RemoteResult sq = m_exec.run(queryArgv({QStringLiteral("squeue"), QStringLiteral("--me"),
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
        if (!changed.ok())
            result.diagnostics << Diagnostic{
                Severity::Warning, QStringLiteral("store-error"), {}, 0, 0, changed.error().message, {}};
        else if (*changed)
            result.updates << RunStateUpdate{it->id, row.jobId, it->state, row.state, reason, false};
    }
    return true;
}

// The final states of the jobs that left the queue; the ones sacct does not know yet are missing.
void SlurmClient::pollAccounting(const QHash<QString, RunRecord> &byJob, const QStringList &gone, PollResult &result)
{
    // One sacct for every job that left the queue (with steps: MaxRSS lives there).
    QStringList args{QStringLiteral("sacct"), QStringLiteral("--jobs=") + gone.join(QLatin1Char(','))};
    args << SacctParser::formatArguments();
    const RemoteResult sa = m_exec.run(queryArgv(args), kQueryTimeoutMs);
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
        if (auto e = m_store.recordFinal(it->id, rec); !e) {
            result.diagnostics << Diagnostic{
                Severity::Warning, QStringLiteral("store-error"), {}, 0, 0, e.error().message, {}};
            continue;
        }
        result.updates << RunStateUpdate{it->id, rec.jobId, it->state, rec.state, cleanReason(rec.reason), true};
    }
    for (const QString &id : gone)
        if (!seen.contains(id))
            result.missingJobs << id;
}

Result<QString> SlurmClient::cancel(qint64 runId)
{
    const auto stored = m_store.run(runId);
    if (!stored)
        return fail(stored.error());
    const RunRecord &run = *stored;
    if (run.submitState == SubmitState::Unknown)
        return fail(ErrorCode::WrongState,
                    QStringLiteral("run %1 may have a job whose id is not known yet; reconcile it first").arg(runId));
    if (!RemoteValidation::isJobId(run.jobId))
        return fail(ErrorCode::WrongState, QStringLiteral("run %1 has no Slurm job to cancel").arg(runId));
    if (run.isTerminal())
        return fail(ErrorCode::WrongState,
                    QStringLiteral("job %1 already ended (%2)").arg(run.jobId, SlurmJobState::displayName(run.state)));
    const RemoteResult r = m_exec.run({QStringLiteral("scancel"), run.jobId}, kQueryTimeoutMs);
    if (!r.transportOk())
        return fail(ErrorCode::Transport, r.transportError);
    if (r.exitCode != 0)
        return fail(ErrorCode::RemoteFailed,
                    QStringLiteral("scancel %1 failed: %2").arg(run.jobId, RemoteValidation::sanitize(r.err, 400)));
    return QStringLiteral("cancel requested for job %1").arg(run.jobId);
}

FetchResult SlurmClient::fetch(qint64 runId, qint64 maxBytesPerFile)
{
    FetchResult result;
    const auto stored = m_store.run(runId);
    if (!stored) {
        result.errors << stored.error().message;
        return result;
    }
    const RunRecord &run = *stored;
    if (!RemoteValidation::isSafePath(run.remoteDir)) {
        result.errors << QStringLiteral("run %1 has no usable remote directory").arg(runId);
        return result;
    }
    // The files the job script writes all start with "scalelab-".
    const RemoteResult ls =
        m_exec.run({QStringLiteral("find"), run.remoteDir, QStringLiteral("-maxdepth"), QStringLiteral("1"),
                    QStringLiteral("-type"), QStringLiteral("f"), QStringLiteral("-name"), QStringLiteral("scalelab-*"),
                    QStringLiteral("-printf"), QStringLiteral("%s %f\\n")},
                   kQueryTimeoutMs);
    if (!ls.ok()) {
        result.errors << (ls.transportOk() ? QStringLiteral("listing %1 failed: %2")
                                                 .arg(run.remoteDir, RemoteValidation::sanitize(ls.err, 300))
                                           : ls.transportError);
        return result;
    }
    const QString localDir = m_store.runFilesDirectory(runId);
    if (const auto made = PrivateFiles::makeDirectory(localDir); !made) {
        result.errors << made.errorText();
        return result;
    }
    const QStringList lines = QString::fromUtf8(ls.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const QString name = line.section(QLatin1Char(' '), 1);
        if (!name.startsWith(QLatin1String("scalelab-")) || !RemoteValidation::isSafeFileName(name))
            continue;   // never follow names ScaleLab did not write
        const QString remote = run.remoteDir + QLatin1Char('/') + name;
        const RemoteFileChunk chunk = m_exec.download(remote, 0, maxBytesPerFile);
        if (!chunk.error.isEmpty()) {
            result.errors << QStringLiteral("%1: %2").arg(remote, chunk.error);
            continue;
        }
        const QString local = localDir + QLatin1Char('/') + name;
        if (const auto saved = AtomicFile::write(local, chunk.data); !saved) {
            result.errors << saved.errorText();
            continue;
        }
        const qint64 size = chunk.fileSize >= 0 ? chunk.fileSize : chunk.data.size();
        if (size > chunk.data.size())
            result.truncated << remote;
        FileRecord rec{runId, remote, local, size, qint64(chunk.data.size()), QDateTime::currentDateTimeUtc()};
        if (auto e = m_store.recordFile(rec); !e)
            result.errors << e.error().message;
        result.files << rec;
    }
    fetchMetricFiles(runId, run.remoteDir, localDir, result);
    return result;
}

namespace {

// The next part of a growing output file. A refused write (full disk) cuts
// the file back to what it held; a kill in between leaves a size that is not
// the stored offset, and the next tail starts over from 0.
Result<void> appendChunk(const QString &local, qint64 offset, const QByteArray &data)
{
    QFile out(local);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Append))
        return fail(ErrorCode::LocalFile, QStringLiteral("could not write %1: %2").arg(local, out.errorString()));
    if (out.write(data) != data.size() || !out.flush()) {
        const QString why = out.errorString();
        out.resize(offset);
        return fail(ErrorCode::LocalFile, QStringLiteral("could not write %1: %2").arg(local, why));
    }
    return success();
}

}   // namespace

TailResult SlurmClient::tailOutput(qint64 runId, qint64 maxBytes)
{
    TailResult result;
    const auto stored = m_store.run(runId);
    if (!stored) {
        result.error = stored.error().message;
        return result;
    }
    const RunRecord &run = *stored;
    if (!RemoteValidation::isJobId(run.jobId) || !RemoteValidation::isSafePath(run.remoteDir)) {
        result.error = QStringLiteral("run %1 has no job output yet").arg(runId);
        result.missing = true;
        return result;
    }
    const QString name = outputFileName(run.jobId);
    const QString remote = run.remoteDir + QLatin1Char('/') + name;
    const QString local = m_store.runFilesDirectory(runId) + QLatin1Char('/') + name;
    const auto known = m_store.file(runId, remote);
    qint64 offset = known && *known ? (*known)->fetchedOffset : 0;
    if (offset > 0 && QFileInfo(local).size() != offset)
        offset = 0;   // the local copy was removed or edited: start over
    RemoteFileChunk chunk = m_exec.download(remote, offset, maxBytes);
    if (chunk.missing) {
        result.missing = true;
        return result;
    }
    if (!chunk.error.isEmpty()) {
        result.error = chunk.error;
        return result;
    }
    if (chunk.fileSize >= 0 && chunk.fileSize < offset) {
        // The remote file shrank (job requeued and restarted): fetch from the start.
        offset = 0;
        chunk = m_exec.download(remote, 0, maxBytes);
        if (!chunk.error.isEmpty()) {
            result.error = chunk.error;
            return result;
        }
    }
    if (const auto made = PrivateFiles::makeDirectory(m_store.runFilesDirectory(runId)); !made) {
        result.error = made.errorText();
        return result;
    }
    if (const auto saved = offset == 0 ? AtomicFile::write(local, chunk.data) : appendChunk(local, offset, chunk.data);
        !saved) {
        result.error = saved.errorText();
        return result;
    }
    result.data = chunk.data;
    result.offset = offset;
    result.fileSize = chunk.fileSize;
    FileRecord rec{runId, remote, local, chunk.fileSize, offset + chunk.data.size(), QDateTime::currentDateTimeUtc()};
    if (auto e = m_store.recordFile(rec); !e)
        result.error = e.error().message;
    return result;
}

}   // namespace scalelab
