// SPDX-License-Identifier: GPL-3.0-or-later
// RunStoreRecords: what is learnt about a run after submission (history,
// accounting, fetched files, metrics read back). A state change is written by
// RunStoreStates; metrics and series by RunStoreSeries.
#include "core/store/RunStoreRecords.h"

#include "core/store/RunStoreSql.h"
#include "core/store/RunStoreStates.h"
#include "core/store/RunStoreTransaction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace scalelab {

namespace {

QString linesToJson(const QList<QMap<QString, QString>> &lines)
{
    QJsonArray arr;
    for (const auto &line : lines) {
        QJsonObject o;
        for (auto it = line.begin(); it != line.end(); ++it)
            o.insert(it.key(), it.value());
        arr.append(o);
    }
    return QString::fromUtf8(QJsonDocument(arr).toJson(QJsonDocument::Compact));
}

QList<QMap<QString, QString>> linesFromJson(const QString &json)
{
    QList<QMap<QString, QString>> out;
    if (json.isEmpty() || json == QLatin1String("[]"))
        return out;   // most rows: no JSON parser for nothing
    const QJsonArray arr = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const auto &v : arr) {
        QMap<QString, QString> line;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            line.insert(it.key(), it.value().toString());
        out << line;
    }
    return out;
}

}   // namespace

Result<QList<StateChange>> RunStoreRecords::stateHistory(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("SELECT state, reason, at FROM state_history WHERE run_id = ? ORDER BY id"), {runId});
        !e)
        return fail(e.error());
    QList<StateChange> out;
    while (q.next())
        out << StateChange{runId, SlurmJobState::parse(q.value(0).toString()), q.value(1).toString(),
                           RunStoreSql::fromText(q.value(2))};
    return out;
}

Result<bool> RunStoreRecords::setExpectedStart(qint64 runId, const QString &start)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q, QStringLiteral("UPDATE runs SET expected_start = ? WHERE id = ? AND expected_start <> ?"),
            {start, runId, start});
        !e)
        return fail(e.error());
    return q.numRowsAffected() > 0;
}

// Waits behind a dependency, a hold or a --begin time say nothing about the queue: left out.
Result<QList<QueueWait>> RunStoreRecords::queueWaits()
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(
            q,
            QStringLiteral("SELECT r.cluster_alias, COALESCE(NULLIF(a.partition, ''), r.partition), r.gpus, m.value"
                           " FROM metrics m JOIN runs r ON r.id = m.run_id LEFT JOIN accounting a ON a.run_id = r.id"
                           " WHERE m.name = 'queue_wait_s' AND NOT EXISTS (SELECT 1 FROM state_history h"
                           " WHERE h.run_id = r.id AND h.reason IN ('Dependency', 'JobHeldUser', 'JobHeldAdmin',"
                           " 'BeginTime', 'DependencyNeverSatisfied')) ORDER BY r.id"),
            {});
        !e)
        return fail(e.error());
    QList<QueueWait> out;
    while (q.next())
        out << QueueWait{q.value(0).toString(), q.value(1).toString(), q.value(2).toInt(), q.value(3).toDouble()};
    return out;
}

Result<void> RunStoreRecords::recordFinal(qint64 runId, const SacctRecord &acct, const QDateTime &at)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    RunStoreTransaction tx(db);
    if (auto e = tx.begin(); !e)
        return fail(e.error());
    auto st = RunStoreStates::updateStateIn(db, runId, acct.state,
                                            acct.reason == QLatin1String("None") ? QString() : acct.reason, at);
    if (!st)
        return fail(st.error());
    if (auto e = saveAccountingIn(db, runId, acct); !e)
        return fail(e.error());
    QSqlQuery q(db);   // an ended job expects no start
    if (auto e = RunStoreSql::exec(q, QStringLiteral("UPDATE runs SET expected_start = '' WHERE id = ?"), {runId}); !e)
        return fail(e.error());
    return tx.commit();
}

Result<void> RunStoreRecords::saveAccounting(qint64 runId, const SacctRecord &acct)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    return saveAccountingIn(db, runId, acct);
}

Result<void> RunStoreRecords::saveAccountingIn(QSqlDatabase &db, qint64 runId, const SacctRecord &a)
{
    QSqlQuery q(db);
    return RunStoreSql::exec(
        q,
        QStringLiteral("INSERT OR REPLACE INTO accounting (run_id, job_id, state, exit_code, submit_time, start_time,"
                       " end_time, elapsed, alloc_tres, max_rss, node_list, reason, total_cpu, alloc_cpus, partition,"
                       " account, tres_usage_in_ave, tres_usage_in_max, timelimit, job_name, work_dir, comment, raw,"
                       " lines_json, recorded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                       " ?, ?, ?, ?)"),
        {runId,
         a.jobId,
         a.stateText,
         a.exitCode,
         a.submit,
         a.start,
         a.end,
         a.elapsed,
         a.allocTres,
         a.maxRss,
         a.nodeList,
         a.reason,
         a.totalCpu,
         a.allocCpus,
         a.partition,
         a.account,
         a.tresUsageInAve,
         a.tresUsageInMax,
         a.timelimit,
         a.jobName,
         a.workDir,
         a.comment,
         a.rawLines.join(QLatin1Char('\n')),
         linesToJson(a.lines),
         RunStoreSql::toText({})});
}

