// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/model/Alerts.h"
#include "core/model/FileRecord.h"
#include "core/model/MetricRecord.h"
#include "core/model/ProjectSnapshot.h"
#include "core/model/QueueWait.h"
#include "core/model/RunRecord.h"
#include "core/model/SegmentRecord.h"
#include "core/slurm/SacctRecord.h"
#include "core/model/StateChange.h"
#include "core/store/JobsTreeRecords.h"
#include "core/store/RunTableRecords.h"
#include "core/model/StudyRecord.h"
#include "core/store/StoreConnections.h"

#include <QList>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

class QSqlDatabase;
class QSqlQuery;

namespace scalelab {

// Studies, runs and everything learnt about them, in SQLite (runs.sqlite in
// the data dir). WAL + synchronous=NORMAL: a killed process loses at most
// the transaction in flight. Each thread gets its own connection, opened
// lazily, so the GUI thread and connection workers can share one store.
// Calls return Result<T> (value or typed error); nothing throws.
// The one door callers use: each call is handed to its query group, a class
// of its own per file with its SQL (RunStoreRuns, RunStoreStates,
// RunStoreSeries, ...; see ARCHITECTURE.md, "A store query").
class RunStore {
public:
    // `dataDir` empty = defaultDataDirectory().
    explicit RunStore(const QString &dataDir = {});
    ~RunStore();
    RunStore(const RunStore &) = delete;
    RunStore &operator=(const RunStore &) = delete;

    // $SCALELAB_DATA_DIR, else QStandardPaths::AppDataLocation for "ScaleLab".
    static QString defaultDataDirectory();
    static int latestSchemaVersion();
    static QString newToken();   // "sl-" + 16 lowercase hex digits

    QString dataDirectory() const { return m_connections.dataDirectory(); }
    QString databasePath() const;
    QString runFilesDirectory(qint64 runId) const;   // <data>/runs/<id>

    // This thread's connection. The first open of the store (and the first
    // after a restore) checks it (StoreFile::check: its shape and PRAGMA
    // quick_check) and reads its schema version without taking the write
    // lock; only an older schema is migrated, in a write transaction, after a
    // backup. A store written by a newer ScaleLab fails with
    // ErrorCode::StoreNewerSchema, then and on every later call; a damaged one
    // (at open, or SQLite saying so later) with ErrorCode::StoreDamaged until
    // restored, so nothing is written into it; a store whose write lock
    // another program holds past the wait with ErrorCode::StoreBusy.
    // A daily backup is made at the first open of a day (StoreFile).
    Result<void> open();
    // The calling thread's connection waits at most `ms` for another
    // connection's write lock, and for this store's check at open running on
    // another thread; then StoreBusy. The window's GUI thread sets a short
    // one so it never freezes behind another program. Default kBusyTimeoutMs.
    void setThreadBusyTimeout(int ms);
    static constexpr int kBusyTimeoutMs = StoreConnections::kBusyTimeoutMs;
    Result<int> schemaVersion();
    Result<QString> integrityCheck();   // "ok" when sound
    void closeThreadConnection();   // call before a worker thread ends

    // Studies
    Result<qint64> createStudy(const StudyRecord &study);
    Result<StudyRecord> study(qint64 id);
    Result<QList<StudyRecord>> studies();
    Result<void> setStudyNotes(qint64 id, const QString &notes);

    // Runs. createRun stores the intent (submit_state=intent) and generates
    // the token when empty; nothing may be sent before it returns.
    Result<RunRecord> createRun(const RunRecord &run);
    // A batch (a study's runs) all or nothing, in one transaction: the study
    // when given (its id is set on every run), then every run as createRun.
    // `snapshots[i]`, when set, is stored with runs[i] in the same transaction.
    Result<QList<RunRecord>> createRuns(const QList<RunRecord> &runs, const std::optional<StudyRecord> &study = {},
                                        const QList<std::optional<ProjectSnapshot>> &snapshots = {});
    // The project folder a run was sent with (RunStoreSnapshots.cpp); nullopt for a run without one.
    Result<std::optional<ProjectSnapshot>> runSnapshot(qint64 runId);
    Result<RunRecord> run(qint64 id);
    Result<RunRecord> runByToken(const QString &token);
    Result<QList<RunRecord>> runs();
    Result<QList<RunRecord>> runsInStudy(qint64 studyId);
    // Runs of a cluster with a job id whose state is not final (the poller's list).
    Result<QList<RunRecord>> activeRuns(const QString &clusterAlias);
    // Runs of a cluster in intent/uploaded/unknown (need submit or reconcile).
    Result<QList<RunRecord>> unresolvedRuns(const QString &clusterAlias);
    // The clusters with runs to poll (a job not final) or to reconcile
    // (uploaded or unknown): what the window connects to at start.
    Result<QSet<QString>> clustersWithWork();
    Result<qint64> newestRunId();   // 0 when there is none
    Result<void> setRemoteDir(qint64 runId, const QString &remoteDir);
    Result<void> setSlurmVersion(qint64 runId, const QString &version);   // "24.11.5"
    Result<void> setSubmitState(qint64 runId, SubmitState state, const QString &rejection = {});
    // Job id known: submit_state = `how` (Submitted or Reconciled), state PENDING.
    Result<void> markSubmitted(qint64 runId, const QString &jobId, SubmitState how = SubmitState::Submitted);
    // A run made of segments (RunStoreSegments.cpp): all its job ids, in chain
    // order, stored with the submission in one transaction; the run's job id is
    // the first. Segments already stored keep what they have.
    Result<void> markSubmittedSegments(qint64 runId, const QStringList &jobIds,
                                       SubmitState how = SubmitState::Submitted);
    // The run's segments in chain order; empty for a run of one job.
    Result<QList<SegmentRecord>> segments(qint64 runId);
    // A segment queued by the one before ("until-done"), appended to the chain;
    // one already stored keeps what it has.
    Result<void> addSegment(qint64 runId, int segment, const QString &jobId);
    // A segment ended (sacct's record): stored with it; when a later segment
    // follows, the run follows that job (state PENDING) and its id is returned;
    // nullopt after the last one (the caller then records the run's end).
    Result<std::optional<QString>> recordSegmentEnd(qint64 runId, const SacctRecord &acct);
    // Appends to the history only when state or reason changed; value = changed.
    Result<bool> updateState(qint64 runId, JobState state, const QString &reason, const QDateTime &at = {});
    Result<QList<StateChange>> stateHistory(qint64 runId);
    // A pending job's expected start (squeue %S as printed; "" none). True when it changed.
    Result<bool> setExpectedStart(qint64 runId, const QString &start);
    // Every run's queue wait (the queue_wait_s metric from accounting) with its partition and GPUs.
    Result<QList<QueueWait>> queueWaits();
    Result<void> deleteRun(qint64 runId);

