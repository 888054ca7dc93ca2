// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/JobPoller.h"
#include "core/client/ProjectSync.h"
#include "core/client/RemoteExecutor.h"
#include "core/client/RunFileFetcher.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClientResults.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <optional>

namespace scalelab {

// Talks to Slurm on one cluster through a RemoteExecutor and keeps the run
// store current. Synchronous: lives on the connection's worker thread.
//
// Every remote command is fixed words plus validated values (job ids are
// digits, paths and tokens a safe charset). User text (job name, program,
// arguments, environment) travels only inside the uploaded job.sbatch.
//
// Submitting exactly once: the store holds the run (intent) before anything
// is sent; the state is set to "unknown" before sbatch is sent, so a crash or
// a lost connection leaves a run that reconcile() resolves from the cluster
// (the remote jobid file, squeue/sacct by token) instead of resubmitting.
class SlurmClient {
public:
    SlurmClient(RemoteExecutor &executor, RunStore &store, QString clusterAlias);

    // `sbatch --version` once per client (session): "22.05.8", or why not
    // (Transport: the connection failed; RemoteFailed: sbatch said no).
    Result<QString> detectVersion();

    // `afterJobId` (a job id, else ignored) makes the job wait until that job
    // has ended (sbatch --dependency=afterany:ID): a study run one at a time.
    SubmitOutcome submit(qint64 runId, const QString &afterJobId = {});
    ReconcileOutcome reconcile(qint64 runId);
    // Uploads `script` to a scratch dir and asks `sbatch --test-only`.
    TestOnlyResult testOnly(const QString &script);
    // One squeue for all active runs, one sacct for those that left the queue.
    PollResult pollOnce();
    // The confirmation text ("cancel requested for job N") or why not.
    Result<QString> cancel(qint64 runId);
    // Downloads the run's scalelab-* files (whole, up to maxBytesPerFile each)
    // into RunStore::runFilesDirectory(runId), then the frameworks' metric
    // files the job wrote, wherever its spec and arguments say (MetricFileFetch).
    FetchResult fetch(qint64 runId, qint64 maxBytesPerFile = 64 * 1024 * 1024);
    // New bytes of scalelab-<jobid>.out since the last fetch, appended locally.
    TailResult tailOutput(qint64 runId, qint64 maxBytes = 1024 * 1024);

    QString clusterAlias() const { return m_alias; }
    // The connection this client sends through (the live watch shares it).
    RemoteExecutor &executor() { return m_exec; }

    // Told how a project's upload goes during submit(); returning false cancels
    // it before the next pack (the run stays unsent, nothing reaches Slurm).
    void setSyncProgress(ProjectSync::Progress progress) { m_syncProgress = std::move(progress); }
    // What the last submit() of a run with a project folder sent.
    const std::optional<SyncReport> &lastSync() const { return m_lastSync; }

    // A remote folder as a spec or profile writes it ("$HOME/scalelab", "~/x",
    // "x" under the home, "/scratch/p/x") made absolute with the remote home;
    // InvalidValue names what ScaleLab will not send in a command.
    static Result<QString> resolveRemoteFolder(const QString &folder, const QString &home);
    // A project file at the top of a run folder would take the place of one
    // of ScaleLab's own (job.sbatch, jobid, scalelab-<id>.out, ...).
    static bool isReservedRunFileName(const QString &projectPath);

    // Remote layout and the exact shell bodies (public for tests).
    static QString runsRoot();   // ".scalelab/runs" under $HOME
    static QString scriptFileName();   // "job.sbatch"
    // `segments` >= 1: a run of that many segments (SCALELAB_SEGMENT/SCALELAB_SEGMENTS
    // exported); `jobs` of them (0 = all) created now, chained (--dependency=afterany
    // on the one before), one job id per line. Fewer jobs ("until-done"): the
    // segments queue the rest themselves and get the token (SCALELAB_TOKEN).
    static QString submitShellBody(const QString &remoteDir, const QString &token, const QString &afterJobId = {},
                                   int segments = 0, int jobs = 0);
    static QString reconcileShellBody(const QString &remoteDir);
    static QString outputFileName(const QString &jobId);   // "scalelab-<id>.out"
    // A query (squeue/sacct/scontrol) as sent: prefixed with `env` so that
    // output-shaping variables of the login shell's rc files (SQUEUE_FORMAT,
    // SACCT_FORMAT, SLURM_TIME_FORMAT, SQUEUE_STATES, ...) cannot change what
    // is parsed. SLURM_CONF is kept: it is how a site's clients find slurmctld.
    static QStringList queryArgv(const QStringList &argv);

private:
    static constexpr int kQueryTimeoutMs = 60000;   // each remote command
    Result<QString> remoteDirFor(const RunRecord &run);
    Result<QString> remoteHome();
    std::optional<SubmitOutcome> sendProject(qint64 runId, const RunRecord &run, const QString &dir);
    std::optional<SubmitOutcome> sendableProblem(qint64 runId, const RunRecord &run) const;
    std::optional<SubmitOutcome> uploadBeforeSbatch(qint64 runId, const RunRecord &run, const QString &dir);
    SubmitOutcome recordSbatchReply(qint64 runId, const RemoteResult &r, int planned);
    Result<void> storeJobIds(qint64 runId, const QStringList &ids, int planned, SubmitState how);
    ReconcileOutcome lookUpByToken(const RunRecord &run, const QString &remoteDir, bool attemptRecent);

    RemoteExecutor &m_exec;
    RunStore &m_store;
    QString m_alias;
    QString m_version;
    QString m_home;
    JobPoller m_poller;
    RunFileFetcher m_files;
    ProjectSync::Progress m_syncProgress;
    std::optional<SyncReport> m_lastSync;
};

}   // namespace scalelab
