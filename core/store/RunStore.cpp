// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/RunStore.h"

#include "core/base/Logging.h"
#include "core/base/PrivateFiles.h"
#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreTransaction.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStandardPaths>

namespace scalelab {

namespace {

QString terminalStateList()
{
    QStringList ids;
    for (int i = int(JobState::Unknown); i <= int(JobState::SpecialExit); ++i)
        if (SlurmJobState::isTerminal(JobState(i)))
            ids << QLatin1Char('\'') + SlurmJobState::id(JobState(i)) + QLatin1Char('\'');
    return ids.join(QLatin1Char(','));
}

// An UPDATE/DELETE by id that matched nothing: the id is unknown.
Result<void> oneRowChanged(const QSqlQuery &q, const QString &what, qint64 id)
{
    if (q.numRowsAffected() == 1)
        return success();
    return fail(ErrorCode::NotFound, QStringLiteral("run store: no %1 with id %2").arg(what).arg(id));
}

}   // namespace

RunStore::RunStore(const QString &dataDir)
    : m_dataDir(dataDir.isEmpty() ? defaultDataDirectory() : dataDir)
{
    static QAtomicInteger<quint64> stores(1);
    m_connectionPrefix = QStringLiteral("scalelab-runstore-%1").arg(stores.fetchAndAddRelaxed(1));
}

RunStore::~RunStore()
{
    QMutexLocker lock(&m_mutex);
    for (const QString &name : std::as_const(m_connections))
        QSqlDatabase::removeDatabase(name);
}

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
    quint64 v = QRandomGenerator::system()->generate64();
    return QStringLiteral("sl-%1").arg(v, 16, 16, QLatin1Char('0'));
}

QString RunStore::databasePath() const
{
    return m_dataDir + QStringLiteral("/runs.sqlite");
}

QString RunStore::runFilesDirectory(qint64 runId) const
{
    return m_dataDir + QStringLiteral("/runs/") + QString::number(runId);
}

Result<void> RunStore::open()
{
    QSqlDatabase db;
    return connection(db);
}

void RunStore::closeThreadConnection()
{
    const QString name = threadConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    QMutexLocker lock(&m_mutex);
    m_connections.remove(name);
    m_connectionGeneration.remove(name);
}

Result<int> RunStore::schemaVersion()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA user_version")); !e)
        return fail(e.error());
    return q.next() ? q.value(0).toInt() : 0;
}

Result<QString> RunStore::integrityCheck()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("PRAGMA integrity_check")); !e)
        return fail(e.error());
    QStringList lines;
    while (q.next())
        lines << q.value(0).toString();
    return lines.join(QLatin1Char('\n'));
}

Result<qint64> RunStore::createStudy(const StudyRecord &study)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    return insertStudyIn(db, study);
}

Result<qint64> RunStore::insertStudyIn(QSqlDatabase &db, const StudyRecord &study)
{
    if (study.name.trimmed().isEmpty())
        return fail(ErrorCode::InvalidValue, QStringLiteral("run store: a study needs a name"));
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("INSERT INTO studies (name, created, spec_template, notes) VALUES (?, ?, ?, ?)"),
            {study.name, RunStoreSql::toText(study.created), QString::fromUtf8(study.specTemplateJson), study.notes});
        !e)
        return fail(e.error());
    return q.lastInsertId().toLongLong();
}

Result<StudyRecord> RunStore::study(qint64 id)
{
    auto all = studies();
    if (!all.ok())
        return fail(all.error());
    for (const auto &s : *all)
        if (s.id == id)
            return s;
    return fail(ErrorCode::NotFound, QStringLiteral("run store: no study with id %1").arg(id));
}

Result<QList<StudyRecord>> RunStore::studies()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT id, name, created, spec_template, notes FROM studies ORDER BY id"));
        !e)
        return fail(e.error());
    QList<StudyRecord> out;
    while (q.next())
        out << StudyRecord{q.value(0).toLongLong(), q.value(1).toString(), RunStoreSql::fromText(q.value(2)),
                           q.value(3).toString().toUtf8(), q.value(4).toString()};
    return out;
}

Result<void> RunStore::setStudyNotes(qint64 id, const QString &notes)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("UPDATE studies SET notes = ? WHERE id = ?"), {notes, id}); !e)
        return fail(e.error());
    return oneRowChanged(q, QStringLiteral("study"), id);
}

