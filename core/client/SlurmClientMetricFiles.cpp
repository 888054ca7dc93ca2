// SPDX-License-Identifier: GPL-3.0-or-later
// SlurmClient::fetchMetricFiles: the frameworks' own metric files a job
// wrote under its folder, brought back beside its scalelab-* files.
#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"
#include "core/base/PrivateFiles.h"
#include "core/base/RemoteValidation.h"
#include "core/client/SlurmClient.h"
#include "core/ingest/MetricFileScanner.h"
#include "core/store/RunStore.h"

#include <QFileInfo>

namespace scalelab {

namespace {


// A relative path whose every segment is a safe file name (no "..").
bool isSafeRelative(const QString &rel)
{
    const QStringList parts = rel.split(u'/');
    for (const QString &p : parts)
        if (p.isEmpty() || p == QLatin1String("..") || p == QLatin1String(".") || !RemoteValidation::isSafeFileName(p))
            return false;
    return true;
}

}   // namespace

void SlurmClient::fetchMetricFiles(qint64 runId, const QString &remoteDir, const QString &localDir, FetchResult &result)
{
    // Names only; which of them are metric files is decided here, not by the shell.
    const RemoteResult ls = m_exec.run({QStringLiteral("find"), remoteDir, QStringLiteral("-maxdepth"),
                                        QString::number(kMetricFileDepth), QStringLiteral("-type"), QStringLiteral("f"),
                                        QStringLiteral("-printf"), QStringLiteral("%s %P\\n")},
                                       kQueryTimeoutMs);
    if (!ls.ok())
        return;   // an old find or a vanished folder: the log still gives its metrics
    int taken = 0;
    for (const QString &line : QString::fromUtf8(ls.out).split(u'\n', Qt::SkipEmptyParts)) {
        const QString rel = line.section(u' ', 1);
        if (!MetricFileScanner::isMetricFileName(rel) || !isSafeRelative(rel))
            continue;
        const QString remote = remoteDir + u'/' + rel;
        if (line.section(u' ', 0, 0).toLongLong() > InputLimits::kMaxFileBytes || ++taken > kMaxMetricFiles) {
            result.truncated << remote;   // listed, not fetched
            continue;
        }
        const RemoteFileChunk chunk = m_exec.download(remote, 0, InputLimits::kMaxFileBytes);
        if (!chunk.error.isEmpty()) {
            result.errors << QStringLiteral("%1: %2").arg(remote, chunk.error);
            continue;
        }
        const QString local = localDir + QStringLiteral("/metricfiles/") + rel;
        if (const auto made = PrivateFiles::makeDirectory(QFileInfo(local).path()); !made) {
            result.errors << made.errorText();
            continue;
        }
        if (const auto saved = AtomicFile::write(local, chunk.data); !saved) {
            result.errors << saved.errorText();
            continue;
        }
        const qint64 size = chunk.fileSize >= 0 ? chunk.fileSize : chunk.data.size();
        FileRecord rec{runId, remote, local, size, qint64(chunk.data.size()), QDateTime::currentDateTimeUtc()};
        if (auto e = m_store.recordFile(rec); !e)
            result.errors << e.error().message;
        result.files << rec;
    }
}

}   // namespace scalelab
