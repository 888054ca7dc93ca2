// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/base/Result.h"
#include "ui/common/RunInBackground.h"

#include <QFuture>
#include <QHash>
#include <QList>
#include <QPointer>
#include <QSet>
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
class RunComparisonView;
class RunsTableModel;
class StudyCharts;
class UtilisationTimeline;

// The result explorer: the runs table (filter, group, choose columns, select
// runs), and below it the study charts with the scaling advisor, the GPU
// utilisation timelines of the selected runs and their side-by-side
// comparison. Reloads on AppServices::runsChanged; "Re-ingest" reads the
// selected runs' files again. Finished runs are ingested by RunLifecycle
// (the poll cycle, and its repair of runs never ingested), not here.
class ResultsPlace : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPlace(AppServices &services, QWidget *parent = nullptr);
    ~ResultsPlace() override;

    // Reads the store on a pool thread; tableLoaded() when the table shows it.
    void reload();
    bool isLoading() const;
    int wholeReadsStarted() const { return m_wholeReads; }   // tests: reads never overlap
    // Selects these runs in the table (as a researcher's Ctrl+clicks would).
    void selectRuns(const QList<qint64> &runIds);
    QList<qint64> selectedRunIds() const;
    void showStudy(qint64 studyId);   // 0 = all runs
    qint64 chartStudyId() const { return m_chartStudy; }
    // Ingests runs in the background; runsChanged is emitted when done.
    void reingest(const QList<qint64> &runIds);
    bool isIngesting() const { return m_ingesting > 0; }

    RunsTableModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    StudyCharts *charts() const { return m_charts; }
    UtilisationTimeline *timeline() const { return m_timeline; }
    EpochCurves *epochCurves() const { return m_epochs; }
    QPushButton *exportButton() const { return m_export; }
    QPushButton *chartExportButton() const { return m_chartExport; }
    // The Export menu's entries: "All 4 runs (CSV or JSON)…", "2 selected runs…".
    QStringList exportChoices() const;
    // Saves the table (all runs or the selected ones) to `path` (.csv or .json); a failure names the file.
    Result<void> exportTableTo(const QString &path, bool selectedOnly) const;
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
    void connectControls();
    void onSelectionChanged();
    void updateCharts();
    void showColumnsMenu();
    void exportTable(bool selectedOnly);
    void exportChart();
    void loadScripts(const QList<qint64> &runIds);
    void exportReport();

public:
    // The report for the Scaling report button, off the GUI thread: a PDF, or
    // the Markdown tables or strong-scaling CSV when `path` ends in .md or .csv.
    void writeReportInBackground(qint64 studyId, const QString &path);

private:
    void reportFinished(const QString &path, const QString &error);
    void editPatterns();
    void applyTable(const RunMetricsTable &table);
    void expandGroups();
    // ResultsPlaceStore.cpp: runsChanged with ids reads only those runs (on
    // the pool) and patches their rows; no ids, or one study shown: reload().
    void onRunsChanged(const QList<qint64> &runIds);
    // The live watch's new samples grow the timelines of running runs shown.
    void attachLive();
    void startPatch(const QList<qint64> &runIds);
    void applyPatch(const RunMetricsTable &patch, const QList<qint64> &runIds);
    void showStudies(const QList<StudyRecord> &studies);
    void showCounts();

    AppServices &m_services;
    RunMetricsTable m_table;
    QFuture<RunMetricsTable> m_loadFuture;   // for the destructor to wait on
    bool m_loading = false;   // from a whole read's start until its table is shown
    int m_wholeReads = 0;
    bool m_reloadAgain = false;
    quint64 m_tableGeneration = 0;   // moves on with every whole reload: an older patch is dropped
    bool m_patching = false;
    QList<qint64> m_patchAgain;   // runs changed while a patch was read
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
    QHash<qint64, QString> m_scripts;   // scripts of selected runs, read on a pool thread
    BackgroundLoader m_scriptLoad;   // the scripts of the newest selection
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    StudyCharts *m_charts = nullptr;
    UtilisationTimeline *m_timeline = nullptr;
    RunComparisonView *m_compare = nullptr;
    QList<qint64> m_selectionOrder;   // runs in the order they were selected (base first)
    qint64 m_chartStudy = 0;
    bool m_customColumns = false;
    int m_ingesting = 0;
    QPointer<ClusterService> m_liveSource;   // whose liveUpdated the timelines follow
};

}   // namespace scalelab
