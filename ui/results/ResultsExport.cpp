// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ResultsExport.h"

#include "ui/results/ChartExportDialog.h"
#include "ui/results/ChartExporter.h"
#include "ui/results/EpochCurves.h"
#include "ui/results/QCustomPlotInclude.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/StudyChartBuilder.h"
#include "ui/results/StudyCharts.h"

namespace scalelab {

ResultsExport::ResultsExport(const RunsTableModel &model, StudyCharts *charts, EpochCurves *epochs,
                             QWidget *dialogParent)
    : QObject(dialogParent)
    , m_model(model)
    , m_charts(charts)
    , m_epochs(epochs)
    , m_dialogParent(dialogParent)
{}

QStringList ResultsExport::tableChoices(qsizetype selected) const
{
    const qsizetype all = m_model.table().rows.size();
    return {all == 1 ? tr("The 1 run of the table (CSV or JSON)…")
                     : tr("All %1 runs of the table (CSV or JSON)…").arg(all),
            selected == 0   ? tr("Selected runs only (none selected)")
            : selected == 1 ? tr("Only the 1 selected run (CSV or JSON)…")
                            : tr("Only the %1 selected runs (CSV or JSON)…").arg(selected)};
}

Result<void> ResultsExport::saveTable(const QString &path, const QList<qint64> &runIds) const
{
    const RunMetricsTable &table = m_model.table();
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return ChartExporter::saveText(path, QByteArray::fromStdString(table.toJson(runIds).dump(2)));
    return ChartExporter::saveText(path, table.toCsv(runIds, m_model.columns()).toUtf8());
}

void ResultsExport::askAndSaveTable(const QList<qint64> &runIds)
{
    const bool selectedOnly = !runIds.isEmpty();
    const QStringList cols = m_model.columns();
    const RunMetricsTable table = m_model.table();
    const int count = selectedOnly ? int(runIds.size()) : int(table.rows.size());
    ChartExporter::askAndSaveTable(
        m_dialogParent, selectedOnly ? QStringLiteral("scalelab-runs-selected") : QStringLiteral("scalelab-runs-all"),
        [table, runIds, cols] { return table.toCsv(runIds, cols).toUtf8(); },
        [table, runIds] { return QByteArray::fromStdString(table.toJson(runIds).dump(2)); });
    Q_EMIT status(selectedOnly ? tr("Exporting the selected runs (%1)…").arg(count)
                               : tr("Exporting all runs of the table (%1)…").arg(count));
}

void ResultsExport::askAndSaveChart(const QString &studyName)
{
    QList<QPair<QString, QCustomPlot *>> charts;
    for (StudyChart c : StudyChartBuilder::all())
        charts.append({StudyChartBuilder::title(c), m_charts->chart(c)});
    charts.append({tr("Loss per epoch"), m_epochs->lossPlot()});
    charts.append({tr("Throughput per epoch"), m_epochs->throughputPlot()});
    const QString base = studyName.isEmpty() ? QStringLiteral("study") : studyName;
    auto *dlg =
        new ChartExportDialog(charts, base.simplified().replace(QLatin1Char(' '), QLatin1Char('-')), m_dialogParent);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &ChartExportDialog::saved, this,
            [this](const QString &path) { Q_EMIT status(tr("Chart saved to %1.").arg(path)); });
    dlg->show();
}

}   // namespace scalelab
