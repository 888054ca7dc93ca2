#pragma once

#include "core/analysis/RunMetricsTable.h"

#include <QStandardItemModel>
#include <QStringList>

namespace scalelab {

// The runs table: one row per run, columns = fixed run fields and any
// metric, optionally grouped under parent rows (study, cluster, framework,
// GPU count). Metric cells sort by number (SortRole). A run whose sampler
// found no GPU tool shows "no GPU samples" in its GPU sample columns.
class RunsTableModel : public QStandardItemModel {
    Q_OBJECT
public:
    enum class GroupBy { None, Study, Cluster, Framework, Gpus };
    static constexpr int RunIdRole = Qt::UserRole + 1;   // on every cell of a run row
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit RunsTableModel(QObject *parent = nullptr);

    void setTable(const RunMetricsTable &table);
    void setColumns(const QStringList &columns);
    void setGroupBy(GroupBy g);

    const RunMetricsTable &table() const { return m_table; }
    QStringList columns() const { return m_columns; }
    GroupBy groupBy() const { return m_groupBy; }
    // Fixed columns that help most plus the key metrics present in the table.
    static QStringList defaultColumns(const RunMetricsTable &table);
    // Tooltip of a metric cell: value, file and line, rule, formula.
    static QString provenance(const RunMetricsRow &row, const QString &column);
    static QString cellText(const RunMetricsRow &row, const QString &column);

private:
    void rebuild();
    QString groupKey(const RunMetricsRow &row) const;

    RunMetricsTable m_table;
    QStringList m_columns;
    GroupBy m_groupBy = GroupBy::None;
};

} // namespace scalelab
