// SPDX-License-Identifier: GPL-3.0-or-later
// ResultsPlace: the columns menu and the table and chart exports.
#include "ui/results/ResultsPlace.h"

#include "ui/results/ChartExportDialog.h"
#include "ui/results/ChartExporter.h"
#include "ui/results/EpochCurves.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/StudyChartBuilder.h"
#include "ui/results/StudyCharts.h"

#include <QMenu>

namespace scalelab {

void ResultsPlace::showColumnsMenu()
{
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const QStringList current = m_model->columns();
    auto addColumn = [&](const QString &c) {
        QAction *a = menu->addAction(RunMetricsTable::columnTitle(c, m_table.units.value(c)));
        a->setCheckable(true);
        a->setChecked(current.contains(c));
        connect(a, &QAction::toggled, this, [this, c](bool on) {
            QStringList cols = m_model->columns();
            if (on && !cols.contains(c))
                cols << c;
            else if (!on)
                cols.removeAll(c);
            const QList<qint64> keep = m_selectionOrder;
            m_customColumns = true;
            m_model->setColumns(cols);
            expandGroups();
            selectRuns(keep);
        });
    };
    const QStringList fixed = RunMetricsTable::fixedColumns();
    for (const QString &c : fixed)
        addColumn(c);
    menu->addSeparator();
    for (const QString &c : m_table.metricNames)
        if (!fixed.contains(c))   // "gpus" and "nodes" are fixed columns and metrics: listed once
            addColumn(c);
    menu->setObjectName(QStringLiteral("columnsMenu"));
    menu->popup(m_columns->mapToGlobal(QPoint(0, m_columns->height())));
}

QStringList ResultsPlace::exportChoices() const
{
    const qsizetype all = m_table.rows.size(), sel = m_selectionOrder.size();
    return {all == 1 ? tr("The 1 run of the table (CSV or JSON)…")
                     : tr("All %1 runs of the table (CSV or JSON)…").arg(all),
            sel == 0   ? tr("Selected runs only (none selected)")
            : sel == 1 ? tr("Only the 1 selected run (CSV or JSON)…")
                       : tr("Only the %1 selected runs (CSV or JSON)…").arg(sel)};
}

QString ResultsPlace::columnsMenuTitles() const
{
    QStringList titles;
    const QStringList fixed = RunMetricsTable::fixedColumns();
    for (const QString &c : fixed)
        titles << RunMetricsTable::columnTitle(c, m_table.units.value(c));
    for (const QString &c : m_table.metricNames)
        if (!fixed.contains(c))
            titles << RunMetricsTable::columnTitle(c, m_table.units.value(c));
    return titles.join(u'\n');
}

Result<void> ResultsPlace::exportTableTo(const QString &path, bool selectedOnly) const
{
    const QList<qint64> ids = selectedOnly ? selectedRunIds() : QList<qint64>{};
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return ChartExporter::saveText(path, QByteArray::fromStdString(m_table.toJson(ids).dump(2)));
    return ChartExporter::saveText(path, m_table.toCsv(ids, m_model->columns()).toUtf8());
}

void ResultsPlace::exportTable(bool selectedOnly)
{
    const QList<qint64> ids = selectedOnly ? selectedRunIds() : QList<qint64>{};
    if (selectedOnly && ids.isEmpty())
        return;
    const QStringList cols = m_model->columns();
    const RunMetricsTable table = m_table;
    const int count = selectedOnly ? int(ids.size()) : int(table.rows.size());
    ChartExporter::askAndSaveTable(
        this, selectedOnly ? QStringLiteral("scalelab-runs-selected") : QStringLiteral("scalelab-runs-all"),
        [table, ids, cols] { return table.toCsv(ids, cols).toUtf8(); },
        [table, ids] { return QByteArray::fromStdString(table.toJson(ids).dump(2)); });
    m_status->setText(selectedOnly ? tr("Exporting the selected runs (%1)…").arg(count)
                                   : tr("Exporting all runs of the table (%1)…").arg(count));
}

void ResultsPlace::exportChart()
{
    QList<QPair<QString, QCustomPlot *>> charts;
    for (StudyChart c : StudyChartBuilder::all())
        charts.append({StudyChartBuilder::title(c), m_charts->chart(c)});
    charts.append({tr("Loss per epoch"), m_epochs->lossPlot()});
    charts.append({tr("Throughput per epoch"), m_epochs->throughputPlot()});
    QString base = QStringLiteral("study");
    for (const StudyRecord &s : m_table.studies)
        if (s.id == m_chartStudy)
            base = s.name;
    auto *dlg = new ChartExportDialog(charts, base.simplified().replace(QLatin1Char(' '), QLatin1Char('-')), this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &ChartExportDialog::saved, this,
            [this](const QString &path) { m_status->setText(tr("Chart saved to %1.").arg(path)); });
    dlg->show();
}

}   // namespace scalelab
