// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/RunDetailsView.h"

#include "ui/jobs/JobStateLook.h"

#include "core/analysis/PendingRunText.h"
#include "core/analysis/UsedCost.h"
#include "core/ingest/FailureCause.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/StoreTaskQueue.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/OutputTailView.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace scalelab {

// One read of the selected run, made on a pool thread.
struct RunDetailsData {
    qint64 runId = 0;
    Result<RunRecord> run;
    Result<std::optional<SacctRecord>> accounting;
    Result<QList<StateChange>> history;
    QString failureLine;   // "" for none
    bool failureLineFound = false;   // found in the output just now: to be kept with the run
    QString output;   // OutputTailView::readTail
    PendingRunInfo pending;   // why it waits, while pending
    UsedCost used;   // what it used, once ended
};

namespace {

// The first error line of a failed run: stored, or found in the tail just
// read (a run fetched before the line was recorded).
void readFailureLine(RunStore &store, RunDetailsData &d)
{
    const RunRecord &r = *d.run;
    if (!r.isTerminal() || r.state == JobState::Completed)
        return;
    if (const auto stored = store.failureLines(); stored.ok())
        d.failureLine = stored.value().value(r.id);
    if (d.failureLine.isEmpty()) {
        if (const auto found = findFailureLine(d.output.toUtf8())) {
            d.failureLine = RunDetailsView::tr("near the end: %1").arg(found->text);
            d.failureLineFound = true;
        }
    }
}

RunDetailsData readDetails(RunStore &store, qint64 runId, qint64 tailBytes)
{
    RunDetailsData d;
    d.runId = runId;
    d.run = store.run(runId);
    if (d.run) {
        d.accounting = store.accounting(runId);
        d.history = store.stateHistory(runId);
        d.output = OutputTailView::readTail(store.runFilesDirectory(runId), *d.run, tailBytes);
        readFailureLine(store, d);
        if (d.run->isTerminal())
            d.used = UsedCost::of(store.metrics(runId).value_or(QList<MetricRecord>()));
        if (d.run->state == JobState::Pending)
            d.pending =
                PendingRunText::of(*d.run, QueueWaitStats::medians(store.queueWaits().value_or(QList<QueueWait>())));
    }
    store.closeThreadConnection();   // this pool thread may be reused by others
    return d;
}

}   // namespace

RunDetailsView::RunDetailsView(AppServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
    , m_summary(new QLabel)
    , m_tabs(new QTabWidget)
    , m_script(new QPlainTextEdit)
    , m_accounting(new QTreeWidget)
    , m_history(new QTreeWidget)
    , m_output(new OutputTailView)
    , m_failure(new QLabel)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary->setObjectName(QStringLiteral("runSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    m_script->setReadOnly(true);
    m_script->setObjectName(QStringLiteral("runScript"));
    m_script->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_script->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_accounting->setObjectName(QStringLiteral("runAccounting"));
    m_accounting->setHeaderLabels({tr("Field"), tr("Value")});
    m_accounting->setRootIsDecorated(true);
    m_accounting->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_history->setObjectName(QStringLiteral("runHistory"));
    m_history->setHeaderLabels({tr("Time"), tr("State"), tr("Reason")});
    m_history->setRootIsDecorated(false);
    m_history->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);

    m_failure->setObjectName(QStringLiteral("failureBanner"));
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_failure->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; color: #8a1c13; border: 1px solid #e6a19a;"
                                            " border-radius: 3px; padding: 4px 6px; }"));
    m_failure->hide();
    auto *outputPage = new QWidget;
    auto *outputLayout = new QVBoxLayout(outputPage);
    outputLayout->setContentsMargins(0, 0, 0, 0);
    outputLayout->setSpacing(2);
    outputLayout->addWidget(m_failure);
    outputLayout->addWidget(m_output, 1);
    m_tabs->addTab(outputPage, tr("Output"));
    m_tabs->addTab(m_script, tr("Script"));
    m_tabs->addTab(m_accounting, tr("Accounting"));
    m_tabs->addTab(m_history, tr("State history"));
    layout->addWidget(m_tabs, 1);
    showRun(0);
}

