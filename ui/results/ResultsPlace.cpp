// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/ResultsPlace.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/StoreTaskQueue.h"
#include "ui/common/BackgroundPool.h"
#include "ui/common/ClusterService.h"
#include "ui/results/EpochCurves.h"
#include "ui/results/RunComparisonView.h"
#include "ui/results/RunsTableModel.h"
#include "ui/results/StudyCharts.h"
#include "ui/results/StudyPatternsDialog.h"
#include "ui/results/UtilisationTimeline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace scalelab {

ResultsPlace::ResultsPlace(AppServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
{
    buildUi();
    connect(&m_services, &AppServices::runsChanged, this, &ResultsPlace::onRunsChanged);
    connect(&m_services, &AppServices::clustersChanged, this, &ResultsPlace::attachLive);
    attachLive();
    reload();
}

void ResultsPlace::attachLive()
{
    ClusterService *cm = m_services.clusters();
    if (cm == m_liveSource)
        return;
    if (m_liveSource)
        disconnect(m_liveSource, &ClusterService::liveUpdated, this, nullptr);
    m_liveSource = cm;
    if (cm)
        connect(cm, &ClusterService::liveUpdated, this,
                [this](const QList<qint64> &runIds) { m_timeline->refreshRuns(runIds, m_services.store()); });
}

ResultsPlace::~ResultsPlace()
{
    // The load uses the store, which the window's services own.
    m_loadFuture.waitForFinished();
}

void ResultsPlace::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buildToolbar());

    buildRunsView();
    buildTabs();

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);
    layout->addWidget(split, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("resultsStatus"));
    m_status->setWordWrap(true);
    // Beside the status line, not in the top bar: that bar already fills a 900 px window.
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_showHidden);
    layout->addLayout(bottom);

    connectControls();
}

QLayout *ResultsPlace::buildToolbar()
{
    auto *bar = new QHBoxLayout;
    m_study = new QComboBox(this);
    m_study->setObjectName(QStringLiteral("studyCombo"));
    m_study->setMinimumContentsLength(9);   // narrow windows: the list itself is wider
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter runs (any column)…"));
    m_filter->setClearButtonEnabled(true);
    m_group = new QComboBox(this);
    m_group->addItems({tr("No grouping"), tr("Group by study"), tr("Group by cluster"), tr("Group by framework"),
                       tr("Group by GPUs")});
    // Sized by a short text, not the longest item: a 900 px window fits the whole bar.
    m_group->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_group->setMinimumContentsLength(8);
    m_showHidden = new QCheckBox(tr("Show hidden"), this);
    m_showHidden->setObjectName(QStringLiteral("showHiddenCheck"));
    m_showHidden->setToolTip(tr("Also list and chart runs hidden in Jobs (the run store keeps them)"));
    m_columns = new QPushButton(tr("Columns…"), this);
    m_reingest = new QPushButton(tr("Re-ingest"), this);
    m_reingest->setToolTip(tr("Read the selected runs' accounting, GPU samples and output again "
                              "(all runs of the study when none is selected)"));
    m_patterns = new QPushButton(tr("Metrics…"), this);
    m_patterns->setToolTip(tr("User-defined metrics read from the study's job output"));
    m_export = new QPushButton(tr("Export table"), this);
    m_export->setObjectName(QStringLiteral("exportTable"));
    m_export->setToolTip(tr("Save the runs table as CSV or JSON: every run shown, or only the selected ones"));
    m_export->setMenu(new QMenu(m_export));
    connect(m_export->menu(), &QMenu::aboutToShow, this, [this] {
        QMenu *menu = m_export->menu();
        menu->clear();
        const QStringList choices = exportChoices();
        menu->addAction(choices[0], this, [this] { exportTable(false); });
        QAction *sel = menu->addAction(choices[1], this, [this] { exportTable(true); });
        sel->setEnabled(!m_selectionOrder.isEmpty());
    });
    m_chartExport = new QPushButton(tr("Export chart…"), this);
    m_chartExport->setObjectName(QStringLiteral("exportChart"));
    m_chartExport->setToolTip(tr("Save a study chart or an epoch curve as PNG (any size), SVG or PDF"));
    m_report = new QPushButton(tr("Scaling report…"), this);
    bar->addWidget(new QLabel(tr("Study:"), this));
    bar->addWidget(m_study);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_group);
    bar->addWidget(m_columns);
    bar->addWidget(m_reingest);
    bar->addWidget(m_patterns);
    bar->addWidget(m_export);
    bar->addWidget(m_chartExport);
    bar->addWidget(m_report);
    return bar;
}

void ResultsPlace::buildRunsView()
{
    m_model = new RunsTableModel(this);
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("runsTable"));
    m_view->setModel(m_model);   // sorts and filters itself: no proxy over 100,000 rows
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Widths from the rows on screen only: measuring every cell of a large
    // table was the longest stall of a reload (15,000 text layouts at 1,000 runs).
    m_view->header()->setResizeContentsPrecision(0);
}

