#include "ui/results/RunsTableModel.h"

#include "core/model/MetricNames.h"

#include <QMap>

namespace scalelab {

RunsTableModel::RunsTableModel(QObject *parent) : QStandardItemModel(parent)
{
    setSortRole(SortRole);
}

QStringList RunsTableModel::defaultColumns(const RunMetricsTable &table)
{
    QStringList cols{QStringLiteral("id"),  QStringLiteral("study"), QStringLiteral("cluster"),
                     QStringLiteral("framework"), QStringLiteral("gpus"), QStringLiteral("jobId"),
                     QStringLiteral("state")};
    const QStringList wanted{metric::TrainTimeS,   metric::ElapsedS,       metric::SamplesPerS,
                             metric::Throughput,   metric::TestAccuracy,   metric::GpuUtilMeanPct,
                             metric::GpuHours,     metric::CpuEfficiency,  metric::QueueWaitS};
    for (const QString &m : wanted) {
        // One throughput column: the run summary when the logs print one.
        if (m == metric::Throughput && cols.contains(metric::SamplesPerS))
            continue;
        if (table.metricNames.contains(m))
            cols << m;
    }
    if (table.metricNames.contains(metric::GpuSamples) && !cols.contains(metric::GpuUtilMeanPct))
        cols << metric::GpuUtilMeanPct;   // so "no GPU samples" is visible
    return cols;
}

QString RunsTableModel::cellText(const RunMetricsRow &row, const QString &column)
{
    const bool gpuColumn = column == metric::GpuUtilMeanPct || column == metric::GpuUtilPeakPct
                           || column == metric::GpuMemMeanMiB || column == metric::GpuMemPeakMiB
                           || column == metric::GpusSampled;
    if (gpuColumn && !row.value(column) && row.value(metric::GpuSamples).value_or(-1) == 0)
        return tr("no GPU samples");
    if (RunMetricsTable::fixedColumns().contains(column))
        return row.text(column);
    const auto v = row.value(column);
    if (!v)
        return {};
    if (column == metric::CpuEfficiency)
        return QStringLiteral("%1 %").arg(*v * 100.0, 0, 'f', 1);
    return QString::number(*v, 'g', 6);
}

QString RunsTableModel::provenance(const RunMetricsRow &row, const QString &column)
{
    const auto it = row.metrics.find(column);
    if (it == row.metrics.end())
        return {};
    const MetricRecord &m = *it;
    QStringList lines;
    lines << tr("%1 = %2 %3").arg(m.name, QString::number(m.value, 'g', 10), m.unit).trimmed();
    if (!m.file.isEmpty())
        lines << (m.line > 0 ? tr("from %1, line %2").arg(m.file).arg(m.line) : tr("from %1").arg(m.file));
    else
        lines << tr("from %1").arg(m.source);
    if (!m.rule.isEmpty())
        lines << tr("rule: %1").arg(m.rule);
    if (!m.formula.isEmpty())
        lines << tr("computed: %1").arg(m.formula);
    return lines.join(u'\n');
}

void RunsTableModel::setTable(const RunMetricsTable &table)
{
    m_table = table;
    if (m_columns.isEmpty())
        m_columns = defaultColumns(table);
    rebuild();
}

void RunsTableModel::setColumns(const QStringList &columns)
{
    m_columns = columns;
    rebuild();
}

void RunsTableModel::setGroupBy(GroupBy g)
{
    m_groupBy = g;
    rebuild();
}

QString RunsTableModel::groupKey(const RunMetricsRow &row) const
{
    switch (m_groupBy) {
    case GroupBy::None: return {};
    case GroupBy::Study: return row.studyName.isEmpty() ? tr("(no study)") : row.studyName;
    case GroupBy::Cluster: return row.run.clusterAlias.isEmpty() ? tr("(no cluster)") : row.run.clusterAlias;
    case GroupBy::Framework: return row.run.framework.isEmpty() ? tr("(no framework)") : row.run.framework;
    case GroupBy::Gpus: return tr("%n GPU(s)", nullptr, row.run.gpus);
    }
    return {};
}

void RunsTableModel::rebuild()
{
    clear();
    setColumnCount(int(m_columns.size()));
    QStringList headers;
    for (const QString &c : m_columns)
        headers << RunMetricsTable::columnTitle(c, m_table.units.value(c));
    setHorizontalHeaderLabels(headers);

    auto makeRow = [this](const RunMetricsRow &r) {
        QList<QStandardItem *> items;
        for (const QString &c : m_columns) {
            auto *item = new QStandardItem(cellText(r, c));
            item->setEditable(false);
            item->setData(r.run.id, RunIdRole);
            QVariant sort;
            if (c == QLatin1String("id"))
                sort = r.run.id;
            else if (c == QLatin1String("gpus"))
                sort = r.run.gpus;
            else if (c == QLatin1String("nodes"))
                sort = r.run.nodes;
            else if (auto v = r.value(c))
                sort = *v;
            else
                sort = item->text();
            item->setData(sort, SortRole);
            if (item->text() == tr("no GPU samples"))
                item->setForeground(QColor(150, 90, 0));
            if (const QString tip = provenance(r, c); !tip.isEmpty())
                item->setToolTip(tip);
            items << item;
        }
        return items;
    };

    if (m_groupBy == GroupBy::None) {
        for (const RunMetricsRow &r : m_table.rows)
            appendRow(makeRow(r));
        return;
    }
    QMap<QString, QList<const RunMetricsRow *>> groups;
    for (const RunMetricsRow &r : m_table.rows)
        groups[groupKey(r)] << &r;
    auto keys = groups.keys();
    if (m_groupBy == GroupBy::Gpus)   // numeric order, not text order
        std::sort(keys.begin(), keys.end(), [&](const QString &a, const QString &b) {
            return groups[a].first()->run.gpus < groups[b].first()->run.gpus;
        });
    for (const QString &k : keys) {
        auto *parent = new QStandardItem(tr("%1 (%n run(s))", nullptr, int(groups[k].size())).arg(k));
        parent->setEditable(false);
        parent->setData(k, SortRole);
        QFont f = parent->font();
        f.setBold(true);
        parent->setFont(f);
        QList<QStandardItem *> head{parent};
        for (int i = 1; i < m_columns.size(); ++i) {
            auto *blank = new QStandardItem;
            blank->setEditable(false);
            head << blank;
        }
        for (const RunMetricsRow *r : groups[k])
            parent->appendRow(makeRow(*r));
        appendRow(head);
    }
}

} // namespace scalelab

#include "moc_RunsTableModel.cpp"
