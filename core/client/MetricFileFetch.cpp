// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/MetricFileFetch.h"

#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"
#include "core/base/PrivateFiles.h"
#include "core/base/RemoteValidation.h"
#include "core/base/ShellQuote.h"
#include "core/client/RemoteExecutor.h"
#include "core/ingest/MetricFileScanner.h"
#include "core/model/JobSpecJson.h"
#include "core/model/MetricFileLocations.h"
#include "core/store/RunStore.h"

#include <QFileInfo>

namespace scalelab {

namespace {

constexpr int kListTimeoutMs = 60000;

// A relative path whose every segment is a safe file name (no "..").
bool isSafeRelative(const QString &rel)
{
    const QStringList parts = rel.split(u'/');
    for (const QString &p : parts)
        if (p.isEmpty() || p == QLatin1String("..") || p == QLatin1String(".") || !RemoteValidation::isSafeFileName(p))
            return false;
    return true;
}

// find's "%s %P" lines: size, a space, the path under the folder.
MetricFileFetch::Listing listing(const QString &base, const QStringList &lines, qsizetype from)
{
    MetricFileFetch::Listing l{base, {}};
    for (qsizetype i = from; i < lines.size(); ++i)
        l.entries << MetricFileFetch::Entry{lines.at(i).section(u' ', 0, 0).toLongLong(), lines.at(i).section(u' ', 1)};
    return l;
}

QStringList findArgs(int depth)
{
    return {QStringLiteral("-maxdepth"), QString::number(depth),    QStringLiteral("-type"),
            QStringLiteral("f"),         QStringLiteral("-printf"), QStringLiteral("%s %P\\n")};
}

}   // namespace

MetricFileFetch::MetricFileFetch(RemoteExecutor &exec, RunStore &store)
    : m_exec(exec)
    , m_store(store)
{}

void MetricFileFetch::run(const RunRecord &run, const QString &localDir, FetchResult &result)
{
    const QString root = localDir + QStringLiteral("/metricfiles");
    if (const auto l = listRunFolder(run.remoteDir))
        take(run.id, *l, root, result);
    const JobSpecParseResult parsed = parseJobSpec(run.specJson);
    if (!parsed.spec)
        return;   // a spec that no longer parses: its run folder is all there is
    const QList<MetricFileLocation> locations = MetricFileLocations::of(*parsed.spec);
    for (qsizetype i = 1; i < locations.size(); ++i)
        if (const auto l = listLocation(run.remoteDir, locations.at(i)))
            take(run.id, *l, root + QStringLiteral("/location-%1").arg(i), result);
}

std::optional<MetricFileFetch::Listing> MetricFileFetch::listRunFolder(const QString &remoteDir)
{
    const RemoteResult ls =
        m_exec.run(QStringList{QStringLiteral("find"), remoteDir} + findArgs(kDepth), kListTimeoutMs);
    if (!ls.ok())
        return std::nullopt;   // an old find or a vanished folder: the log still gives its metrics
    return listing(remoteDir, QString::fromUtf8(ls.out).split(u'\n', Qt::SkipEmptyParts), 0);
}

// The folder as the job sees it: relative to the run folder, $NAME expanded
// by the cluster's sh and nothing else. The first line of the answer is the
// folder's path.
std::optional<MetricFileFetch::Listing> MetricFileFetch::listLocation(const QString &remoteDir,
                                                                      const MetricFileLocation &where)
{
    const QString path = ShellQuote::quoteExpandingVariables(where.path);
    const QString body = QStringLiteral("cd %1 || exit 1; cd -- %2 2>/dev/null || exit 0; pwd; exec find . %3")
                             .arg(ShellQuote::quote(remoteDir), path, ShellQuote::join(findArgs(kDepth)));
    const RemoteResult ls = m_exec.run({QStringLiteral("sh"), QStringLiteral("-c"), body}, kListTimeoutMs);
    const QStringList lines = QString::fromUtf8(ls.out).split(u'\n', Qt::SkipEmptyParts);
    if (!ls.ok() || lines.isEmpty() || !lines.first().startsWith(u'/'))
        return std::nullopt;   // not there (yet): nothing to fetch from it
    return listing(lines.first(), lines, 1);
}

void MetricFileFetch::take(qint64 runId, const Listing &listing, const QString &localFolder, FetchResult &result)
{
    for (const Entry &e : listing.entries) {
        if (!MetricFileScanner::isMetricFileName(e.relative) || !isSafeRelative(e.relative))
            continue;
        const QString remote = (listing.base == QLatin1String("/") ? QString() : listing.base) + u'/' + e.relative;
        if (m_seen.contains(remote))
            continue;   // a folder inside another: fetched once
        m_seen.insert(remote);
        if (e.size > InputLimits::kMaxFileBytes || ++m_taken > kMaxFiles) {
            result.truncated << remote;   // listed, not fetched
            continue;
        }
        takeOne(runId, remote, localFolder + u'/' + e.relative, result);
    }
}

void MetricFileFetch::takeOne(qint64 runId, const QString &remote, const QString &local, FetchResult &result)
{
    const RemoteFileChunk chunk = m_exec.download(remote, 0, InputLimits::kMaxFileBytes);
    if (!chunk.error.isEmpty()) {
        result.errors << QStringLiteral("%1: %2").arg(remote, chunk.error);
        return;
    }
    if (const auto made = PrivateFiles::makeDirectory(QFileInfo(local).path()); !made) {
        result.errors << made.errorText();
        return;
    }
    if (const auto saved = AtomicFile::write(local, chunk.data); !saved) {
        result.errors << saved.errorText();
        return;
    }
    const qint64 size = chunk.fileSize >= 0 ? chunk.fileSize : chunk.data.size();
    FileRecord rec{runId, remote, local, size, qint64(chunk.data.size()), QDateTime::currentDateTimeUtc()};
    if (auto e = m_store.recordFile(rec); !e)
        result.errors << e.error().message;
    result.files << rec;
}

}   // namespace scalelab
