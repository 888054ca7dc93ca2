// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreRuns: the runs table; a stored run row back into a RunRecord, written
// once for QSqlQuery and for SqliteCursor (RunStoreSql.h).
#include "core/store/RunStoreRuns.h"

#include "core/base/Logging.h"
#include "core/store/RunStoreSql.h"

#include <QRandomGenerator>

namespace scalelab {

namespace {

const char *kRunColumns = "id, study_id, token, profile, cluster_alias, partition, gpus, nodes, framework,"
                          " spec_json, script, remote_dir, job_id, state, reason, submit_state, rejection,"
                          " created, updated, slurm_version, spec_file, expected_start";

QString terminalStateList()
{
    QStringList ids;
    for (int i = int(JobState::Unknown); i <= int(JobState::SpecialExit); ++i)
        if (SlurmJobState::isTerminal(JobState(i)))
            ids << QLatin1Char('\'') + SlurmJobState::id(JobState(i)) + QLatin1Char('\'');
    return ids.join(QLatin1Char(','));
}

}   // namespace

QString RunStoreRuns::newToken()
{
    quint64 v = QRandomGenerator::system()->generate64();
    return QStringLiteral("sl-%1").arg(v, 16, 16, QLatin1Char('0'));
}

Result<RunRecord> RunStoreRuns::createRun(const RunRecord &in)
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

Result<qint64> RunStoreRuns::insertRunIn(QSqlDatabase &db, const RunRecord &in)
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

Result<QList<RunRecord>> RunStoreRuns::selectRuns(const QString &where, const QVariantList &binds)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT %1 FROM runs %2 ORDER BY id").arg(QLatin1String(runColumns()), where), binds);
        !e)
        return fail(e.error());
    QList<RunRecord> out;
    while (q.next())
        out << readRun(QueryColumns{q});
    return out;
}

Result<RunRecord> RunStoreRuns::run(qint64 id)
{
    auto r = selectRuns(QStringLiteral("WHERE id = ?"), {id});
    if (!r.ok())
        return fail(r.error());
    if (r->isEmpty())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with id %1").arg(id));
    return r->first();
}

Result<RunRecord> RunStoreRuns::runByToken(const QString &token)
{
    auto r = selectRuns(QStringLiteral("WHERE token = ?"), {token});
    if (!r.ok())
        return fail(r.error());
    if (r->isEmpty())
        return fail(ErrorCode::NotFound, QStringLiteral("run store: no run with token %1").arg(token));
    return r->first();
}

Result<QList<RunRecord>> RunStoreRuns::runs()
{
    return selectRuns({}, {});
}

Result<QList<RunRecord>> RunStoreRuns::runsInStudy(qint64 studyId)
{
    return selectRuns(QStringLiteral("WHERE study_id = ?"), {studyId});
}

Result<QList<RunRecord>> RunStoreRuns::activeRuns(const QString &clusterAlias)
{
    return selectRuns(QStringLiteral("WHERE cluster_alias = ? AND job_id <> '' AND submit_state IN "
                                     "('submitted','reconciled') AND state NOT IN (%1)")
                          .arg(terminalStateList()),
                      {clusterAlias});
}

Result<QList<RunRecord>> RunStoreRuns::unresolvedRuns(const QString &clusterAlias)
{
    return selectRuns(QStringLiteral("WHERE cluster_alias = ? AND submit_state IN ('intent','uploaded','unknown')"),
                      {clusterAlias});
}

Result<QSet<QString>> RunStoreRuns::clustersWithWork()
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

Result<qint64> RunStoreRuns::newestRunId()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM runs")); !e)
        return fail(e.error());
    return q.next() ? q.value(0).toLongLong() : 0;
}

Result<void> RunStoreRuns::setSlurmVersion(qint64 runId, const QString &version)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET slurm_version = ? WHERE id = ?"), {version, runId});
        !e)
        return fail(e.error());
    return RunStoreSql::oneRowChanged(q, QStringLiteral("run"), runId);
}

Result<void> RunStoreRuns::setRemoteDir(qint64 runId, const QString &remoteDir)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET remote_dir = ?, updated = ? WHERE id = ?"),
                                   {remoteDir, RunStoreSql::toText({}), runId});
        !e)
        return fail(e.error());
    return RunStoreSql::oneRowChanged(q, QStringLiteral("run"), runId);
}

Result<void> RunStoreRuns::setSubmitState(qint64 runId, SubmitState state, const QString &rejection)
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
    if (auto e = RunStoreSql::oneRowChanged(q, QStringLiteral("run"), runId); !e)
        return e;
    // The rejection text is Slurm's and may quote the script: not logged.
    qCInfo(lcStore).noquote() << QStringLiteral("run %1: submission %2").arg(runId).arg(submitStateId(state));
    return success();
}

Result<void> RunStoreRuns::deleteRun(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return e;
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q, QStringLiteral("DELETE FROM runs WHERE id = ?"), {runId}); !e)
        return fail(e.error());
    return RunStoreSql::oneRowChanged(q, QStringLiteral("run"), runId);
}

const char *RunStoreRuns::runColumns()
{
    return kRunColumns;
}

template <class Columns>
RunRecord RunStoreRuns::readRun(const Columns &c)
{
    RunRecord r;
    r.id = c.integer(0);
    r.studyId = c.isNull(1) ? 0 : c.integer(1);
    r.token = c.text(2);
    r.profile = c.label(3);
    r.clusterAlias = c.label(4);
    r.partition = c.label(5);
    r.gpus = int(c.integer(6));
    r.nodes = int(c.integer(7));
    r.framework = c.label(8);
    r.specJson = c.utf8(9);
    r.script = c.text(10);
    r.remoteDir = c.text(11);
    r.jobId = c.text(12);
    r.state = SlurmJobState::parse(c.label(13));
    r.reason = c.label(14);
    r.submitState = submitStateFromId(c.label(15)).value_or(SubmitState::Unknown);
    r.rejection = c.label(16);
    r.created = c.time(17);
    r.updated = c.time(18);
    r.slurmVersion = c.label(19);
    r.specFile = c.label(20);
    r.expectedStart = c.label(21);
    static_assert(RunStoreRuns::kRunColumnCount == 22, "readRun reads every column of runColumns()");
    return r;
}
template RunRecord RunStoreRuns::readRun(const QueryColumns &);
template RunRecord RunStoreRuns::readRun(const CursorColumns &);

}   // namespace scalelab
