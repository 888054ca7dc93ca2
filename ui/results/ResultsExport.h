// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QList>
#include <QObject>
#include <QStringList>

class QWidget;

namespace scalelab {

class EpochCurves;
class RunsTableModel;
class StudyCharts;

// Results' exports: the runs table as CSV or JSON (every run of the table or
// the selected ones; the model's table and columns) and a study chart or
// epoch curve through ChartExportDialog.
class ResultsExport : public QObject {
    Q_OBJECT
public:
    ResultsExport(const RunsTableModel &model, StudyCharts *charts, EpochCurves *epochs, QWidget *dialogParent);

    // The Export menu's entries: "All 4 runs (CSV or JSON)…", "2 selected runs…".
    QStringList tableChoices(qsizetype selected) const;
    // Saves the table's runs (all when `runIds` is empty) to `path` (.csv or .json); a failure names the file.
    Result<void> saveTable(const QString &path, const QList<qint64> &runIds) const;
    // Asks for a file and saves there; `runIds` empty: every run.
    void askAndSaveTable(const QList<qint64> &runIds);
    // The chart export dialog, its file names starting with the study's name.
    void askAndSaveChart(const QString &studyName);

Q_SIGNALS:
    void status(const QString &text);

private:
    const RunsTableModel &m_model;
    StudyCharts *m_charts;
    EpochCurves *m_epochs;
    QWidget *m_dialogParent;
};

}   // namespace scalelab
