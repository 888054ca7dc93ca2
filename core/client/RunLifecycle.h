// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/base/Result.h"
#include "core/client/LiveWatch.h"
#include "core/client/SlurmClientResults.h"
#include "core/ingest/IngestService.h"
#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"
#include "core/model/ProjectSnapshot.h"
#include "core/project/ProjectSnapshotter.h"
#include "core/client/ProjectSync.h"
#include "core/model/RunRecord.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>

namespace scalelab {

class RunStore;
class SlurmClient;

// The life of a run from the researcher's "submit" to stored metrics, written
// once for the CLI and the window:
//   validateBatch + storeBatch   (no network: all runs valid, all stored, or nothing)
//   sendBatch                    (one SlurmClient::submit per stored run)
//   reconcileUnresolved          (runs left unresolved by a crash or lost link)
//   pollCycle                    (poll, then fetch + ingest what finished, the missed
//                                 ingests, then tail)
//   ingestMissed                 (finished runs never ingested; store only, no connection)
//   fetchAndIngest, cancel, tail (one run, on request)
// The CLI calls these on its main thread; the window runs them as tasks on the
// connection's worker thread and posts the report back to the GUI thread.

struct SubmitRequest {
    JobSpec spec;
    const ClusterProfile *profile = nullptr;
    QString alias;   // SSH alias the run is sent through
    QString specFile;   // stored with the run (RunRecord::specFile)
    // The snapshot of spec.project.folder (ProjectSnapshotter::take), stored
    // with the run in the same transaction; storeBatch requires it when the spec has a project.
    std::optional<ProjectSnapshot> snapshot;
};

struct SentRun {
    qint64 runId = 0;
    SubmitOutcome outcome;
};

struct ReconciledRun {
    qint64 runId = 0;
    ReconcileOutcome outcome;
    std::optional<SubmitOutcome> resubmit;   // set when sbatch had certainly not run and it was sent now
};

struct ReconcileReport {
    QList<ReconciledRun> runs;
    bool changed() const;   // a run got a job id or was sent
};

struct FetchReport {
    FetchResult fetch;
    IngestResult ingest;
};

// Finished runs ingested late (RunLifecycle::ingestMissed).
struct MissedIngestReport {
    QList<qint64> runs;   // ingested now, whether or not their ingest succeeded
    QStringList errors;   // "run N: why"
    int metricsStored = 0;
};

struct PollCycleOptions {
    qint64 watchedRun = 0;   // its new output bytes are fetched (tail) while it runs
    qint64 tailBytes = 1024 * 1024;
    qint64 fetchBytes = 64 * 1024 * 1024;
    // The live watch (kept by the caller across cycles): the new bytes of every
    // running run's GPU samples and output in one remote command, then the
    // alert rules with these thresholds. Null: no live watch.
    LiveWatch *live = nullptr;
    AlertThresholds alerts;
};

struct PollCycleReport {
    PollResult poll;
    QList<qint64> finalRuns;   // finished in this cycle: fetched and ingested
    QList<qint64> lateRuns;   // finished earlier but never ingested: ingested in this cycle
    QStringList fetchErrors;
    QStringList ingestErrors;
    int metricsStored = 0;   // over all finalRuns and lateRuns
    qint64 tailRun = 0;
    bool tailChanged = false;
    bool moreActive = false;   // another cycle is needed (active or unresolved runs remain)
    LiveCycleReport live;   // the live watch's part (empty without one)
};

class RunLifecycle {
public:
    RunLifecycle(SlurmClient &client, RunStore &store);

    // The snapshot of spec.project.folder (an absolute folder) for a SubmitRequest, with the
    // remote folder the spec names or else the profile's default. Local only.
    static Result<ProjectSnapshot> snapshotProject(const JobSpec &spec, const ClusterProfile &profile,
                                                   const SnapshotLimits &limits = {});
    // Every request checked (profile, validator errors); each error's message
    // starts with the GPU count of its run. Pure.
    static Diagnostics validateBatch(const QList<SubmitRequest> &requests);
    // Stores the study (when named) and every run in one transaction, after
    // validateBatch found no error. On failure nothing is stored.
    static Result<QList<RunRecord>> storeBatch(RunStore &store, const QList<SubmitRequest> &requests,
                                               const QString &studyName);

    // Sends stored runs of this client's cluster, in order. Chained: each job
    // waits for the last one sent (--dependency=afterany), so a study's runs
    // do not disturb each other's timings.
    QList<SentRun> sendBatch(const QList<qint64> &runIds, bool chained = false);
    // How a project folder's upload goes during sendBatch and the sends of
    // reconcileUnresolved (files, bytes, rate); returning false cancels it.
    void setSyncProgress(ProjectSync::Progress progress);
    // Resolves the cluster's runs in intent/uploaded/unknown with id <=
    // newestRunId; a run whose sbatch certainly never ran is sent now, once.
    ReconcileReport reconcileUnresolved(qint64 newestRunId = std::numeric_limits<qint64>::max());
    // One cycle: squeue/sacct, then every run that finished in it is fetched
    // and ingested (metrics stored before this returns), then the cluster's
    // missed ingests (ingestMissed), then the watched run's output tail.
    PollCycleReport pollCycle(const PollCycleOptions &options = {});
    // The repair of "finished but never ingested": runs of the cluster
    // (clusterAlias "" = every cluster) that reached a final state with
    // accounting or fetched files but not one metric (the process ended
    // between the final state and the ingest, an ingest failed, a store
    // written before ingest was part of the poll cycle) are ingested now from
    // what is stored. Needs no connection: the window runs it when the cluster
    // layer starts and in every poll cycle, `scalelab status` on every call.
    // `handled`: runs the caller has just ingested itself (not tried twice).
    static MissedIngestReport ingestMissed(RunStore &store, const QString &clusterAlias = {},
                                           const QList<qint64> &handled = {});
    // The run's scalelab-* files downloaded, then its metrics stored: what a
    // poll cycle does for each run that finished, and `scalelab fetch`.
    FetchReport fetchAndIngest(qint64 runId, qint64 maxBytesPerFile = 64 * 1024 * 1024);
    // scancel of the run's job: the confirmation text or why not.
    Result<QString> cancel(qint64 runId);
    // The run's new output bytes now (a run just opened in the window),
    // between poll cycles.
    TailResult tail(qint64 runId, qint64 maxBytes = 1024 * 1024);

private:
    // The live watch's part of a cycle; true when it read the watched run's output.
    bool liveStep(const PollCycleOptions &options, PollCycleReport &rep);
    // Ingest, then (a failed run) the line of its output that says why.
    static IngestResult ingestAndExplain(RunStore &store, qint64 runId);

    SlurmClient &m_client;
    RunStore &m_store;
};

}   // namespace scalelab