Result<RunRecord> RunStore::createRun(const RunRecord &in)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    const Result<qint64> id = insertRunIn(db, in);
    if (!id)
        return fail(id.error());
    // Re-read so the caller sees exactly what was stored (timestamps rounded to ms).
    return run(*id);
}

Result<qint64> RunStore::insertRunIn(QSqlDatabase &db, const RunRecord &in)
{
    RunRecord r = in;
    if (r.token.isEmpty())
        r.token = newToken();
    r.submitState = SubmitState::Intent;
    r.state = JobState::Unknown;
    r.jobId.clear();
    r.created = r.updated = QDateTime::currentDateTimeUtc();
    QSqlQuery q(db);
    const Result<void> e = RunStoreSql::exec(
        q,
        QStringLiteral(
            "INSERT INTO runs (study_id, token, profile, cluster_alias, partition, gpus, nodes, framework,"
            " spec_json, script, remote_dir, job_id, state, reason, submit_state, rejection, created,"
            " updated, spec_file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, 'intent', '', ?, ?, ?)"),
        {r.studyId > 0 ? QVariant(r.studyId) : QVariant(QMetaType::fromType<qint64>()), r.token, r.profile,
         r.clusterAlias, r.partition, r.gpus, r.nodes, r.framework, QString::fromUtf8(r.specJson), r.script,
         r.remoteDir, SlurmJobState::id(r.state), r.reason, RunStoreSql::toText(r.created),
         RunStoreSql::toText(r.updated), r.specFile});
    if (!e)
        return fail(e.error());
    return q.lastInsertId().toLongLong();
}

Result<QList<RunRecord>> RunStore::selectRuns(const QString &where, const QVariantList &binds)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (auto e = RunStoreSql::exec(
            q,
            QStringLiteral("SELECT %1 FROM runs %2 ORDER BY id").arg(QLatin1String(RunStoreSql::runColumns()), where),
            binds);
        !e)
        return fail(e.error());
    QList<RunRecord> out;
    while (q.next())
        out << RunStoreSql::readRun(QueryColumns{q});
    return out;
}

Result<RunRecord> RunStore::run(qint64 id)
{
    auto r = selectRuns(QStringLiteral("WHERE id = ?"), {id});
    if (!r.ok())
        return fail(r.error());
    if (r->isEmpty())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(id));
    return r->first();
}

Result<RunRecord> RunStore::runByToken(const QString &token)
{
    auto r = selectRuns(QStringLiteral("WHERE token = ?"), {token});
    if (!r.ok())
        return fail(r.error());
    if (r->isEmpty())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with token %1").arg(token));
    return r->first();
}

Result<QList<RunRecord>> RunStore::runs()
{
    return selectRuns({}, {});
}

Result<QList<RunRecord>> RunStore::runsInStudy(qint64 studyId)
{
    return selectRuns(QStringLiteral("WHERE study_id = ?"), {studyId});
}

Result<QList<RunRecord>> RunStore::activeRuns(const QString &clusterAlias)
{
    return selectRuns(QStringLiteral("WHERE cluster_alias = ? AND job_id <> '' AND submit_state IN "
                                     "('submitted','reconciled') AND state NOT IN (%1)")
                          .arg(terminalStateList()),
                      {clusterAlias});
}

Result<QList<RunRecord>> RunStore::unresolvedRuns(const QString &clusterAlias)
{
    return selectRuns(QStringLiteral("WHERE cluster_alias = ? AND submit_state IN ('intent','uploaded','unknown')"),
                      {clusterAlias});
}

Result<QSet<QString>> RunStore::clustersWithWork()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q, QStringLiteral("SELECT DISTINCT cluster_alias FROM runs WHERE cluster_alias <> '' "
                                                "AND ((job_id <> '' AND state NOT IN (%1)) "
                                                "OR submit_state IN ('uploaded','unknown'))")
                                     .arg(terminalStateList()));
        !e)
        return fail(e.error());
    QSet<QString> out;
    while (q.next())
        out.insert(q.value(0).toString());
    return out;
}

Result<qint64> RunStore::newestRunId()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM runs")); !e)
        return fail(e.error());
    return q.next() ? q.value(0).toLongLong() : 0;
}

Result<void> RunStore::setSlurmVersion(qint64 runId, const QString &version)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET slurm_version = ? WHERE id = ?"), {version, runId});
        !e)
        return fail(e.error());
    return oneRowChanged(q, QStringLiteral("run"), runId);
}

