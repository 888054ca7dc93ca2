// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/LiveWatch.h"

#include "core/base/AtomicFile.h"
#include "core/base/InputLimits.h"
#include "core/base/Logging.h"
#include "core/base/PrivateFiles.h"
#include "core/base/RemoteValidation.h"
#include "core/client/LiveFetch.h"
#include "core/client/RunFileFetcher.h"
#include "core/client/SlurmClient.h"
#include "core/ingest/AlertRules.h"
#include "core/store/RunStore.h"

#include <QFileInfo>
#include <QTimeZone>

#include <algorithm>

namespace scalelab {

namespace {

bool isOutput(const RunRecord &run, const QString &name)
{
    return name == SlurmClient::outputFileName(run.jobId);
}

bool isLiveFile(const RunRecord &run, const QString &name)
{
    return isOutput(run, name)
           || (name.startsWith(QStringLiteral("scalelab-gpu-%1-").arg(run.jobId)) && name.endsWith(u".csv"));
}

// The run's live files stored here whose local copy holds what the store says.
QList<FileRecord> validCopies(RunStore &store, const RunRecord &run)
{
    QList<FileRecord> out;
    const auto files = store.files(run.id);
    if (!files)
        return out;
    for (const FileRecord &f : *files) {
        const QString name = f.remotePath.section(u'/', -1);
        if (f.remotePath == run.remoteDir + u'/' + name && isLiveFile(run, name) && f.fetchedOffset > 0
            && QFileInfo(f.localPath).size() == f.fetchedOffset)
            out << f;
    }
    return out;
}

double epochOf(const QDateTime &t)
{
    return double(t.toMSecsSinceEpoch()) / 1000.0;
}

}   // namespace

void LiveWatch::setCaps(qint64 perFile, qint64 perCycle)
{
    m_perFile = std::max<qint64>(1, perFile);
    m_perCycle = std::max<qint64>(1, perCycle);
}

const LiveRunState *LiveWatch::state(qint64 runId) const
{
    const auto it = m_states.constFind(runId);
    return it == m_states.cend() ? nullptr : &*it;
}

LiveRunState &LiveWatch::stateFor(RunStore &store, const RunRecord &run, double now)
{
    if (const auto it = m_states.find(run.id); it != m_states.end())
        return *it;
    LiveRunState &s = m_states[run.id];
    s.setFirstSeen(now);
    // A run watched before (an earlier session, `scalelab status`): its history is in the local copies.
    for (const FileRecord &f : validCopies(store, run)) {
        const InputLimits::FileRead read = InputLimits::readFile(f.localPath, QStringLiteral("live file"),
                                                                 InputLimits::kMaxFileBytes, InputLimits::Content::Log);
        if (!read.ok)
            continue;
        const QString name = f.remotePath.section(u'/', -1);
        const double changed = epochOf(QFileInfo(f.localPath).lastModified());
        if (isOutput(run, name))
            s.addOutputBytes(read.data, changed);
        else
            s.addGpuBytes(name, read.data, changed);
    }
    return s;
}

void LiveWatch::keep(RunStore &store, const RunRecord &run, const LiveChunk &c, LiveCycleReport &rep, double now)
{
    if (c.data.isEmpty())
        return;
    const QString dir = store.runFilesDirectory(run.id);
    const QString local = dir + u'/' + c.name;
    const bool restart = c.offset == 0;
    Result<void> saved = PrivateFiles::makeDirectory(dir);
    if (saved)
        saved = restart ? AtomicFile::write(local, c.data) : RunFileFetcher::appendChunk(local, c.offset, c.data);
    if (!saved) {
        rep.errors << saved.errorText();
        return;
    }
    const FileRecord rec{
        run.id, run.remoteDir + u'/' + c.name, local,
        c.size, c.offset + c.data.size(),      QDateTime::fromMSecsSinceEpoch(qint64(now * 1000), QTimeZone::utc())};
    if (auto e = store.recordFile(rec); !e)
        rep.errors << e.error().message;
    rep.bytes += c.data.size();
    LiveRunState &s = m_states[run.id];
    if (isOutput(run, c.name)) {
        s.addOutputBytes(c.data, now, restart);
        rep.outputGrew << run.id;
    } else {
        s.addGpuBytes(c.name, c.data, now, restart);
    }
}

LiveCycleReport LiveWatch::cycle(RemoteExecutor &exec, RunStore &store, const QList<RunRecord> &running,
                                 const AlertThresholds &thresholds, double now)
{
    LiveCycleReport rep;
    QList<LiveTarget> targets;
    QHash<qint64, RunRecord> byId;
    qint64 files = 0;
    for (const RunRecord &r : running) {
        if (r.state != JobState::Running || !RemoteValidation::isJobId(r.jobId)
            || !RemoteValidation::isSafePath(r.remoteDir))
            continue;
        stateFor(store, r, now);
        LiveTarget t{r.id, r.remoteDir, r.jobId, {}};
        for (const FileRecord &f : validCopies(store, r))
            t.offsets.insert(f.remotePath.section(u'/', -1), f.fetchedOffset);
        targets << t;
        byId.insert(r.id, r);
        files += std::max(1, r.nodes) + 1;   // a sample file per node and the output
    }
    m_states.removeIf([&](QHash<qint64, LiveRunState>::iterator it) { return !byId.contains(it.key()); });
    if (targets.isEmpty())
        return rep;
    rep.maxBytesPerFile = std::clamp<qint64>(m_perCycle / files, std::min<qint64>(4096, m_perFile), m_perFile);
    const RemoteResult r = exec.runWithInput({QStringLiteral("sh"), QStringLiteral("-s")},
                                             LiveFetch::script(targets, rep.maxBytesPerFile).toUtf8(), 60000);
    rep.remoteCommands = 1;
    if (!r.ok()) {
        // Nothing learnt: no alert from a silence the watch itself caused.
        rep.errors << (r.transportOk()
                           ? QStringLiteral("live watch failed: %1").arg(RemoteValidation::sanitize(r.err, 300))
                           : r.transportError);
        return rep;
    }
    const auto chunks = LiveFetch::parse(r.out);
    if (!chunks) {
        rep.errors << chunks.error().message;
        return rep;
    }
    for (const LiveChunk &c : *chunks)
        if (byId.contains(c.runId) && isLiveFile(byId[c.runId], c.name))
            keep(store, byId[c.runId], c, rep, now);
    for (const LiveTarget &t : targets) {
        rep.runs << t.runId;
        rep.views << m_states[t.runId].view(t.runId);
        for (AlertRecord a : AlertRules::evaluate(t.runId, m_states[t.runId], thresholds, now)) {
            const auto added = store.recordAlert(a);
            if (!added)
                rep.errors << added.error().message;
            else if (*added)
                rep.newAlerts << a;
        }
    }
    return rep;
}

}   // namespace scalelab
