// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/RunFileFetcher.h"

#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"
#include "core/base/PrivateFiles.h"
#include "core/base/RemoteValidation.h"
#include "core/client/MetricFileFetch.h"
#include "core/client/SlurmClient.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

namespace scalelab {

// The next part of a growing output file. A refused write (full disk) cuts
// the file back to what it held; a kill in between leaves a size that is not
// the stored offset, and the next tail starts over from 0.
Result<void> RunFileFetcher::appendChunk(const QString &local, qint64 offset, const QByteArray &data)
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

RunFileFetcher::RunFileFetcher(RemoteExecutor &executor, RunStore &store)
    : m_exec(executor)
    , m_store(store)
{}

FetchResult RunFileFetcher::fetch(qint64 runId, qint64 maxBytesPerFile)
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
    MetricFileFetch(m_exec, m_store).run(run, localDir, result);
    return result;
}

TailResult RunFileFetcher::tailOutput(qint64 runId, qint64 maxBytes)
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
    const QString name = SlurmClient::outputFileName(run.jobId);
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