    // Final state + accounting in one transaction.
    Result<void> recordFinal(qint64 runId, const SacctRecord &acct, const QDateTime &at = {});
    Result<void> saveAccounting(qint64 runId, const SacctRecord &acct);
    Result<std::optional<SacctRecord>> accounting(qint64 runId);

    Result<void> recordFile(const FileRecord &file);
    Result<QList<FileRecord>> files(qint64 runId);
    Result<std::optional<FileRecord>> file(qint64 runId, const QString &remotePath);

    // One metric, added or replacing the run's value of that name and source
    // (RunStoreSeries.cpp). Ingest writes through replaceRunMetrics instead.
    Result<void> setMetric(const MetricRecord &metric);
    Result<QList<MetricRecord>> metrics(qint64 runId);
    // Everything one ingest learnt about a run (RunStoreSeries.cpp), in one
    // transaction: the run's stored metrics and series are deleted and these
    // written, so a name no longer produced (a renamed study pattern) goes
    // with them, and a failure part way leaves the previous ones whole.
    // Records of another run, without a name, or a series whose steps and
    // values differ in length are refused before anything is written.
    Result<void> replaceRunMetrics(qint64 runId, const QList<MetricRecord> &metrics, const QList<MetricSeries> &series);
    // Finished runs with stored accounting or fetched files but not one metric
    // (an ingest that never ran or failed); clusterAlias "" = every cluster.
    Result<QList<RunRecord>> runsAwaitingIngest(const QString &clusterAlias = {});

    // The runs table in a fixed few queries in one read transaction: studyId
    // > 0 reads that study's runs with their scripts, otherwise every run
    // without its script (RunTableRecords); `runIds` given: only those (a
    // patch after they changed).
    Result<RunTableRecords> tableRecords(qint64 studyId = -1, const QList<qint64> &runIds = {});
    // The Jobs tree in five queries in one read transaction (RunStoreJobs.cpp):
    // every run, or only `runIds` (a patch after they changed), none with its script.
    Result<JobsTreeRecords> jobsRecords(const QList<qint64> &runIds = {});

    // Series (RunStoreSeries.cpp): replaces the run's series of that name
    // (ingest writes through replaceRunMetrics instead).
    Result<void> setSeries(const MetricSeries &series);
    Result<QList<MetricSeries>> series(qint64 runId);

    // Flags (RunStoreFlags.cpp). Hidden runs stay in the store; views leave them out.
    Result<void> setHidden(qint64 runId, bool hidden);
    Result<QSet<qint64>> hiddenRuns();
    // The output line that says why a run failed ("" = none found).
    Result<void> setFailureLine(qint64 runId, const QString &line);
    Result<QHash<qint64, QString>> failureLines();
    // A run that never reached Slurm (intent or uploaded, no job) is marked
    // rejected "withdrawn", so nothing sends it later. Refused for any other run.
    Result<void> withdrawRun(qint64 runId);
    static QString withdrawnText();
    // Puts a run (a resubmitted point) into a study; 0 takes it out again.
    Result<void> setRunStudy(qint64 runId, qint64 studyId);

    // Live alerts (RunStoreAlerts.cpp): one per run and rule, the first kept.
    // recordAlert's value: true when it is new (its id set in `alert`).
    Result<bool> recordAlert(AlertRecord &alert);
    // The alerts of `runIds` (empty: every run), oldest first.
    Result<QList<AlertRecord>> alerts(const QList<qint64> &runIds = {});
    // Alerts the window has not shown yet: raised while it was closed ("while you were away").
    Result<QList<AlertRecord>> unnotifiedAlerts();
    Result<void> markAlertsNotified(const QList<qint64> &alertIds);

private:
    StoreConnections m_connections;
};

}   // namespace scalelab
