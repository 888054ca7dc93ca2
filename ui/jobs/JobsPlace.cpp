// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/JobsPlace.h"

#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/ClusterService.h"
#include "ui/common/StoreTaskQueue.h"
#include "core/slurm/SlurmJobState.h"
#include "ui/jobs/AlertBanner.h"
#include "ui/jobs/ElapsedDelegate.h"
#include "ui/jobs/JobsActions.h"
#include "ui/jobs/LiveStripDelegate.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/RunDetailsView.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <utility>

namespace scalelab {

JobsPlace::JobsPlace(AppServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_model(new JobsModel(services.store(), this))
    , m_actions(new JobsActions(services, *m_model, this))
    , m_view(new QTreeView)
    , m_details(new RunDetailsView(services))
    , m_filter(new QLineEdit)
    , m_message(new QLabel)
    , m_banner(new AlertBanner)
    , m_cancel(new QPushButton(tr("Cancel job…")))
    , m_dryRun(new QPushButton(tr("Dry run")))
    , m_resubmit(new QPushButton(tr("Resubmit")))
    , m_clone(new QPushButton(tr("Clone to Compose")))
    , m_refresh(new QPushButton(tr("Refresh now")))
    , m_withdraw(new QPushButton(tr("Withdraw")))
    , m_hide(new QPushButton(tr("Hide")))
    , m_addToStudy(new QPushButton(tr("Add to study")))
    , m_showHidden(new QCheckBox(tr("Show hidden")))
    , m_messageExpiry(new QTimer(this))
    , m_tick(new QTimer(this))
{
    setObjectName(QStringLiteral("jobsPlace"));

    buildFilter();
    QLayout *top = buildButtons();
    buildView();

    m_message->setObjectName(QStringLiteral("jobsMessage"));
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_banner);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    connectButtons();
    connectModel();

    // Once a second: repaint running rows' elapsed time; notice a cluster
    // manager created after this place.
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &JobsPlace::tick);
    connect(&m_services, &AppServices::clustersChanged, this, &JobsPlace::attachClusters);
    m_tick->start();

    m_details->setTailBytes(AppSettings::tailBytes());
    if (!services.storeError().isEmpty())
        showMessage(tr("The run store could not be opened: %1").arg(services.storeError()), true);
    attachClusters();
    reload();
    // Fixed starting widths: the table is often empty when it is built.
    const int widths[JobsModel::ColumnCount] = {230, 90, 70, 170, 130, 50, 50, 170, 130, 260};
    for (int c = 0; c < JobsModel::ColumnCount; ++c)
        m_view->setColumnWidth(c, widths[c]);
}

void JobsPlace::buildFilter()
{
    m_filter->setObjectName(QStringLiteral("jobsFilter"));
    m_filter->setPlaceholderText(tr("Filter: study, cluster, job id, state…"));
    m_filter->setClearButtonEnabled(true);
    // Filtered on the pool with the tree: the view gets the rows that hold the text.
    connect(m_filter, &QLineEdit::textChanged, m_model, &JobsModel::setFilter);
}

