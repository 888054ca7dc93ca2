// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/RunMetricsTable.h"

#include "core/base/CsvText.h"
#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

int sourceRank(const QString &source)
{
    if (source == metric::SourcePattern)
        return 4;
    if (source == metric::SourceLog)
        return 3;
    if (source == metric::SourceGpu)
        return 2;
    if (source == metric::SourceSacct)
        return 1;
    return 0;
}

QString tableNumber(double v)
{
    return QString::number(v, 'g', 10);
}

nlohmann::ordered_json rowJson(const RunMetricsRow &r)
{
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const MetricRecord &m : r.metrics) {
        nlohmann::ordered_json e = {
            {"value", std::isfinite(m.value) ? nlohmann::ordered_json(m.value) : nlohmann::ordered_json()},
            {"unit", m.unit.toStdString()},
            {"source", m.source.toStdString()}};
        // Where it came from, when it was read from a file.
        if (!m.file.isEmpty())
            e["file"] = m.file.toStdString();
        if (m.line > 0)
            e["line"] = m.line;
        if (!m.rule.isEmpty())
            e["rule"] = m.rule.toStdString();
        if (!m.formula.isEmpty())
            e["formula"] = m.formula.toStdString();
        metrics[m.name.toStdString()] = e;
    }
    nlohmann::ordered_json j;
    j["id"] = r.run.id;
    j["study"] = r.run.studyId;
    j["studyName"] = r.studyName.toStdString();
    j["token"] = r.run.token.toStdString();
    j["profile"] = r.run.profile.toStdString();
    j["cluster"] = r.run.clusterAlias.toStdString();
    j["partition"] = r.run.partition.toStdString();
    j["gpus"] = r.run.gpus;
    j["nodes"] = r.run.nodes;
    j["framework"] = r.run.framework.toStdString();
    j["jobId"] = r.run.jobId.toStdString();
    j["state"] = SlurmJobState::id(r.run.state).toStdString();
    j["submitState"] = submitStateId(r.run.submitState).toStdString();
    j["created"] = r.run.created.toString(Qt::ISODate).toStdString();
    j["metrics"] = metrics;
    return j;
}

}   // namespace

std::optional<double> RunMetricsRow::value(const QString &name) const
{
    auto it = metrics.constFind(name);
    if (it == metrics.constEnd() || !std::isfinite(it->value))
        return std::nullopt;
    return it->value;
}

QString RunMetricsRow::stateText() const
{
    return run.hasJob() ? SlurmJobState::id(run.state) : submitStateId(run.submitState);
}

QString RunMetricsRow::text(const QString &column) const
{
    if (column == QLatin1String("id"))
        return QString::number(run.id);
    if (column == QLatin1String("study"))
        return studyName;
    if (column == QLatin1String("cluster"))
        return run.clusterAlias;
    if (column == QLatin1String("slurm"))
        return run.slurmVersion;
    if (column == QLatin1String("partition"))
        return run.partition;
    if (column == QLatin1String("framework"))
        return run.framework;
    if (column == QLatin1String("gpus"))
        return QString::number(run.gpus);
    if (column == QLatin1String("nodes"))
        return QString::number(run.nodes);
    if (column == QLatin1String("jobId"))
        return run.jobId;
    if (column == QLatin1String("state"))
        return stateText();
    if (column == QLatin1String("created"))
        return run.created.toString(Qt::ISODate);
    const auto v = value(column);
    return v ? tableNumber(*v) : QString();
}

QStringList RunMetricsTable::fixedColumns()
{
    // Built once: the runs table asks for every cell it draws.
    static const QStringList columns{
        QStringLiteral("id"),        QStringLiteral("study"),   QStringLiteral("cluster"), QStringLiteral("partition"),
        QStringLiteral("framework"), QStringLiteral("gpus"),    QStringLiteral("nodes"),   QStringLiteral("jobId"),
        QStringLiteral("state"),     QStringLiteral("created"), QStringLiteral("slurm")};
    return columns;
}

QString RunMetricsTable::columnTitle(const QString &column, const QString &unit)
{
    static const QMap<QString, QString> fixed = {{QStringLiteral("id"), QStringLiteral("Run")},
                                                 {QStringLiteral("study"), QStringLiteral("Study")},
                                                 {QStringLiteral("cluster"), QStringLiteral("Cluster")},
                                                 {QStringLiteral("slurm"), QStringLiteral("Slurm")},
                                                 {QStringLiteral("partition"), QStringLiteral("Partition")},
                                                 {QStringLiteral("framework"), QStringLiteral("Framework")},
                                                 {QStringLiteral("gpus"), QStringLiteral("GPUs")},
                                                 {QStringLiteral("nodes"), QStringLiteral("Nodes")},
                                                 {QStringLiteral("jobId"), QStringLiteral("Job")},
                                                 {QStringLiteral("state"), QStringLiteral("State")},
                                                 {QStringLiteral("created"), QStringLiteral("Created")}};
    if (fixed.contains(column))
        return fixed.value(column);
    return unit.isEmpty() ? column : QStringLiteral("%1 [%2]").arg(column, unit);
}