const char *RunStoreRecords::accountingColumns()
{
    return "job_id, state, exit_code, submit_time, start_time, end_time, elapsed, alloc_tres, max_rss, node_list,"
           " reason, total_cpu, alloc_cpus, partition, account, tres_usage_in_ave, tres_usage_in_max, timelimit,"
           " job_name, work_dir, comment, raw, lines_json";
}

template <class Columns>
SacctRecord RunStoreRecords::readAccounting(const Columns &c, int first)
{
    SacctRecord a;
    int i = first;
    a.jobId = c.text(i++);
    a.stateText = c.label(i++);
    a.state = SlurmJobState::parse(a.stateText);
    a.exitCode = c.label(i++);
    a.submit = c.text(i++);
    a.start = c.text(i++);
    a.end = c.text(i++);
    a.elapsed = c.text(i++);
    a.allocTres = c.label(i++);
    a.maxRss = c.text(i++);
    a.nodeList = c.label(i++);
    a.reason = c.label(i++);
    a.totalCpu = c.text(i++);
    a.allocCpus = int(c.integer(i++));
    a.partition = c.label(i++);
    a.account = c.label(i++);
    a.tresUsageInAve = c.text(i++);
    a.tresUsageInMax = c.text(i++);
    a.timelimit = c.label(i++);
    a.jobName = c.label(i++);
    a.workDir = c.label(i++);
    a.comment = c.label(i++);
    const QString raw = c.text(i++);
    a.rawLines = raw.isEmpty() ? QStringList() : raw.split(QLatin1Char('\n'));
    a.lines = linesFromJson(c.text(i++));
    return a;
}
template SacctRecord RunStoreRecords::readAccounting(const QueryColumns &, int);
template SacctRecord RunStoreRecords::readAccounting(const CursorColumns &, int);

Result<std::optional<SacctRecord>> RunStoreRecords::accounting(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q,
                                   QStringLiteral("SELECT %1 FROM accounting WHERE run_id = ?")
                                       .arg(QLatin1String(RunStoreRecords::accountingColumns())),
                                   {runId});
        !e)
        return fail(e.error());
    if (!q.next())
        return std::nullopt;
    return RunStoreRecords::readAccounting(QueryColumns{q}, 0);
}

Result<void> RunStoreRecords::recordFile(const FileRecord &f)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    return RunStoreSql::exec(
        q,
        QStringLiteral("INSERT OR REPLACE INTO files (run_id, remote_path, local_path, size,"
                       " fetched_offset, fetched_at) VALUES (?, ?, ?, ?, ?, ?)"),
        {f.runId, f.remotePath, f.localPath, f.size, f.fetchedOffset, RunStoreSql::toText(f.fetchedAt)});
}

Result<QList<FileRecord>> RunStoreRecords::files(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e = RunStoreSql::exec(q,
                                   QStringLiteral("SELECT remote_path, local_path, size, fetched_offset, fetched_at"
                                                  " FROM files WHERE run_id = ? ORDER BY remote_path"),
                                   {runId});
        !e)
        return fail(e.error());
    QList<FileRecord> out;
    while (q.next())
        out << FileRecord{runId,
                          q.value(0).toString(),
                          q.value(1).toString(),
                          q.value(2).toLongLong(),
                          q.value(3).toLongLong(),
                          RunStoreSql::fromText(q.value(4))};
    return out;
}

Result<std::optional<FileRecord>> RunStoreRecords::file(qint64 runId, const QString &remotePath)
{
    auto all = files(runId);
    if (!all.ok())
        return fail(all.error());
    for (const auto &f : *all)
        if (f.remotePath == remotePath)
            return f;
    return std::nullopt;
}

Result<QList<MetricRecord>> RunStoreRecords::metrics(qint64 runId)
{
    QSqlDatabase db;
    if (auto e = connection(db); !e)
        return fail(e.error());
    QSqlQuery q(db);
    if (auto e =
            RunStoreSql::exec(q,
                              QStringLiteral("SELECT name, value, unit, source, file, line, rule, formula FROM metrics"
                                             " WHERE run_id = ? ORDER BY name, source"),
                              {runId});
        !e)
        return fail(e.error());
    QList<MetricRecord> out;
    while (q.next())
        out << MetricRecord{runId,
                            q.value(0).toString(),
                            q.value(1).toDouble(),
                            q.value(2).toString(),
                            q.value(3).toString(),
                            q.value(4).toString(),
                            q.value(5).toLongLong(),
                            q.value(6).toString(),
                            q.value(7).toString()};
    return out;
}

}   // namespace scalelab