void ResultsPlace::buildTabs()
{
    m_tabs = new QTabWidget(this);
    m_charts = new StudyCharts(this);
    auto *chartScroll = new QScrollArea(this);
    chartScroll->setWidgetResizable(true);
    chartScroll->setWidget(m_charts);
    m_timeline = new UtilisationTimeline(this);
    m_compare = new RunComparisonView(this);
    m_epochs = new EpochCurves(this);
    m_tabs->addTab(chartScroll, tr("Study charts"));
    m_tabs->addTab(m_epochs, tr("Epoch curves"));
    m_tabs->addTab(m_timeline, tr("GPU timelines"));
    m_tabs->addTab(m_compare, tr("Compare runs"));
}

void ResultsPlace::connectControls()
{
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &t) {
        const QList<qint64> keep = m_selectionOrder;
        m_model->setFilter(t);
        expandGroups();
        selectRuns(keep);
    });
    connect(m_group, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QList<qint64> keep = m_selectionOrder;
        m_model->setGroupBy(RunsTableModel::GroupBy(i));
        expandGroups();
        selectRuns(keep);
    });
    connect(m_study, &QComboBox::currentIndexChanged, this, [this] {
        if (m_study->currentData().isValid())
            m_chartStudy = m_study->currentData().toLongLong();
        reload();
    });
    connect(m_showHidden, &QCheckBox::toggled, this, &ResultsPlace::reload);
    connect(m_columns, &QPushButton::clicked, this, &ResultsPlace::showColumnsMenu);
    connect(m_reingest, &QPushButton::clicked, this, [this] {
        QList<qint64> ids = selectedRunIds();
        if (ids.isEmpty())
            for (const RunMetricsRow &r : std::as_const(m_table.rows))
                if (r.run.hasJob())
                    ids << r.run.id;
        reingest(ids);
    });
    connect(m_patterns, &QPushButton::clicked, this, &ResultsPlace::editPatterns);
    connect(m_chartExport, &QPushButton::clicked, this, &ResultsPlace::exportChart);
    connect(m_report, &QPushButton::clicked, this, &ResultsPlace::exportReport);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ResultsPlace::onSelectionChanged);
}

void ResultsPlace::reload()
{
    // The store is read on a pool thread (its own connection); the table is
    // swapped in on the GUI thread when it arrives. A reload asked for while
    // one runs is done once after it, with whatever changed meanwhile. A read
    // counts as running until its table is shown, not until the pool thread
    // is done with it: two reads in flight could hand their tables over in
    // the wrong order and leave an older table shown.
    if (m_loading) {
        m_reloadAgain = true;
        return;
    }
    const qint64 chosen = m_study->currentData().isValid() ? m_study->currentData().toLongLong() : 0;
    const qint64 studyFilter = chosen > 0 ? chosen : -1;
    const HiddenRuns hidden = m_showHidden->isChecked() ? HiddenRuns::Include : HiddenRuns::LeaveOut;
    RunStore *store = &m_services.store();
    ++m_tableGeneration;
    ++m_wholeReads;
    m_loading = true;
    m_loadFuture = runInBackground(
        this,
        [store, studyFilter, hidden] {
            RunMetricsTable table = RunMetricsTable::load(*store, studyFilter, hidden);
            store->closeThreadConnection();   // this pool thread may be reused by others
            return table;
        },
        [this](const RunMetricsTable &table) {
            // The future lets go of its copy: a later patch changes the model's
            // table in place instead of copying 100,000 rows on the GUI thread.
            m_loadFuture = {};
            m_loading = false;
            applyTable(table);
            if (std::exchange(m_reloadAgain, false))
                reload();
            else
                Q_EMIT tableLoaded();
        });
}

bool ResultsPlace::isLoading() const
{
    return m_loading || m_reloadAgain || m_patching;
}

void ResultsPlace::applyTable(const RunMetricsTable &table)
{
    showStudies(table.studies);
    // The old table (100,000 rows of maps and strings) is freed on a pool
    // thread: freeing it here was a stall of its own.
    RunMetricsTable old = std::exchange(m_table, table);
    const QList<qint64> keep = m_selectionOrder;
    {
        const QSignalBlocker block(m_view->selectionModel());
        // Until a researcher picks columns, the defaults follow the metrics present.
        if (m_customColumns)
            m_model->setTable(m_table);
        else
            m_model->setTable(m_table, RunsTableModel::defaultColumns(m_table));
        expandGroups();
    }
    (void)QtConcurrent::run(&backgroundPool(), [gone = std::move(old)]() mutable { gone = RunMetricsTable(); });
    m_selectionOrder.clear();
    selectRuns(keep);
    showCounts();
    // selectRuns() has updated the comparison and the charts.
}

void ResultsPlace::showStudies(const QList<StudyRecord> &studies)
{
    // Study list (keeps the choice).
    const QVariant chosen = m_study->currentData();
    const QSignalBlocker block(m_study);
    m_study->clear();
    m_study->addItem(tr("All runs"), qint64(0));
    for (const StudyRecord &s : studies)
        m_study->addItem(s.name, s.id);
    const int i = chosen.isValid() ? m_study->findData(chosen) : 0;
    m_study->setCurrentIndex(i >= 0 ? i : 0);
}

