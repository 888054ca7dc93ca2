// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/RunDetailsView.h"

#include "ui/jobs/JobStateLook.h"

#include "core/ingest/FailureCause.h"

#include "ui/jobs/JobsModel.h"
#include "ui/jobs/OutputTailView.h"
#include "core/store/RunStore.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace scalelab {

RunDetailsView::RunDetailsView(RunStore &store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
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
    if (changed)
        m_output->clear();
    refresh();
}

void RunDetailsView::refresh()
{
    setEnabled(m_runId > 0);
    if (m_runId <= 0) {
        m_summary->setText(tr("Select a run to see its script, accounting, history and output."));
        m_script->clear();
        m_accounting->clear();
        m_history->clear();
        m_output->clearRun();
        return;
    }
    const auto run = m_store.run(m_runId);
    if (!run.ok()) {
        m_summary->setText(run.errorText());
        return;
    }
    const RunRecord &r = run.value();
    QString summary =
        tr("Run %1 on %2 · %3 · %4 GPU(s)").arg(r.id).arg(r.clusterAlias, JobStateLook::stateText(r)).arg(r.gpus);
    if (r.hasJob())
        summary += tr(" · job %1").arg(r.jobId);
    if (!r.remoteDir.isEmpty())
        summary += tr(" · %1").arg(r.remoteDir);
    if (!r.rejection.isEmpty())
        summary += QStringLiteral("\n") + r.rejection;
    m_summary->setText(summary);
    if (m_script->toPlainText() != r.script)
        m_script->setPlainText(r.script);
    fillAccounting();
    fillHistory();
    refreshOutput();
    updateFailureBanner(r);
}

void RunDetailsView::updateFailureBanner(const RunRecord &r)
{
    QString line;
    if (r.isTerminal() && r.state != JobState::Completed) {
        if (const auto stored = m_store.failureLines(); stored.ok())
            line = stored.value().value(r.id);
        if (line.isEmpty()) {
            // Fetched before the line was recorded: look in the tail shown below
            // (already read, bounded), and keep what is found.
            if (const auto found = findFailureLine(m_output->toPlainText().toUtf8())) {
                line = tr("near the end: %1").arg(found->text);
                (void)m_store.setFailureLine(r.id, line);   // shown either way; kept when it can be
            }
        }
    }
    m_failure->setVisible(!line.isEmpty());
    m_failure->setText(line.isEmpty() ? QString()
                                      : tr("%1 — first error in the output, %2").arg(JobStateLook::stateText(r), line));
}

void RunDetailsView::refreshOutput()
{
    if (m_runId > 0)
        m_output->showRun(m_store, m_runId, m_tailBytes);
}

void RunDetailsView::fillAccounting()
{
    m_accounting->clear();
    const auto acct = m_store.accounting(m_runId);
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

void RunDetailsView::fillHistory()
{
    m_history->clear();
    const auto history = m_store.stateHistory(m_runId);
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