void RunDetailsView::showRun(qint64 runId)
{
    const bool changed = runId != m_runId;
    m_runId = runId;
    if (changed) {
        m_output->clear();
        if (runId > 0)
            m_summary->setText(tr("Reading run %1…").arg(runId));
    }
    refresh();
}

void RunDetailsView::refresh()
{
    setEnabled(m_runId > 0);
    if (m_runId <= 0) {
        m_load.cancel();
        m_outputLoad.cancel();
        m_summary->setText(tr("Select a run to see its script, accounting, history and output."));
        m_script->clear();
        m_accounting->clear();
        m_history->clear();
        m_output->clearRun();
        m_failure->hide();
        return;
    }
    RunStore *store = &m_services.store();   // AppServices waits for the pool before the store goes
    m_outputLoad.cancel();   // this read shows the output too
    m_load.run(
        this, [store, id = m_runId, tail = m_tailBytes] { return readDetails(*store, id, tail); },
        [this](const RunDetailsData &d) { apply(d); });
}

void RunDetailsView::apply(const RunDetailsData &d)
{
    if (d.runId != m_runId)
        return;
    if (!d.run.ok()) {
        m_summary->setText(d.run.errorText());
        return;
    }
    const RunRecord &r = d.run.value();
    QString summary =
        tr("Run %1 on %2 · %3 · %4 GPU(s)").arg(r.id).arg(r.clusterAlias, JobStateLook::stateText(r)).arg(r.gpus);
    if (r.hasJob())
        summary += tr(" · job %1").arg(r.jobId);
    if (!r.remoteDir.isEmpty())
        summary += tr(" · %1").arg(r.remoteDir);
    if (!r.rejection.isEmpty())
        summary += QStringLiteral("\n") + r.rejection;
    if (d.pending.pending)
        summary += QStringLiteral("\n") + d.pending.text();
    if (d.used.known())
        summary += QStringLiteral("\n") + d.used.text();
    m_summary->setText(summary);
    if (m_script->toPlainText() != r.script)
        m_script->setPlainText(r.script);
    fillAccounting(d);
    fillHistory(d);
    m_output->showText(d.output);
    updateFailureBanner(r, d.failureLine);
    if (d.failureLineFound)   // shown either way; kept with the run when it can be (a write: in the queue)
        m_services.storeTasks().run(
            this, [id = r.id, line = d.failureLine](RunStore &store) { return store.setFailureLine(id, line); },
            [](const Result<void> &) {});
}

void RunDetailsView::updateFailureBanner(const RunRecord &r, const QString &line)
{
    m_failure->setVisible(!line.isEmpty());
    m_failure->setText(line.isEmpty() ? QString()
                                      : tr("%1 — first error in the output, %2").arg(JobStateLook::stateText(r), line));
}

void RunDetailsView::refreshOutput()
{
    if (m_runId <= 0 || m_load.isLoading())
        return;   // a whole read under way shows the output too
    RunStore *store = &m_services.store();
    m_outputLoad.run(
        this,
        [store, id = m_runId, tail = m_tailBytes] {
            const auto run = store->run(id);
            QString text = run ? OutputTailView::readTail(store->runFilesDirectory(id), *run, tail) : run.errorText();
            store->closeThreadConnection();   // this pool thread may be reused by others
            return std::pair<qint64, QString>(id, text);
        },
        [this](const std::pair<qint64, QString> &got) {
            if (got.first == m_runId)
                m_output->showText(got.second);
        });
}

