// SPDX-License-Identifier: GPL-3.0-or-later
// RunStore: the one door to the store. It owns the connections (one per
// thread, StoreConnections) and hands each call to its query group, a class
// per file (RunStoreRuns, RunStoreStates, ...), where the SQL is.
#include "core/store/RunStore.h"

#include "core/store/RunStoreAlerts.h"
#include "core/store/RunStoreBatch.h"
#include "core/store/RunStoreFlags.h"
#include "core/store/RunStoreJobs.h"
#include "core/store/RunStoreRecords.h"
#include "core/store/RunStoreRuns.h"
#include "core/store/RunStoreSegments.h"
#include "core/store/RunStoreSeries.h"
#include "core/store/RunStoreSnapshots.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreStates.h"
#include "core/store/RunStoreStudies.h"
#include "core/store/RunStoreTable.h"

#include <QStandardPaths>

namespace scalelab {

RunStore::RunStore(const QString &dataDir)
    : m_connections(dataDir.isEmpty() ? defaultDataDirectory() : dataDir)
{}

RunStore::~RunStore() = default;

QString RunStore::defaultDataDirectory()
{
    const QString env = qEnvironmentVariable("SCALELAB_DATA_DIR");
    if (!env.isEmpty())
        return env;
    // Same as AppDataLocation for application "ScaleLab" without an
    // organisation, independent of what QCoreApplication was told.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/ScaleLab");
}

int RunStore::latestSchemaVersion()
{
    return int(runStoreMigrations().size());
}

QString RunStore::newToken()
{
    return RunStoreRuns::newToken();
}

QString RunStore::withdrawnText()
{
    return RunStoreFlags::withdrawnText();
}

QString RunStore::databasePath() const
{
    return m_connections.databasePath();
}

QString RunStore::runFilesDirectory(qint64 runId) const
{
    return m_connections.dataDirectory() + QStringLiteral("/runs/") + QString::number(runId);
}

Result<void> RunStore::open()
{
    QSqlDatabase db;
    return m_connections.connection(db);
}

void RunStore::setThreadBusyTimeout(int ms)
{
    m_connections.setThreadBusyTimeout(ms);
}

void RunStore::closeThreadConnection()
{
    m_connections.closeThreadConnection();
}

Result<int> RunStore::schemaVersion()
{
    QSqlDatabase db;
    if (auto e = m_connections.connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA user_version")); !e)
        return fail(e.error());
    return q.next() ? q.value(0).toInt() : 0;
}

Result<QString> RunStore::integrityCheck()
{
    QSqlDatabase db;
    if (auto e = m_connections.connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA integrity_check")); !e)
        return fail(e.error());
    QStringList lines;
    while (q.next())
        lines << q.value(0).toString();
    return lines.join(QLatin1Char('\n'));
}

// The query groups, in the order of RunStore.h.

Result<qint64> RunStore::createStudy(const StudyRecord &study)
{
    return RunStoreStudies(m_connections).createStudy(study);
}

Result<StudyRecord> RunStore::study(qint64 id)
{
    return RunStoreStudies(m_connections).study(id);
}

Result<QList<StudyRecord>> RunStore::studies()
{
    return RunStoreStudies(m_connections).studies();
}

Result<void> RunStore::setStudyNotes(qint64 id, const QString &notes)
{
    return RunStoreStudies(m_connections).setStudyNotes(id, notes);
}

Result<RunRecord> RunStore::createRun(const RunRecord &run)
{
    return RunStoreRuns(m_connections).createRun(run);
}

Result<QList<RunRecord>> RunStore::createRuns(const QList<RunRecord> &runs, const std::optional<StudyRecord> &study,
                                              const QList<std::optional<ProjectSnapshot>> &snapshots)
{
    return RunStoreBatch(m_connections).createRuns(runs, study, snapshots);
}

Result<std::optional<ProjectSnapshot>> RunStore::runSnapshot(qint64 runId)
{
    return RunStoreSnapshots(m_connections).runSnapshot(runId);
}

Result<RunRecord> RunStore::run(qint64 id)
{
    return RunStoreRuns(m_connections).run(id);
}

Result<RunRecord> RunStore::runByToken(const QString &token)
{
    return RunStoreRuns(m_connections).runByToken(token);
}

Result<QList<RunRecord>> RunStore::runs()
{
    return RunStoreRuns(m_connections).runs();
}

Result<QList<RunRecord>> RunStore::runsInStudy(qint64 studyId)
{
    return RunStoreRuns(m_connections).runsInStudy(studyId);
}

Result<QList<RunRecord>> RunStore::activeRuns(const QString &clusterAlias)
{
    return RunStoreRuns(m_connections).activeRuns(clusterAlias);
}

Result<QList<RunRecord>> RunStore::unresolvedRuns(const QString &clusterAlias)
{
    return RunStoreRuns(m_connections).unresolvedRuns(clusterAlias);
}

Result<QSet<QString>> RunStore::clustersWithWork()
{
    return RunStoreRuns(m_connections).clustersWithWork();
}

Result<qint64> RunStore::newestRunId()
{
    return RunStoreRuns(m_connections).newestRunId();
}

Result<void> RunStore::setRemoteDir(qint64 runId, const QString &remoteDir)
{
    return RunStoreRuns(m_connections).setRemoteDir(runId, remoteDir);
}

Result<void> RunStore::setSlurmVersion(qint64 runId, const QString &version)
{
    return RunStoreRuns(m_connections).setSlurmVersion(runId, version);
}

Result<void> RunStore::setSubmitState(qint64 runId, SubmitState state, const QString &rejection)
{
    return RunStoreRuns(m_connections).setSubmitState(runId, state, rejection);
}

Result<void> RunStore::markSubmitted(qint64 runId, const QString &jobId, SubmitState how)
{
    return RunStoreStates(m_connections).markSubmitted(runId, jobId, how);
}

Result<void> RunStore::markSubmittedSegments(qint64 runId, const QStringList &jobIds, SubmitState how)
{
    return RunStoreSegments(m_connections).markSubmittedSegments(runId, jobIds, how);
}

Result<void> RunStore::addSegment(qint64 runId, int segment, const QString &jobId)
{
    return RunStoreSegments(m_connections).addSegment(runId, segment, jobId);
}

Result<QList<SegmentRecord>> RunStore::segments(qint64 runId)
{
    return RunStoreSegments(m_connections).segments(runId);
}

Result<std::optional<QString>> RunStore::recordSegmentEnd(qint64 runId, const SacctRecord &acct)
{
    return RunStoreSegments(m_connections).recordSegmentEnd(runId, acct);
}

Result<bool> RunStore::updateState(qint64 runId, JobState state, const QString &reason, const QDateTime &at)
{
    return RunStoreStates(m_connections).updateState(runId, state, reason, at);
}

Result<QList<StateChange>> RunStore::stateHistory(qint64 runId)
{
    return RunStoreRecords(m_connections).stateHistory(runId);
}

Result<bool> RunStore::setExpectedStart(qint64 runId, const QString &start)
{
    return RunStoreRecords(m_connections).setExpectedStart(runId, start);
}

Result<QList<QueueWait>> RunStore::queueWaits()
{
    return RunStoreRecords(m_connections).queueWaits();
}

Result<void> RunStore::deleteRun(qint64 runId)
{
    return RunStoreRuns(m_connections).deleteRun(runId);
}

Result<void> RunStore::recordFinal(qint64 runId, const SacctRecord &acct, const QDateTime &at)
{
    return RunStoreRecords(m_connections).recordFinal(runId, acct, at);
}

Result<void> RunStore::saveAccounting(qint64 runId, const SacctRecord &acct)
{
    return RunStoreRecords(m_connections).saveAccounting(runId, acct);
}

Result<std::optional<SacctRecord>> RunStore::accounting(qint64 runId)
{
    return RunStoreRecords(m_connections).accounting(runId);
}

Result<void> RunStore::recordFile(const FileRecord &file)
{
    return RunStoreRecords(m_connections).recordFile(file);
}

Result<QList<FileRecord>> RunStore::files(qint64 runId)
{
    return RunStoreRecords(m_connections).files(runId);
}

Result<std::optional<FileRecord>> RunStore::file(qint64 runId, const QString &remotePath)
{
    return RunStoreRecords(m_connections).file(runId, remotePath);
}

Result<void> RunStore::setMetric(const MetricRecord &metric)
{
    return RunStoreSeries(m_connections).setMetric(metric);
}

Result<QList<MetricRecord>> RunStore::metrics(qint64 runId)
{
    return RunStoreRecords(m_connections).metrics(runId);
}

Result<void> RunStore::replaceRunMetrics(qint64 runId, const QList<MetricRecord> &metrics,
                                         const QList<MetricSeries> &series)
{
    return RunStoreSeries(m_connections).replaceRunMetrics(runId, metrics, series);
}

Result<QList<RunRecord>> RunStore::runsAwaitingIngest(const QString &clusterAlias)
{
    return RunStoreSeries(m_connections).runsAwaitingIngest(clusterAlias);
}

Result<RunTableRecords> RunStore::tableRecords(qint64 studyId, const QList<qint64> &runIds)
{
    return RunStoreTable(m_connections).tableRecords(studyId, runIds);
}

Result<JobsTreeRecords> RunStore::jobsRecords(const QList<qint64> &runIds)
{
    return RunStoreJobs(m_connections).jobsRecords(runIds);
}

Result<void> RunStore::setSeries(const MetricSeries &series)
{
    return RunStoreSeries(m_connections).setSeries(series);
}

Result<QList<MetricSeries>> RunStore::series(qint64 runId)
{
    return RunStoreSeries(m_connections).series(runId);
}

Result<void> RunStore::setHidden(qint64 runId, bool hidden)
{
    return RunStoreFlags(m_connections).setHidden(runId, hidden);
}

Result<QSet<qint64>> RunStore::hiddenRuns()
{
    return RunStoreFlags(m_connections).hiddenRuns();
}

Result<void> RunStore::setFailureLine(qint64 runId, const QString &line)
{
    return RunStoreFlags(m_connections).setFailureLine(runId, line);
}

Result<QHash<qint64, QString>> RunStore::failureLines()
{
    return RunStoreFlags(m_connections).failureLines();
}

Result<void> RunStore::withdrawRun(qint64 runId)
{
    return RunStoreFlags(m_connections).withdrawRun(runId);
}

Result<void> RunStore::setRunStudy(qint64 runId, qint64 studyId)
{
    return RunStoreFlags(m_connections).setRunStudy(runId, studyId);
}

Result<bool> RunStore::recordAlert(AlertRecord &alert)
{
    return RunStoreAlerts(m_connections).recordAlert(alert);
}

Result<QList<AlertRecord>> RunStore::alerts(const QList<qint64> &runIds)
{
    return RunStoreAlerts(m_connections).alerts(runIds);
}

Result<QList<AlertRecord>> RunStore::unnotifiedAlerts()
{
    return RunStoreAlerts(m_connections).unnotifiedAlerts();
}

Result<void> RunStore::markAlertsNotified(const QList<qint64> &alertIds)
{
    return RunStoreAlerts(m_connections).markAlertsNotified(alertIds);
}

}   // namespace scalelab
