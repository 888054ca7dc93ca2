// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/RunsTableModel.h"

#include "core/analysis/MetricGlossary.h"

#include "core/model/MetricNames.h"

#include <QColor>
#include <QFont>
#include <QMap>

#include <algorithm>
#include <optional>
#include <vector>

namespace scalelab {

namespace {

// Group rows have internal id 0 at the top level; a run row inside group g
// has internal id g + 1. Ungrouped run rows are top-level (id 0).
constexpr quintptr TopLevel = 0;

QString noSamplesText()
{
    return RunsTableModel::tr("no GPU samples");
}

}   // namespace

RunsTableModel::RunsTableModel(QObject *parent)
    : QAbstractItemModel(parent)
{}

QStringList RunsTableModel::defaultColumns(const RunMetricsTable &table)
{
    QStringList cols{QStringLiteral("id"),        QStringLiteral("study"), QStringLiteral("cluster"),
                     QStringLiteral("framework"), QStringLiteral("gpus"),  QStringLiteral("jobId"),
                     QStringLiteral("state"),     QStringLiteral("slurm")};
    const QStringList wanted{metric::TrainTimeS,       metric::ElapsedS,       metric::SamplesPerS, metric::Throughput,
                             metric::TestAccuracy,     metric::GpuUtilMeanPct, metric::GpuHours,    metric::EnergyWh,
                             metric::EnergyJPerSample, metric::CpuEfficiency,  metric::QueueWaitS};
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
        return noSamplesText();
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
    if (const QString meaning = metricDescription(m.name); !meaning.isEmpty())
        lines << meaning;
    return lines.join(u'\n');
}

void RunsTableModel::setTable(const RunMetricsTable &table)
{
    m_table = table;
    if (m_columns.isEmpty())
        m_columns = defaultColumns(table);
    rebuild();
}

void RunsTableModel::setTable(const RunMetricsTable &table, const QStringList &columns)
{
    // One reset for both: setting them one after the other arranged 100,000
    // rows twice on the GUI thread.
    m_table = table;
    m_columns = columns;
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

void RunsTableModel::setFilter(const QString &text)
{
    const QString lower = text.toLower();
    if (lower == m_filter)
        return;
    m_filter = lower;
    beginResetModel();
    arrange();
    endResetModel();
}

void RunsTableModel::rebuild()
{
    beginResetModel();
    m_haystacks.clear();
    arrange();
    endResetModel();
}

QString RunsTableModel::haystack(const RunMetricsRow &row) const
{
    QStringList cells;
    for (const QString &c : m_columns)
        cells << cellText(row, c);
    return cells.join(QChar(0x1f)).toLower();   // a separator no filter text contains
}

bool RunsTableModel::rowVisible(int tableRow) const
{
    if (m_filter.isEmpty())
        return true;
    if (m_haystacks.size() != m_table.rows.size()) {
        m_haystacks.clear();
        m_haystacks.reserve(m_table.rows.size());
        for (const RunMetricsRow &r : m_table.rows)
            m_haystacks << haystack(r);
    }
    return m_haystacks[tableRow].contains(m_filter);
}

void RunsTableModel::patchRows(const RunMetricsTable &patch, const QList<qint64> &asked)
{
    m_table.studies = patch.studies;
    m_table.hiddenCount = patch.hiddenCount;
    mergeNames(patch);
    QList<RunMetricsRow> replaced, added;
    QList<qint64> gone;
    bool rearrange = false;
    for (qint64 id : asked) {
        const RunMetricsRow *now = patch.find(id);
        const RunMetricsRow *before = m_table.find(id);
        if (!before && now)
            added << *now;
        else if (before && !now)
            gone << id;
        if (!before || !now)
            continue;
        replaced << *now;
        rearrange = rearrange || !staysInPlace(int(before - m_table.rows.constData()), *now);
    }
    std::sort(added.begin(), added.end(), [](const auto &a, const auto &b) { return a.run.id < b.run.id; });
    if (rearrange || !gone.isEmpty() || (!added.isEmpty() && !appendsAtEnd(added))) {
        applyPatch(replaced, gone, added);
        rebuild();
        return;
    }
    for (const RunMetricsRow &row : std::as_const(replaced)) {
        const int at = int(m_table.find(row.run.id) - m_table.rows.constData());
        m_table.rows[at] = row;
        if (m_haystacks.size() == m_table.rows.size())
            m_haystacks[at] = haystack(row);
        if (const QModelIndex first = indexOfRun(row.run.id); first.isValid())   // filtered out: nothing shown
            Q_EMIT dataChanged(first, indexOfRun(row.run.id, int(m_columns.size()) - 1));
    }
    if (added.isEmpty())
        return;
    beginInsertRows({}, int(m_top.size()), int(m_top.size() + added.size()) - 1);
    for (const RunMetricsRow &row : std::as_const(added)) {
        m_top << int(m_table.rows.size());
        m_table.rows << row;
    }
    m_haystacks.clear();   // built again when a filter asks
    endInsertRows();
}

bool RunsTableModel::staysInPlace(int tableRow, const RunMetricsRow &now) const
{
    const RunMetricsRow &before = m_table.rows.at(tableRow);
    if (groupKey(before) != groupKey(now) || before.run.id != now.run.id)
        return false;
    if (!m_filter.isEmpty() && rowVisible(tableRow) != haystack(now).contains(m_filter))
        return false;
    if (m_sortColumn < 0 || m_sortColumn >= m_columns.size() || m_columns[m_sortColumn] == QLatin1String("id"))
        return true;
    const QString &column = m_columns[m_sortColumn];
    return cellText(before, column) == cellText(now, column) && before.value(column) == now.value(column);
}

bool RunsTableModel::appendsAtEnd(const QList<RunMetricsRow> &added) const
{
    // Only a flat table in ascending id order, unfiltered, grows at its end.
    if (m_groupBy != GroupBy::None || !m_filter.isEmpty() || m_sortOrder != Qt::AscendingOrder)
        return false;
    if (m_sortColumn < 0 || m_sortColumn >= m_columns.size() || m_columns[m_sortColumn] != QLatin1String("id"))
        return false;
    return m_table.rows.isEmpty() || added.first().run.id > m_table.rows.last().run.id;
}

void RunsTableModel::mergeNames(const RunMetricsTable &patch)
{
    for (const QString &name : patch.metricNames) {
        if (!m_table.metricNames.contains(name)) {
            m_table.metricNames << name;
            m_table.metricNames.sort();
        }
        if (m_table.units.value(name).isEmpty())
            m_table.units.insert(name, patch.units.value(name));
    }
}

void RunsTableModel::applyPatch(const QList<RunMetricsRow> &replaced, const QList<qint64> &gone,
                                const QList<RunMetricsRow> &added)
{
    for (const RunMetricsRow &row : replaced)
        m_table.rows[int(m_table.find(row.run.id) - m_table.rows.constData())] = row;
    m_table.rows.removeIf([&gone](const RunMetricsRow &r) { return gone.contains(r.run.id); });
    for (const RunMetricsRow &row : added) {   // kept in id order (find's binary search)
        const auto at = std::lower_bound(m_table.rows.begin(), m_table.rows.end(), row.run.id,
                                         [](const RunMetricsRow &r, qint64 id) { return r.run.id < id; });
        m_table.rows.insert(at, row);
    }
}

void RunsTableModel::arrange()
{
    m_top.clear();
    m_groups.clear();
    if (m_groupBy == GroupBy::None) {
        m_top.reserve(m_table.rows.size());
        for (int i = 0; i < m_table.rows.size(); ++i)
            if (rowVisible(i))
                m_top << i;
        sortRows(m_top);
        return;
    }
    QMap<QString, QList<int>> groups;
    for (int i = 0; i < m_table.rows.size(); ++i)
        if (rowVisible(i))
            groups[groupKey(m_table.rows.at(i))] << i;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        sortRows(it.value());
        m_groups << Group{it.key(), it.value()};
    }
    if (m_groupBy == GroupBy::Gpus)   // numeric order, not text order
        std::stable_sort(m_groups.begin(), m_groups.end(), [this](const Group &a, const Group &b) {
            return m_table.rows.at(a.rows.first()).run.gpus < m_table.rows.at(b.rows.first()).run.gpus;
        });
    if (m_sortColumn == 0 && m_sortOrder == Qt::DescendingOrder)
        std::reverse(m_groups.begin(), m_groups.end());
}

void RunsTableModel::sortRows(QList<int> &rows) const
{
    if (m_sortColumn < 0 || m_sortColumn >= m_columns.size())
        return;
    const QString &column = m_columns[m_sortColumn];
    if (column == QLatin1String("id")) {
        // The default order and the table's own: arrange() lists table rows
        // in ascending order and the table keeps runs in id order, so
        // 100,000 rows are not sorted again on the GUI thread.
        if (m_sortOrder == Qt::DescendingOrder)
            std::reverse(rows.begin(), rows.end());
        return;
    }
    // One key per row, computed once: numbers sort before text, by value.
    struct Keyed {
        std::optional<double> number;
        QString text;
        int row;
    };
    enum class Kind { Gpus, Nodes, Other };
    const Kind kind = column == QLatin1String("gpus")    ? Kind::Gpus
                      : column == QLatin1String("nodes") ? Kind::Nodes
                                                         : Kind::Other;
    std::vector<Keyed> keyed;
    keyed.reserve(rows.size());
    for (int i : rows) {
        const RunMetricsRow &r = m_table.rows[i];
        Keyed k{{}, {}, i};
        if (kind == Kind::Gpus)
            k.number = r.run.gpus;
        else if (kind == Kind::Nodes)
            k.number = r.run.nodes;
        else if (auto v = r.value(column))
            k.number = *v;
        else
            k.text = cellText(r, column);
        keyed.push_back(std::move(k));
    }
    auto less = [](const Keyed &a, const Keyed &b) {
        if (a.number && b.number)
            return *a.number < *b.number;
        if (a.number || b.number)
            return bool(a.number);
        return QString::compare(a.text, b.text, Qt::CaseInsensitive) < 0;
    };
    if (m_sortOrder == Qt::AscendingOrder)
        std::stable_sort(keyed.begin(), keyed.end(), less);
    else
        std::stable_sort(keyed.begin(), keyed.end(), [&less](const Keyed &a, const Keyed &b) { return less(b, a); });
    for (qsizetype i = 0; i < rows.size(); ++i)
        rows[i] = keyed[size_t(i)].row;
}

QString RunsTableModel::groupKey(const RunMetricsRow &row) const
{
    switch (m_groupBy) {
    case GroupBy::None:
        return {};
    case GroupBy::Study:
        return row.studyName.isEmpty() ? tr("(no study)") : row.studyName;
    case GroupBy::Cluster:
        return row.run.clusterAlias.isEmpty() ? tr("(no cluster)") : row.run.clusterAlias;
    case GroupBy::Framework:
        return row.run.framework.isEmpty() ? tr("(no framework)") : row.run.framework;
    case GroupBy::Gpus:
        return tr("%n GPU(s)", nullptr, row.run.gpus);
    }
    return {};
}

QModelIndex RunsTableModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= m_columns.size())
        return {};
    if (!parent.isValid()) {
        const int rows = m_groupBy == GroupBy::None ? int(m_top.size()) : int(m_groups.size());
        return row < rows ? createIndex(row, column, TopLevel) : QModelIndex();
    }
    if (m_groupBy == GroupBy::None || parent.internalId() != TopLevel || parent.row() >= m_groups.size())
        return {};
    if (row >= m_groups[parent.row()].rows.size())
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex RunsTableModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == TopLevel)
        return {};
    return createIndex(int(child.internalId() - 1), 0, TopLevel);
}

int RunsTableModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_groupBy == GroupBy::None ? int(m_top.size()) : int(m_groups.size());
    if (m_groupBy == GroupBy::None || parent.internalId() != TopLevel || parent.column() != 0)
        return 0;
    return int(m_groups.value(parent.row()).rows.size());
}

int RunsTableModel::columnCount(const QModelIndex &) const
{
    return int(m_columns.size());
}

int RunsTableModel::tableRow(const QModelIndex &index) const
{
    if (!index.isValid())
        return -1;
    if (m_groupBy == GroupBy::None)
        return m_top.value(index.row(), -1);
    if (index.internalId() == TopLevel)
        return -1;
    return m_groups.value(int(index.internalId() - 1)).rows.value(index.row(), -1);
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const int row = tableRow(index);
    if (row < 0) {   // a group row
        const Group &g = m_groups[index.row()];
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == 0 ? tr("%1 (%n run(s))", nullptr, int(g.rows.size())).arg(g.key) : QVariant();
        case SortRole:
            return g.key;
        case Qt::FontRole: {
            QFont f;
            f.setBold(true);
            return f;
        }
        default:
            return {};
        }
    }
    const RunMetricsRow &r = m_table.rows[row];
    const QString &column = m_columns[index.column()];
    switch (role) {
    case Qt::DisplayRole:
        return cellText(r, column);
    case RunIdRole:
        return r.run.id;
    case SortRole:
        if (column == QLatin1String("id"))
            return r.run.id;
        if (column == QLatin1String("gpus"))
            return r.run.gpus;
        if (column == QLatin1String("nodes"))
            return r.run.nodes;
        if (auto v = r.value(column))
            return *v;
        return cellText(r, column);
    case Qt::ForegroundRole:
        if (cellText(r, column) == noSamplesText())
            return QColor(150, 90, 0);
        if (r.hidden)
            return QColor(0x80, 0x80, 0x80);   // listed only with "Show hidden", greyed as in Jobs
        return {};
    case Qt::ToolTipRole: {   // where the number came from
        const QString tip = provenance(r, column);
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    default:
        return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
        return {};
    if (role == Qt::ToolTipRole) {   // what the column means; each cell's tooltip says where its value came from
        const QString d = metricDescription(m_columns[section]);
        return d.isEmpty() ? QVariant() : QVariant(d);
    }
    if (role != Qt::DisplayRole)
        return {};
    return RunMetricsTable::columnTitle(m_columns[section], m_table.units.value(m_columns[section]));
}

RunsTableModel::RowKey RunsTableModel::keyOf(const QModelIndex &index) const
{
    const int row = tableRow(index);
    if (row >= 0)
        return {m_table.rows[row].run.id, {}};
    if (index.isValid() && m_groupBy != GroupBy::None)
        return {-1, m_groups.value(index.row()).key};
    return {};
}

QModelIndex RunsTableModel::indexOf(const RowKey &key, int column) const
{
    if (key.runId >= 0)
        return indexOfRun(key.runId, column);
    for (int g = 0; g < m_groups.size(); ++g)
        if (m_groups[g].key == key.group)
            return createIndex(g, column, TopLevel);
    return {};
}

QModelIndex RunsTableModel::indexOfRun(qint64 runId, int column) const
{
    // The table's rows are in id order (RunMetricsTable::find's binary search).
    const RunMetricsRow *found = m_table.find(runId);
    if (!found)
        return {};
    const int row = int(found - m_table.rows.constData());
    if (m_groupBy == GroupBy::None) {
        const qsizetype at = m_top.indexOf(row);
        return at < 0 ? QModelIndex() : createIndex(int(at), column, TopLevel);
    }
    const QString key = groupKey(m_table.rows[row]);
    for (int g = 0; g < m_groups.size(); ++g) {
        if (m_groups[g].key != key)
            continue;
        const qsizetype at = m_groups[g].rows.indexOf(row);
        return at < 0 ? QModelIndex() : createIndex(int(at), column, quintptr(g) + 1);
    }
    return {};
}

void RunsTableModel::sort(int column, Qt::SortOrder order)
{
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    // A layout change, not a reset: the view keeps its selection and
    // expanded groups, which follow their runs to the new places.
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<RowKey> keys;
    keys.reserve(before.size());
    for (const QModelIndex &i : before)
        keys << keyOf(i);
    m_sortColumn = column;
    m_sortOrder = order;
    arrange();
    QModelIndexList after;
    after.reserve(before.size());
    for (int i = 0; i < before.size(); ++i)
        after << indexOf(keys[i], before[i].column());
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

}   // namespace scalelab
