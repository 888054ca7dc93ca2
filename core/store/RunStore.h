// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/FileRecord.h"
#include "core/model/MetricRecord.h"
#include "core/model/RunRecord.h"
#include "core/slurm/SacctRecord.h"
#include "core/model/StateChange.h"
#include "core/store/RunTableRecords.h"
#include "core/store/StoreResult.h"
#include "core/model/StudyRecord.h"

#include <QList>
#include <QMutex>
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
// Calls return values + error texts; nothing throws.
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

    QString dataDirectory() const { return m_dataDir; }
    QString databasePath() const;
    QString runFilesDirectory(qint64 runId) const;   // <data>/runs/<id>

    QString open();                      // this thread's connection + migrations; "" = ok
    StoreResult<int> schemaVersion();
    StoreResult<QString> integrityCheck();   // "ok" when sound
    void closeThreadConnection();        // call before a worker thread ends

    // Studies
    StoreResult<qint64> createStudy(const StudyRecord &study);
    StoreResult<StudyRecord> study(qint64 id);
    StoreResult<QList<StudyRecord>> studies();
    QString setStudyNotes(qint64 id, const QString &notes);

    // Runs. createRun stores the intent (submit_state=intent) and generates
    // the token when empty; nothing may be sent before it returns.
    StoreResult<RunRecord> createRun(const RunRecord &run);
    StoreResult<RunRecord> run(qint64 id);
    StoreResult<RunRecord> runByToken(const QString &token);
    StoreResult<QList<RunRecord>> runs();
    StoreResult<QList<RunRecord>> runsInStudy(qint64 studyId);
    // Runs of a cluster with a job id whose state is not final (the poller's list).
    StoreResult<QList<RunRecord>> activeRuns(const QString &clusterAlias);
    // Runs of a cluster in intent/uploaded/unknown (need submit or reconcile).
    StoreResult<QList<RunRecord>> unresolvedRuns(const QString &clusterAlias);
    QString setRemoteDir(qint64 runId, const QString &remoteDir);
    QString setSlurmVersion(qint64 runId, const QString &version);   // "24.11.5"
    QString setSubmitState(qint64 runId, SubmitState state, const QString &rejection = {});
    // Job id known: submit_state = `how` (Submitted or Reconciled), state PENDING.
    QString markSubmitted(qint64 runId, const QString &jobId, SubmitState how = SubmitState::Submitted);
    // Appends to the history only when state or reason changed; value = changed.
    StoreResult<bool> updateState(qint64 runId, JobState state, const QString &reason, const QDateTime &at = {});
    StoreResult<QList<StateChange>> stateHistory(qint64 runId);
    QString deleteRun(qint64 runId);

    // Final state + accounting in one transaction.
    QString recordFinal(qint64 runId, const SacctRecord &acct, const QDateTime &at = {});
    QString saveAccounting(qint64 runId, const SacctRecord &acct);
    StoreResult<std::optional<SacctRecord>> accounting(qint64 runId);

    QString recordFile(const FileRecord &file);
    StoreResult<QList<FileRecord>> files(qint64 runId);
    StoreResult<std::optional<FileRecord>> file(qint64 runId, const QString &remotePath);

    QString setMetric(const MetricRecord &metric);
    StoreResult<QList<MetricRecord>> metrics(qint64 runId);

    // The runs table in a fixed few queries in one read transaction: studyId
    // > 0 reads that study's runs with their scripts, otherwise every run
    // without its script (RunTableRecords).
    StoreResult<RunTableRecords> tableRecords(qint64 studyId = -1);

    // Series (RunStoreSeries.cpp): replaces the run's series of that name.
    QString setSeries(const MetricSeries &series);
    StoreResult<QList<MetricSeries>> series(qint64 runId);

    // Flags (RunStoreFlags.cpp). Hidden runs stay in the store; views leave them out.
    QString setHidden(qint64 runId, bool hidden);
    StoreResult<QSet<qint64>> hiddenRuns();
    // The output line that says why a run failed ("" = none found).
    QString setFailureLine(qint64 runId, const QString &line);
    StoreResult<QHash<qint64, QString>> failureLines();
    // A run that never reached Slurm (intent or uploaded, no job) is marked
    // rejected "withdrawn", so nothing sends it later. Refused for any other run.
    QString withdrawRun(qint64 runId);
    static QString withdrawnText();
    // Puts a run (a resubmitted point) into a study; 0 takes it out again.
    QString setRunStudy(qint64 runId, qint64 studyId);

private:
    QString connection(QSqlDatabase &db);   // this thread's open connection
    QString ensureMigrated(QSqlDatabase &db);
    QString migrate(QSqlDatabase &db);
    StoreResult<QList<RunRecord>> selectRuns(const QString &where, const QVariantList &binds);
    StoreResult<bool> updateStateIn(QSqlDatabase &db, qint64 runId, JobState state, const QString &reason,
                                    const QDateTime &at);
    QString saveAccountingIn(QSqlDatabase &db, qint64 runId, const SacctRecord &acct);

    QString m_dataDir;
    QString m_connectionPrefix;
    QMutex m_mutex;                // guards the two members below
    QSet<QString> m_connections;   // names created, removed in the destructor
    bool m_migrated = false;
    QString m_refusal;
};

} // namespace scalelab