void ResultsPlace::showCounts()
{
    m_status->setText(!m_table.error.isEmpty() ? tr("Cannot read the run store: %1").arg(m_table.error)
                                               : tr("%n run(s).", nullptr, int(m_table.rows.size())));
    m_showHidden->setText(m_table.hiddenCount > 0 ? tr("Show hidden (%1)").arg(m_table.hiddenCount)
                                                  : tr("Show hidden"));
}

void ResultsPlace::expandGroups()
{
    // Only group rows have children; expandAll() would walk every run row.
    if (m_model->groupBy() != RunsTableModel::GroupBy::None)
        m_view->expandAll();
}

void ResultsPlace::showStudy(qint64 studyId)
{
    const int i = m_study->findData(studyId);
    if (i >= 0)
        m_study->setCurrentIndex(i);
}

QList<qint64> ResultsPlace::selectedRunIds() const
{
    return m_selectionOrder;
}

void ResultsPlace::selectRuns(const QList<qint64> &runIds)
{
    QItemSelection sel;
    m_selectionOrder.clear();
    for (qint64 id : runIds) {
        const QModelIndex first = m_model->indexOfRun(id);
        if (!first.isValid())
            continue;
        sel.select(first, m_model->indexOfRun(id, m_model->columnCount() - 1));
        m_selectionOrder << id;
    }
    {
        const QSignalBlocker block(m_view->selectionModel());
        m_view->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
    }
    onSelectionChanged();
}

void ResultsPlace::onSelectionChanged()
{
    // Keep the order in which runs were selected: the first is the comparison base.
    QList<qint64> now;
    for (const QModelIndex &idx : m_view->selectionModel()->selectedRows()) {
        const QVariant id = idx.data(RunsTableModel::RunIdRole);
        if (id.isValid())
            now << id.toLongLong();
    }
    QList<qint64> order;
    for (qint64 id : m_selectionOrder)
        if (now.contains(id))
            order << id;
    for (qint64 id : now)
        if (!order.contains(id))
            order << id;
    m_selectionOrder = order;

    QList<RunMetricsRow> rows;
    QList<qint64> missing;
    for (qint64 id : m_selectionOrder)
        if (const RunMetricsRow *r = m_table.find(id)) {
            rows << *r;
            // A table of every run leaves scripts out; the comparison diffs
            // them, so the few selected runs read theirs (on a pool thread).
            if (rows.last().run.script.isEmpty()) {
                if (m_scripts.contains(id))
                    rows.last().run.script = m_scripts.value(id);
                else
                    missing << id;
            }
        }
    m_compare->setRows(rows);
    if (!missing.isEmpty())
        loadScripts(missing);
    if (rows.isEmpty()) {
        // No selection: the timelines of the charted study (a few runs).
        for (const RunMetricsRow &r : std::as_const(m_table.rows)) {
            if (rows.size() == 4)
                break;   // the table may hold 100,000 runs
            if (r.run.hasJob() && (m_chartStudy <= 0 || r.run.studyId == m_chartStudy))
                rows << r;
        }
    }
    m_timeline->setRuns(rows, m_services.store());
    m_epochs->setRuns(rows, m_services.store());
    if (!m_selectionOrder.isEmpty()) {
        const RunMetricsRow *first = m_table.find(m_selectionOrder.first());
        if (first && first->run.studyId > 0 && m_study->currentData().toLongLong() <= 0)
            m_chartStudy = first->run.studyId;
    }
    updateCharts();
}

void ResultsPlace::updateCharts()
{
    if (m_chartStudy <= 0)
        for (const RunMetricsRow &r : std::as_const(m_table.rows))
            if (r.run.studyId > 0) {
                m_chartStudy = r.run.studyId;
                break;
            }
    QList<RunMetricsRow> rows;
    QString name;
    if (m_chartStudy > 0) {
        // The table holds either every run or just this study's.
        for (const RunMetricsRow &r : std::as_const(m_table.rows))
            if (r.run.studyId == m_chartStudy)
                rows << r;
        for (const StudyRecord &s : m_table.studies)
            if (s.id == m_chartStudy)
                name = s.name;
    }
    m_charts->setRows(rows, name);
    m_patterns->setEnabled(m_chartStudy > 0);
    m_report->setEnabled(m_chartStudy > 0);
    m_tabs->setTabText(0, name.isEmpty() ? tr("Study charts") : tr("Study charts: %1").arg(name));
}

void ResultsPlace::editPatterns()
{
    if (m_chartStudy <= 0)
        return;
    auto *dlg = new StudyPatternsDialog(m_services, m_chartStudy, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &StudyPatternsDialog::saved, this, [this](qint64 studyId) {
        // The study's runs are read on the pool, then re-read with the new patterns.
        m_services.storeTasks().run(
            this, [studyId](RunStore &store) { return store.runsInStudy(studyId); },
            [this](const Result<QList<RunRecord>> &runs) {
                QList<qint64> ids;
                if (runs.ok())
                    for (const RunRecord &r : runs.value())
                        if (r.hasJob())
                            ids << r.id;
                reingest(ids);
            });
    });
    dlg->open();
}

}   // namespace scalelab