RunMetricsTable RunMetricsTable::load(RunStore &store, qint64 studyId, HiddenRuns hidden, const QList<qint64> &runIds)
{
    RunMetricsTable t;
    auto read = store.tableRecords(studyId, runIds);
    if (!read.ok()) {
        t.error = read.errorText();
        return t;
    }
    const auto flags = store.hiddenRuns();
    if (!flags.ok()) {
        t.error = flags.errorText();
        return t;
    }
    const QSet<qint64> &hiddenIds = *flags;
    RunTableRecords &records = *read;
    t.studies = records.studies;
    QHash<qint64, QString> studyNames;
    for (const StudyRecord &s : std::as_const(records.studies))
        studyNames.insert(s.id, s.name);
    QSet<QString> names;
    t.rows.reserve(records.runs.size());
    for (RunRecord &r : records.runs) {
        if (studyId == 0 && r.studyId != 0)
            continue;
        const bool isHidden = hiddenIds.contains(r.id);
        if (isHidden) {
            ++t.hiddenCount;
            // Left out before its metrics are read: no column for a metric only a hidden run has.
            if (hidden == HiddenRuns::LeaveOut)
                continue;
        }
        RunMetricsRow row;
        row.hidden = isHidden;
        row.studyName = studyNames.value(r.studyId);
        // Taken from the records, which go after this: moved, not copied.
        if (auto acct = records.accounting.find(r.id); acct != records.accounting.end())
            row.accounting = std::move(*acct);
        const auto runMetrics = records.metrics.find(r.id);
        const qsizetype metricCount = runMetrics == records.metrics.end() ? 0 : runMetrics->size();
        for (qsizetype i = 0; i < metricCount; ++i) {
            const MetricRecord &m = runMetrics->at(i);
            auto it = row.metrics.find(m.name);
            if (it == row.metrics.end() || sourceRank(m.source) > sourceRank(it->source))
                row.metrics.insert(m.name, m);
            if (!names.contains(m.name)) {
                names.insert(m.name);
                t.units.insert(m.name, m.unit);
            } else if (t.units.value(m.name).isEmpty()) {
                t.units.insert(m.name, m.unit);
            }
        }
        row.run = std::move(r);
        t.rows.append(std::move(row));
    }
    if (!runIds.isEmpty())   // a patch: the count is the whole store's
        t.hiddenCount = int(hiddenIds.size());
    // The store returns runs by id already; kept sorted for find().
    t.metricNames = QStringList(names.begin(), names.end());
    t.metricNames.sort();
    return t;
}

const RunMetricsRow *RunMetricsTable::find(qint64 runId) const
{
    // Rows are in id order (load() keeps the store's order, see `rows`): a
    // binary search, since selections and exports ask for many ids of 100,000 rows.
    auto it = std::lower_bound(rows.begin(), rows.end(), runId,
                               [](const RunMetricsRow &r, qint64 id) { return r.run.id < id; });
    return it != rows.end() && it->run.id == runId ? &*it : nullptr;
}

QString RunMetricsTable::toCsv(const QList<qint64> &rowIds, const QStringList &columns) const
{
    const QStringList cols = columns.isEmpty() ? fixedColumns() + metricNames : columns;
    QStringList header;
    for (const QString &c : cols)
        header << CsvText::field(columnTitle(c, units.value(c)));
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    const QSet<qint64> wanted(rowIds.begin(), rowIds.end());
    for (const RunMetricsRow &r : rows) {
        if (!wanted.isEmpty() && !wanted.contains(r.run.id))
            continue;
        QStringList fields;
        for (const QString &c : cols)
            fields << CsvText::field(r.text(c));
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

nlohmann::ordered_json RunMetricsTable::toJson(const QList<qint64> &rowIds) const
{
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    const QSet<qint64> wanted(rowIds.begin(), rowIds.end());
    for (const RunMetricsRow &r : rows)
        if (wanted.isEmpty() || wanted.contains(r.run.id))
            arr.push_back(rowJson(r));
    return arr;
}

nlohmann::ordered_json runsWithMetricsJson(RunStore &store, HiddenRuns hidden)
{
    const RunMetricsTable t = RunMetricsTable::load(store, -1, hidden);
    if (!t.error.isEmpty())
        return {{"error", t.error.toStdString()}};
    nlohmann::ordered_json arr = t.toJson();
    // Only where hidden runs can appear: the default document stays as it was.
    if (hidden == HiddenRuns::Include)
        for (qsizetype i = 0; i < t.rows.size(); ++i)
            arr[size_t(i)]["hidden"] = t.rows[i].hidden;
    return arr;
}

}   // namespace scalelab