void RunDetailsView::fillAccounting(const RunDetailsData &d)
{
    m_accounting->clear();
    const auto &acct = d.accounting;
    if (!acct.ok() || !acct.value()) {
        auto *item = new QTreeWidgetItem(
            m_accounting,
            {tr("(none yet)"), acct.ok() ? tr("Slurm accounting is stored when the job ends.") : acct.errorText()});
        item->setDisabled(true);
        return;
    }
    const SacctRecord &a = *acct.value();
    // Field names as sacct prints them, so they can be looked up in its manual.
    const QList<QPair<QString, QString>> rows = {
        {QStringLiteral("JobID"), a.jobId},
        {QStringLiteral("JobName"), a.jobName},
        {QStringLiteral("State"), a.stateText},
        {QStringLiteral("ExitCode"), a.exitCode},
        {QStringLiteral("Partition"), a.partition},
        {QStringLiteral("Account"), a.account},
        {QStringLiteral("Submit"), a.submit},
        {QStringLiteral("Start"), a.start},
        {QStringLiteral("End"), a.end},
        {QStringLiteral("Elapsed"), a.elapsed},
        {QStringLiteral("Timelimit"), a.timelimit},
        {QStringLiteral("AllocCPUS"), QString::number(a.allocCpus)},
        {QStringLiteral("AllocTRES"), a.allocTres},
        {QStringLiteral("NodeList"), a.nodeList},
        {QStringLiteral("MaxRSS"), a.maxRss},
        {QStringLiteral("TotalCPU"), a.totalCpu},
        {QStringLiteral("TRESUsageInAve"), a.tresUsageInAve},
        {QStringLiteral("TRESUsageInMax"), a.tresUsageInMax},
        {QStringLiteral("Reason"), a.reason},
        {QStringLiteral("WorkDir"), a.workDir},
        {QStringLiteral("Comment"), a.comment},
    };
    for (const auto &[field, value] : rows)
        if (!value.isEmpty())
            new QTreeWidgetItem(m_accounting, {field, value});
    // Steps (".batch", ".0", ...) with every field sacct printed for them.
    // The store keeps the lines as printed; `steps` only when freshly parsed.
    if (a.lines.size() > 1) {
        for (qsizetype i = 1; i < a.lines.size(); ++i) {
            const QMap<QString, QString> &line = a.lines[i];
            auto *step = new QTreeWidgetItem(m_accounting, {tr("Step %1").arg(line.value(QStringLiteral("JobID"))),
                                                            line.value(QStringLiteral("State"))});
            for (auto it = line.begin(); it != line.end(); ++it)
                if (!it.value().isEmpty())
                    new QTreeWidgetItem(step, {it.key(), it.value()});
        }
        return;
    }
    for (const SacctRecord::Step &s : a.steps) {
        auto *step = new QTreeWidgetItem(m_accounting, {tr("Step %1").arg(s.stepId), s.stateText});
        const QList<QPair<QString, QString>> stepRows = {
            {QStringLiteral("JobName"), s.name},
            {QStringLiteral("ExitCode"), s.exitCode},
            {QStringLiteral("MaxRSS"), s.maxRss},
            {QStringLiteral("TotalCPU"), s.totalCpu},
            {QStringLiteral("NodeList"), s.nodeList},
            {QStringLiteral("TRESUsageInAve"), s.tresUsageInAve},
            {QStringLiteral("TRESUsageInMax"), s.tresUsageInMax},
        };
        for (const auto &[field, value] : stepRows)
            if (!value.isEmpty())
                new QTreeWidgetItem(step, {field, value});
    }
}

void RunDetailsView::fillHistory(const RunDetailsData &d)
{
    m_history->clear();
    const auto &history = d.history;
    if (!history.ok()) {
        new QTreeWidgetItem(m_history, {QString(), history.errorText()});
        return;
    }
    for (const StateChange &c : history.value()) {
        auto *item = new QTreeWidgetItem(m_history, {c.at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                                                     SlurmJobState::displayName(c.state), c.reason});
        item->setIcon(1, JobStateLook::stateIcon(JobStateLook::stateColour(c.state)));
    }
}

}   // namespace scalelab
