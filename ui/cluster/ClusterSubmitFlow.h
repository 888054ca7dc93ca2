// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/cluster/ClusterManager.h"

#include "core/client/StartEstimateCache.h"
#include "core/client/SlurmClientResults.h"
#include "core/model/JobSpec.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace scalelab {

class AppServices;

// ClusterManager's submit flow: a batch stored as intent, then sent on each
// cluster's worker; dry runs (sbatch --test-only and the program's `test -e`),
// start estimates (kept a few minutes), cancel, and the reconcile of unresolved
// submissions every new connection starts with. Its tasks run on the
// manager's workers; their results come back here on the GUI thread, and it
// says them through the manager's signals.
class ClusterSubmitFlow : public QObject {
    Q_OBJECT
public:
    explicit ClusterSubmitFlow(ClusterManager &manager);

    // ClusterService's calls of the same names.
    void submit(const QList<scalelab::JobSpec> &specs, const QString &studyName, scalelab::StudyOrder order);
    void dryRun(const scalelab::JobSpec &spec);
    void dryRunRun(qint64 runId);
    void estimateStart(const scalelab::JobSpec &spec);
    void cancel(qint64 runId);
    // Reads the newest run id (on the store queue), then settles on the
    // worker the unresolved submissions up to it.
    void enqueueReconcile(ClusterManager::Cluster &c);

private:
    void dryRunScript(const QString &alias, const QString &script, const QString &program);
    void sendEstimate(const QString &profileId, const QString &alias, const QString &script,
                      const QStringList &partitions, int gpus);
    // Whether the profile's cluster can be reached as configured (stored host
    // details, or an alias the SSH config knows, or a connection this session).
    bool isConfigured(const QString &profileId, const QString &alias) const;
    void sendReconcile(ClusterManager::Cluster &c, qint64 newestRunId);
    void onBatchStored(const Result<QList<RunRecord>> &stored, const QString &studyName, StudyOrder order);
    void onSubmitDone(const QString &alias, const QList<SentRun> &outcomes);
    void cancelJob(const QString &alias, qint64 runId);
    void onReconcileDone(const QString &alias, const QStringList &messages, const QList<qint64> &changed);

    ClusterManager &m_manager;
    AppServices &m_services;
    StartEstimateCache m_estimates;   // sbatch --test-only answers, a few minutes
};

}   // namespace scalelab
