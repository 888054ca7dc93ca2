// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/base/Result.h"

#include <QList>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTreeView;

namespace scalelab {

class AppServices;
class ClusterService;
class EpochCurves;
class ResultsExport;
class RunComparisonView;
class RunsReingest;
class RunsTableLoader;
class RunsTableModel;
class ScalingReportExport;
class StudyCharts;
class UtilisationTimeline;

// The result explorer: the runs table (filter, group, choose columns, select
// runs), and below it the study charts with the scaling advisor, the GPU
// utilisation timelines of the selected runs and their side-by-side
// comparison. Reloads on AppServices::runsChanged; "Re-ingest" reads the
// selected runs' files again. Finished runs are ingested by RunLifecycle
// (the poll cycle, and its repair of runs never ingested), not here. The
// place draws and wires; its flows are classes of their own: the store reads
// (RunsTableLoader), Re-ingest (RunsReingest), the table and chart exports
// (ResultsExport) and the scaling report (ScalingReportExport).
class ResultsPlace : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPlace(AppServices &services, QWidget *parent = nullptr);
    ~ResultsPlace() override;

    // Reads the store on a pool thread (RunsTableLoader); tableLoaded() when the table shows it.
    void reload();
    bool isLoading() const;
    int wholeReadsStarted() const;   // tests: reads never overlap
    // Selects these runs in the table (as a researcher's Ctrl+clicks would).
    void selectRuns(const QList<qint64> &runIds);
    QList<qint64> selectedRunIds() const;
    void showStudy(qint64 studyId);   // 0 = all runs
    qint64 chartStudyId() const { return m_chartStudy; }
    // Ingests runs in the background (RunsReingest); runsChanged is emitted when done.
    void reingest(const QList<qint64> &runIds);
    bool isIngesting() const;

    RunsTableModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    StudyCharts *charts() const { return m_charts; }
    UtilisationTimeline *timeline() const { return m_timeline; }
    EpochCurves *epochCurves() const { return m_epochs; }
    QPushButton *exportButton() const { return m_export; }
    QPushButton *chartExportButton() const { return m_chartExport; }
    // The Export menu's entries: "All 4 runs (CSV or JSON)…", "2 selected runs…" (ResultsExport).
    QStringList exportChoices() const;
    // Saves the table (all runs or the selected ones) to `path` (.csv or .json); a failure names the file.
    Result<void> exportTableTo(const QString &path, bool selectedOnly) const;
    // The report for the Scaling report button, off the GUI thread (ScalingReportExport): a PDF, or
    // the Markdown tables or strong-scaling CSV when `path` ends in .md or .csv.
    void writeReportInBackground(qint64 studyId, const QString &path);
    QString columnsMenuTitles() const;   // the Columns menu's entries, one per line (tests)
    RunComparisonView *comparison() const { return m_compare; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *groupCombo() const { return m_group; }
    // Hidden runs (Jobs' Hide) are left out of the table and charts unless this is checked.
    QCheckBox *showHiddenCheck() const { return m_showHidden; }

Q_SIGNALS:
    void ingestFinished(const QStringList &errors);
    void reportWritten(const QString &path, const QString &error);   // error "" = written
    void tableLoaded();

private:
    void buildUi();
    QLayout *buildToolbar();
    void buildRunsView();
    void buildTabs();
    void buildFlows();
    void connectControls();
    void onSelectionChanged();
    void updateCharts();
    void showColumnsMenu();
    void exportTable(bool selectedOnly);
    void editPatterns();
    void onReportFinished(const QString &path, const QString &error);
    void onIngestFinished(const QStringList &errors);
    void applyTable(const RunMetricsTable &table);
    // The live watch's new samples grow the timelines of running runs shown.
    void attachLive();
    // RunsTableLoader read only the runs a change named: their rows are patched.
    void applyPatch(const RunMetricsTable &patch, const QList<qint64> &runIds);
    void showStudies(const QList<StudyRecord> &studies);
    void showCounts();
    void expandGroups();
    HiddenRuns hiddenRuns() const;
    QString chartStudyName() const;

    AppServices &m_services;
    RunMetricsTable m_table;
    RunsTableLoader *m_loader = nullptr;
    RunsReingest *m_reingestFlow = nullptr;
    ResultsExport *m_exportFlow = nullptr;
    ScalingReportExport *m_reportFlow = nullptr;
    RunsTableModel *m_model = nullptr;
    QTreeView *m_view = nullptr;
    QComboBox *m_study = nullptr;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_group = nullptr;
    QCheckBox *m_showHidden = nullptr;
    QPushButton *m_columns = nullptr;
    QPushButton *m_reingest = nullptr;
    QPushButton *m_patterns = nullptr;
    QPushButton *m_report = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_chartExport = nullptr;
    EpochCurves *m_epochs = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    StudyCharts *m_charts = nullptr;
    UtilisationTimeline *m_timeline = nullptr;
    RunComparisonView *m_compare = nullptr;
    QList<qint64> m_selectionOrder;   // runs in the order they were selected (base first)
    qint64 m_chartStudy = 0;
    bool m_customColumns = false;
    QPointer<ClusterService> m_liveSource;   // whose liveUpdated the timelines follow
};

}   // namespace scalelab
