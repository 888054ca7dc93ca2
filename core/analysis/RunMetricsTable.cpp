#include "core/analysis/RunMetricsTable.h"

#include "core/model/MetricNames.h"
#include "core/store/RunStore.h"

#include <cmath>

namespace scalelab {

namespace {

int sourceRank(const QString &source)
{
    if (source == metric::SourcePattern) return 4;
    if (source == metric::SourceLog) return 3;
    if (source == metric::SourceGpu) return 2;
    if (source == metric::SourceSacct) return 1;
    return 0;
}

QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString number(double v)
{
    return QString::number(v, 'g', 10);
}

nlohmann::ordered_json rowJson(const RunMetricsRow &r)
{
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const MetricRecord &m : r.metrics)
        metrics[m.name.toStdString()] = {{"value", std::isfinite(m.value) ? nlohmann::ordered_json(m.value)
                                                                           : nlohmann::ordered_json()},
                                         {"unit", m.unit.toStdString()},
                                         {"source", m.source.toStdString()}};
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

} // namespace

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
    if (column == QLatin1String("id")) return QString::number(run.id);
    if (column == QLatin1String("study")) return studyName;
    if (column == QLatin1String("cluster")) return run.clusterAlias;
    if (column == QLatin1String("partition")) return run.partition;
    if (column == QLatin1String("framework")) return run.framework;
    if (column == QLatin1String("gpus")) return QString::number(run.gpus);
    if (column == QLatin1String("nodes")) return QString::number(run.nodes);
    if (column == QLatin1String("jobId")) return run.jobId;
    if (column == QLatin1String("state")) return stateText();
    if (column == QLatin1String("created")) return run.created.toString(Qt::ISODate);
    const auto v = value(column);
    return v ? number(*v) : QString();
}

QStringList RunMetricsTable::fixedColumns()
{
    return {QStringLiteral("id"),   QStringLiteral("study"), QStringLiteral("cluster"),
            QStringLiteral("partition"), QStringLiteral("framework"), QStringLiteral("gpus"),
            QStringLiteral("nodes"), QStringLiteral("jobId"), QStringLiteral("state"), QStringLiteral("created")};
}

QString RunMetricsTable::columnTitle(const QString &column, const QString &unit)
{
    static const QMap<QString, QString> fixed = {
        {QStringLiteral("id"), QStringLiteral("Run")},         {QStringLiteral("study"), QStringLiteral("Study")},
        {QStringLiteral("cluster"), QStringLiteral("Cluster")}, {QStringLiteral("partition"), QStringLiteral("Partition")},
        {QStringLiteral("framework"), QStringLiteral("Framework")}, {QStringLiteral("gpus"), QStringLiteral("GPUs")},
        {QStringLiteral("nodes"), QStringLiteral("Nodes")},     {QStringLiteral("jobId"), QStringLiteral("Job")},
        {QStringLiteral("state"), QStringLiteral("State")},     {QStringLiteral("created"), QStringLiteral("Created")}};
    if (fixed.contains(column))
        return fixed.value(column);
    return unit.isEmpty() ? column : QStringLiteral("%1 [%2]").arg(column, unit);
}

RunMetricsTable RunMetricsTable::load(RunStore &store, qint64 studyId)
{
    RunMetricsTable t;
    const auto studies = store.studies();
    if (!studies.ok()) {
        t.error = studies.errorText();
        return t;
    }
    QMap<qint64, QString> studyNames;
    for (const StudyRecord &s : studies.value())
        studyNames.insert(s.id, s.name);
    const auto runs = studyId > 0 ? store.runsInStudy(studyId) : store.runs();
    if (!runs.ok()) {
        t.error = runs.errorText();
        return t;
    }
    QSet<QString> names;
    for (const RunRecord &r : runs.value()) {
        if (studyId == 0 && r.studyId != 0)
            continue;
        RunMetricsRow row;
        row.run = r;
        row.studyName = studyNames.value(r.studyId);
        const auto acct = store.accounting(r.id);
        if (acct.ok())
            row.accounting = acct.value();
        const auto ms = store.metrics(r.id);
        if (!ms.ok()) {
            t.error = ms.errorText();
            return t;
        }
        for (const MetricRecord &m : ms.value()) {
            auto it = row.metrics.find(m.name);
            if (it == row.metrics.end() || sourceRank(m.source) > sourceRank(it->source))
                row.metrics.insert(m.name, m);
            names.insert(m.name);
            if (!t.units.contains(m.name) || t.units.value(m.name).isEmpty())
                t.units.insert(m.name, m.unit);
        }
        t.rows.append(row);
    }
    std::sort(t.rows.begin(), t.rows.end(),
              [](const RunMetricsRow &a, const RunMetricsRow &b) { return a.run.id < b.run.id; });
    t.metricNames = QStringList(names.begin(), names.end());
    t.metricNames.sort();
    return t;
}

const RunMetricsRow *RunMetricsTable::find(qint64 runId) const
{
    for (const RunMetricsRow &r : rows)
        if (r.run.id == runId)
            return &r;
    return nullptr;
}

QString RunMetricsTable::toCsv(const QList<qint64> &rowIds, const QStringList &columns) const
{
    const QStringList cols = columns.isEmpty() ? fixedColumns() + metricNames : columns;
    QStringList header;
    for (const QString &c : cols)
        header << csvField(columnTitle(c, units.value(c)));
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const RunMetricsRow &r : rows) {
        if (!rowIds.isEmpty() && !rowIds.contains(r.run.id))
            continue;
        QStringList fields;
        for (const QString &c : cols)
            fields << csvField(r.text(c));
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

nlohmann::ordered_json RunMetricsTable::toJson(const QList<qint64> &rowIds) const
{
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const RunMetricsRow &r : rows)
        if (rowIds.isEmpty() || rowIds.contains(r.run.id))
            arr.push_back(rowJson(r));
    return arr;
}

nlohmann::ordered_json runsWithMetricsJson(RunStore &store)
{
    const RunMetricsTable t = RunMetricsTable::load(store);
    if (!t.error.isEmpty())
        return {{"error", t.error.toStdString()}};
    return t.toJson();
}

} // namespace scalelab