QLayout *JobsPlace::buildButtons()
{
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setToolTip(tr("scancel the selected run's job (asks first)"));
    m_dryRun->setObjectName(QStringLiteral("dryRunButton"));
    m_dryRun->setToolTip(
        tr("Ask Slurm whether the run's script would be accepted and when it would start (sbatch --test-only)"));
    m_resubmit->setObjectName(QStringLiteral("resubmitButton"));
    m_resubmit->setToolTip(tr("Submit the same spec again as a new run"));
    m_clone->setObjectName(QStringLiteral("cloneButton"));
    m_clone->setToolTip(tr("Open the run's spec in Compose to change and submit it"));
    m_refresh->setObjectName(QStringLiteral("refreshButton"));
    m_refresh->setToolTip(tr("Poll the clusters now (F5)"));
    m_refresh->setShortcut(QKeySequence::Refresh);

    m_withdraw->setObjectName(QStringLiteral("withdrawButton"));
    m_withdraw->setToolTip(tr("Drop a run that never reached Slurm, so it is never sent"));
    m_hide->setObjectName(QStringLiteral("hideButton"));
    m_hide->setToolTip(tr("Hide the run from Jobs and Results; the run store keeps it (Show hidden brings it back)"));
    m_showHidden->setObjectName(QStringLiteral("showHiddenCheck"));
    m_showHidden->setToolTip(tr("Also list runs that were hidden"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    m_addToStudy->setObjectName(QStringLiteral("addToStudyButton"));
    m_addToStudy->setToolTip(tr("Put this resubmitted run into the study of the point it repeats (same spec)"));
    for (QPushButton *b : {m_cancel, m_withdraw, m_dryRun, m_resubmit, m_clone, m_addToStudy, m_hide, m_refresh})
        top->addWidget(b);
    top->addWidget(m_showHidden);
    return top;
}

void JobsPlace::buildView()
{
    m_view->setObjectName(QStringLiteral("jobsView"));
    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(JobsModel::Elapsed, new ElapsedDelegate(m_view));
    m_view->setItemDelegateForColumn(JobsModel::Live, new LiveStripDelegate(m_model, m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(false);   // newest first, ordered in core with the tree
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &JobsPlace::onSelectionChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &JobsPlace::onSelectionChanged);
    connect(m_view, &QTreeView::collapsed, this,
            [this](const QModelIndex &i) { m_collapsedStudies.insert(i.data(JobsModel::StudyIdRole).toLongLong()); });
    connect(m_view, &QTreeView::expanded, this,
            [this](const QModelIndex &i) { m_collapsedStudies.remove(i.data(JobsModel::StudyIdRole).toLongLong()); });
}

void JobsPlace::connectButtons()
{
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_actions->cancel(selectedRunId()); });
    // The alert banner's Cancel: the alert's run, asked first like the button.
    connect(m_banner, &AlertBanner::cancelRequested, this, [this](qint64 runId) {
        if (selectRun(runId))
            m_actions->cancel(runId);
    });
    connect(m_dryRun, &QPushButton::clicked, this, [this] {
        clusters();
        m_actions->dryRun(selectedRunId());
    });
    connect(m_resubmit, &QPushButton::clicked, this, [this] {
        clusters();
        m_actions->resubmit(selectedRunId());
    });
    connect(m_clone, &QPushButton::clicked, this, [this] { m_actions->clone(selectedRunId()); });
    connect(m_actions, &JobsActions::message, this, &JobsPlace::showMessage);
    connect(m_actions, &JobsActions::runJoinedStudy, this, &JobsPlace::selectRun);
    connect(m_withdraw, &QPushButton::clicked, this, &JobsPlace::withdrawSelected);
    connect(m_hide, &QPushButton::clicked, this, &JobsPlace::toggleHiddenSelected);
    connect(m_addToStudy, &QPushButton::clicked, this, &JobsPlace::addSelectedToStudy);
    connect(m_showHidden, &QCheckBox::toggled, this, [this](bool on) {
        m_model->setShowHidden(on);
        reload();
    });
    // Passing messages go after a while; errors stay until the next message.
    m_messageExpiry->setSingleShot(true);
    m_messageExpiry->setInterval(20000);
    connect(m_messageExpiry, &QTimer::timeout, this, [this] { showMessage(QString()); });
    connect(m_refresh, &QPushButton::clicked, this, [this] {
        if (ClusterService *cm = clusters()) {
            cm->refreshNow();
            if (const qint64 id = selectedRunId())
                cm->watchOutput(id);
        }
        reload();
    });
}

void JobsPlace::connectModel()
{
    // Only the runs that changed are read again (all of them when unknown).
    connect(&m_services, &AppServices::runsChanged, m_model, &JobsModel::refreshRuns);
    connect(m_model, &JobsModel::modelAboutToBeReset, this, [this] { m_keepSelected = selectedRunId(); });
    connect(m_model, &JobsModel::modelReset, this, &JobsPlace::expandStudies);
    connect(m_model, &JobsModel::loaded, this, &JobsPlace::onLoaded);
    // Studies that appear (a patch, or the next rows as the view scrolls) open like the others.
    connect(m_model, &JobsModel::rowsInserted, this, &JobsPlace::expandNew);
}

void JobsPlace::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    attachClusters();
}

