// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"

#include <QAbstractItemModel>
#include <QStringList>

namespace scalelab {

// The runs table: one row per run, columns = fixed run fields and any
// metric, optionally grouped under parent rows (study, cluster, framework,
// GPU count). Metric cells sort by number. A run whose sampler found no GPU
// tool shows "no GPU samples" in its GPU sample columns.
//
// Cells are computed when the view asks for them, and sorting and filtering
// happen here on row indexes (no proxy, no item per cell): a table of
// 100,000 runs is swapped in without stalling the GUI thread.
class RunsTableModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum class GroupBy { None, Study, Cluster, Framework, Gpus };
    static constexpr int RunIdRole = Qt::UserRole + 1;   // on every cell of a run row
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit RunsTableModel(QObject *parent = nullptr);

    void setTable(const RunMetricsTable &table);
    void setTable(const RunMetricsTable &table, const QStringList &columns);
    // After a change to a few runs (`asked`: their ids; `patch`: what the
    // store holds of them now, without those gone or left out): a run whose
    // place in the view stays has its row changed (dataChanged), new runs
    // after the last one of an id-ordered flat table are inserted
    // (rowsInserted); only a run that moves, leaves or arrives elsewhere
    // rearranges the rows (a reset, from the table held, nothing read again).
    void patchRows(const RunMetricsTable &patch, const QList<qint64> &asked);
    void setColumns(const QStringList &columns);
    void setGroupBy(GroupBy g);
    // Rows with any shown cell containing `text` (case-insensitive); a group
    // is shown while one of its runs is.
    void setFilter(const QString &text);

    const RunMetricsTable &table() const { return m_table; }
    QStringList columns() const { return m_columns; }
    GroupBy groupBy() const { return m_groupBy; }
    QModelIndex indexOfRun(qint64 runId, int column = 0) const;   // invalid when filtered out
    // Fixed columns that help most plus the key metrics present in the table.
    static QStringList defaultColumns(const RunMetricsTable &table);
    static QString cellText(const RunMetricsRow &row, const QString &column);
    // Tooltip of a metric cell: value, file and line, rule, formula.
    static QString provenance(const RunMetricsRow &row, const QString &column);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    struct Group {
        QString key;
        QList<int> rows;   // indexes into m_table.rows, in display order
    };
    // Identity of a row that survives re-sorting: a run id or a group key.
    struct RowKey {
        qint64 runId = -1;
        QString group;
    };

    void rebuild();   // visible rows + order from scratch (model reset)
    QString haystack(const RunMetricsRow &row) const;   // lower-case shown text, for the filter
    bool staysInPlace(int tableRow, const RunMetricsRow &now) const;
    bool appendsAtEnd(const QList<RunMetricsRow> &added) const;
    void mergeNames(const RunMetricsTable &patch);
    void applyPatch(const QList<RunMetricsRow> &replaced, const QList<qint64> &gone, const QList<RunMetricsRow> &added);
    void arrange();   // grouping, filter and sort into m_top / m_groups
    void sortRows(QList<int> &rows) const;
    bool rowVisible(int tableRow) const;
    int tableRow(const QModelIndex &index) const;   // -1 for a group row
    QString groupKey(const RunMetricsRow &row) const;
    RowKey keyOf(const QModelIndex &index) const;
    QModelIndex indexOf(const RowKey &key, int column) const;

    RunMetricsTable m_table;
    QStringList m_columns;
    GroupBy m_groupBy = GroupBy::None;
    QString m_filter;
    int m_sortColumn = 0;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    QList<int> m_top;   // ungrouped: table rows in display order
    QList<Group> m_groups;   // grouped: visible groups in display order
    mutable QStringList m_haystacks;   // per table row, lower-case shown text; built on first filter
};

}   // namespace scalelab