Result<void> RunStore::setRemoteDir(qint64 runId, const QString &remoteDir)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET remote_dir = ?, updated = ? WHERE id = ?"),
                                   {remoteDir, RunStoreSql::toText({}), runId});
        !e)
        return fail(e.error());
    return oneRowChanged(q, QStringLiteral("run"), runId);
}

Result<void> RunStore::setSubmitState(qint64 runId, SubmitState state, const QString &rejection)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("UPDATE runs SET submit_state = ?, rejection = ?, updated = ? WHERE id = ?"),
            {submitStateId(state), rejection, RunStoreSql::toText({}), runId});
        !e)
        return fail(e.error());
    if (auto e = oneRowChanged(q, QStringLiteral("run"), runId); !e)
        return e;
    // The rejection text is Slurm's and may quote the script: not logged.
    qCInfo(lcStore).noquote() << QStringLiteral("run %1: submission %2").arg(runId).arg(submitStateId(state));
    return success();
}

Result<void> RunStore::markSubmitted(qint64 runId, const QString &jobId, SubmitState how)
{
    return recordSubmission(runId, {jobId}, how, false);
}

Result<void> RunStore::recordSubmission(qint64 runId, const QStringList &jobIds, SubmitState how, bool asSegments)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("UPDATE runs SET job_id = ?, submit_state = ?, rejection = '', updated = ? WHERE id = ?"),
            {jobIds.first(), submitStateId(how), RunStoreSql::toText({}), runId});
        !e)
        return fail(e.error());
    if (auto e = oneRowChanged(q, QStringLiteral("run"), runId); !e)
        return e;
    for (qsizetype i = 0; asSegments && i < jobIds.size(); ++i) {
        // A segment already known (an earlier reconcile) keeps what it has.
        if (auto e = RunStoreSql::exec(
                q, QStringLiteral("INSERT OR IGNORE INTO run_segments (run_id, segment, job_id) VALUES (?, ?, ?)"),
                {runId, int(i + 1), jobIds.at(i)});
            !e)
            return fail(e.error());
    }
    if (auto st = updateStateIn(db, runId, JobState::Pending, {}, {}); !st)
        return fail(st.error());
    if (auto e = tx.commit(); !e)
        return e;
    qCInfo(lcStore).noquote() << QStringLiteral("run %1: submission %2, job %3")
                                     .arg(runId)
                                     .arg(submitStateId(how), jobIds.join(QStringLiteral(", ")));
    return success();
}

Result<bool> RunStore::updateState(qint64 runId, JobState state, const QString &reason, const QDateTime &at)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return fail(e.error());
    auto r = updateStateIn(db, runId, state, reason, at);
    if (!r.ok())
        return r;
    if (auto e = tx.commit(); !e)
        return fail(e.error());
    return r;
}

Result<bool> RunStore::updateStateIn(QSqlDatabase &db, qint64 runId, JobState state, const QString &reason,
                                     const QDateTime &at)
{
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT state, reason FROM runs WHERE id = ?"), {runId}); !e)
        return fail(e.error());
    if (!q.next())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(runId));
    const QString newState = SlurmJobState::id(state);
    const QString oldState = q.value(0).toString();
    if (oldState == newState && q.value(1).toString() == reason)
        return false;
    q.finish();
    const QString when = RunStoreSql::toText(at);
    QSqlQuery u(db);
    if (auto e = RunStoreSql::exec(u, QStringLiteral("UPDATE runs SET state = ?, reason = ?, updated = ? WHERE id = ?"),
                                   {newState, reason, when, runId});
        !e)
        return fail(e.error());
    QSqlQuery h(db);
    if (auto e = RunStoreSql::exec(
            h, QStringLiteral("INSERT INTO state_history (run_id, state, reason, at) VALUES (?, ?, ?, ?)"),
            {runId, newState, reason, when});
        !e)
        return fail(e.error());
    // Slurm's reason words (Resources, Priority, ...) carry no user values.
    qCInfo(lcStore).noquote() << QStringLiteral("run %1: state %2 -> %3%4")
                                     .arg(runId)
                                     .arg(oldState, newState,
                                          reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason));
    return true;
}

Result<void> RunStore::deleteRun(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return e;
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("DELETE FROM runs WHERE id = ?"), {runId}); !e)
        return fail(e.error());
    return oneRowChanged(q, QStringLiteral("run"), runId);
}

}   // namespace scalelab