ClusterService *JobsPlace::clusters()
{
    attachClusters();
    return m_services.clusters();
}

void JobsPlace::attachClusters()
{
    ClusterService *cm = m_services.clusters();
    if (cm == m_attached)
        return;
    m_attached = cm;
    updateButtons();
    if (!cm)
        return;
    connect(cm, &ClusterService::outputUpdated, this, [this](qint64 runId) {
        if (runId == m_details->runId())
            m_details->refreshOutput();
    });
    connect(cm, &ClusterService::dryRunFinished, m_actions, &JobsActions::onDryRunFinished);
    connect(cm, &ClusterService::submitFinished, this,
            [this](const QString &message, bool ok) { showMessage(message, !ok, m_actions->takeResubmitted()); });
    connect(cm, &ClusterService::cancelFinished, this, [this](qint64 runId, const QString &message, bool ok) {
        showMessage(ok ? tr("Cancel of run %1 sent. %2").arg(runId).arg(message)
                       : tr("Cancelling run %1 failed: %2").arg(runId).arg(message),
                    !ok, runId);
    });
    attachLive(cm);
    if (const qint64 id = selectedRunId())
        cm->watchOutput(id);
}

void JobsPlace::attachLive(ClusterService *cm)
{
    connect(cm, &ClusterService::liveUpdated, this, [this, cm](const QList<qint64> &runIds) {
        for (qint64 id : runIds)
            m_model->setLive(id, cm->liveView(id));
    });
    connect(cm, &ClusterService::alertsChanged, this,
            [this, cm] { m_banner->showAlerts(cm->bannerAlerts(), cm->bannerIsAwaySummary()); });
    connect(m_banner, &AlertBanner::dismissed, cm, &ClusterService::dismissAlerts);
    m_banner->showAlerts(cm->bannerAlerts(), cm->bannerIsAwaySummary());
}

void JobsPlace::tick()
{
    // Elapsed times and progress bars move while jobs run.
    if (isVisible() && m_model->hasActiveRuns())
        m_view->viewport()->update();
}

void JobsPlace::reload()
{
    m_model->reload();
}

bool JobsPlace::isLoading() const
{
    return m_model->isLoading() || m_services.storeTasks().pending() > 0 || m_details->isLoading();
}

void JobsPlace::expandStudies()
{
    // Studies open unless the researcher folded them: only those of the rows
    // the model gave the view (a chunk after a reset), never the whole tree.
    expandNew(QModelIndex(), 0, m_model->rowCount() - 1);
}

void JobsPlace::expandNew(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    for (int row = first; row <= last; ++row) {
        const QModelIndex i = m_model->index(row, 0);
        if (m_model->rowCount(i) > 0 && !m_collapsedStudies.contains(i.data(JobsModel::StudyIdRole).toLongLong()))
            m_view->expand(i);
    }
}

void JobsPlace::onLoaded(const QString &error)
{
    if (!error.isEmpty())
        showMessage(error, true);
    checkMessage();
    // A reset (a whole new tree) cleared the selection: the same run again.
    if (const qint64 keep = std::exchange(m_keepSelected, 0); keep > 0 && selectedRunId() == 0)
        selectRun(keep);
    if (selectedRunId() > 0)
        m_details->refresh();
    else
        onSelectionChanged();
    updateButtons();
}

qint64 JobsPlace::selectedRunId() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid() || !m_view->selectionModel()->isRowSelected(current.row(), current.parent()))
        return 0;
    return current.data(JobsModel::RunIdRole).toLongLong();
}

bool JobsPlace::selectRun(qint64 runId)
{
    if (!m_model->exposeRun(runId))
        return false;
    const QModelIndex i = m_model->indexOfRun(runId);
    if (!i.isValid())
        return false;
    if (i.parent().isValid())
        m_view->expand(i.parent());
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(i);
    return true;
}

