// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/RemoteExecutor.h"
#include "core/client/SlurmClientResults.h"
#include "core/slurm/SqueueRow.h"
#include "core/store/RunStore.h"

#include <QHash>
#include <QSet>
#include <QString>

namespace scalelab {

// The poll of one cluster's active runs (SlurmClient::pollOnce): one squeue
// for the user, one sacct for the jobs that left the queue, the new states
// stored. Keeps, between polls, how often a job's sacct record was seen
// half-written.
class JobPoller {
public:
    JobPoller(RemoteExecutor &executor, RunStore &store, const QString &clusterAlias);

    PollResult pollOnce();
    // "until-done": the next segments' job ids the chain wrote into the run
    // folder (SegmentScript::nextJobFileName), one "<file> <sbatch reply>" per line.
    static QString queuedSegmentsShellBody(const QString &remoteDir);

private:
    bool pollQueue(const QHash<QString, RunRecord> &byJob, QSet<QString> &inQueue, PollResult &result);
    Result<bool> storeExpectedStart(qint64 runId, const SqueueRow &row, bool stateChanged);
    Result<bool> recordEnd(const RunRecord &run, const SacctRecord &rec);
    Result<void> storeQueuedSegments(const RunRecord &run, const QList<SegmentRecord> &segments,
                                     const QString &endedJob);
    void pollAccounting(const QHash<QString, RunRecord> &byJob, const QStringList &gone, PollResult &result);

    static constexpr int kQueryTimeoutMs = 60000;   // each remote command

    RemoteExecutor &m_exec;
    RunStore &m_store;
    QString m_alias;
    QHash<QString, int> m_incompleteCycles;   // job id -> polls that saw a half-written sacct record
};

}   // namespace scalelab