void JobsPlace::onSelectionChanged()
{
    const qint64 id = selectedRunId();
    if (id != m_details->runId()) {
        m_details->showRun(id);
        if (ClusterService *cm = clusters())
            cm->watchOutput(id);
    }
    // A message about another run goes; about a run that left the list
    // (hidden, withdrawn) it stays to say why.
    const bool rowSelected = m_view->selectionModel()->hasSelection();
    // A reset (a new tree) selects the same run again once it is shown: not a change.
    if (m_keepSelected == 0 && m_messageRun > 0 && id != m_messageRun && (rowSelected || m_model->runRow(m_messageRun)))
        showMessage(QString());
    updateButtons();
}

void JobsPlace::updateButtons()
{
    const qint64 id = selectedRunId();
    const JobsModel::RunRow *row = id > 0 ? m_model->runRow(id) : nullptr;
    const bool haveClusters = m_services.clusters() != nullptr;
    const QString noClusters = tr("The cluster connection is not available yet.");
    m_cancel->setEnabled(haveClusters && row && row->run.hasJob() && !row->run.isTerminal());
    const bool unsent =
        row && !row->run.hasJob()
        && (row->run.submitState == SubmitState::Intent || row->run.submitState == SubmitState::Uploaded);
    m_withdraw->setEnabled(unsent);
    m_hide->setEnabled(row != nullptr);
    const qint64 study = row ? m_model->studyOfSameSpec(id) : 0;
    m_addToStudy->setEnabled(study > 0);
    m_addToStudy->setText(study > 0 ? tr("Add to \"%1\"").arg(m_model->studyName(study)) : tr("Add to study"));
    m_hide->setText(row && row->hidden ? tr("Unhide") : tr("Hide"));
    m_showHidden->setText(m_model->hiddenCount() > 0 ? tr("Show hidden (%1)").arg(m_model->hiddenCount())
                                                     : tr("Show hidden"));
    m_dryRun->setEnabled(haveClusters && row && row->hasScript);
    m_resubmit->setEnabled(haveClusters && row && !row->run.specJson.isEmpty());
    m_clone->setEnabled(row && !row->run.specJson.isEmpty());
    m_refresh->setEnabled(haveClusters);
    if (!haveClusters)
        m_refresh->setToolTip(noClusters);
}

void JobsPlace::showMessage(const QString &text, bool error, qint64 runId, bool settles)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_message->setVisible(!text.isEmpty());
    m_messageRun = text.isEmpty() ? 0 : runId;
    m_messageSettles = settles;
    m_messageState = stateKey(m_messageRun);
    if (!text.isEmpty() && !error)
        m_messageExpiry->start();
    else
        m_messageExpiry->stop();
}

QString JobsPlace::stateKey(qint64 runId) const
{
    const JobsModel::RunRow *row = runId > 0 ? m_model->runRow(runId) : nullptr;
    if (!row)
        return {};
    const RunRecord &r = row->run;
    return (r.hasJob() ? SlurmJobState::id(r.state) : submitStateId(r.submitState)) + u' ' + row->segmentText
           + (row->hidden ? QStringLiteral(" hidden") : QString());
}

void JobsPlace::checkMessage()
{
    // After a read: a message about a run whose state moved on is no longer
    // true. The state an action of Jobs' own leads to is what its message says.
    if (m_messageRun <= 0 || !m_model->runRow(m_messageRun))
        return;
    if (std::exchange(m_messageSettles, false))
        m_messageState = stateKey(m_messageRun);
    else if (stateKey(m_messageRun) != m_messageState)
        showMessage(QString());
}

void JobsPlace::withdrawSelected()
{
    m_actions->withdraw(selectedRunId());
}

void JobsPlace::toggleHiddenSelected()
{
    m_actions->toggleHidden(selectedRunId());
}

void JobsPlace::addSelectedToStudy()
{
    m_actions->addToStudy(selectedRunId());
}

}   // namespace scalelab
