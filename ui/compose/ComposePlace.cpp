// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/ComposePlace.h"

#include "ui/common/AfterFirstPaint.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposeFiles.h"
#include "ui/compose/DiagnosticsPanel.h"
#include "ui/compose/FormHistory.h"
#include "ui/compose/JobForm.h"
#include "core/compose/FindingRemedies.h"
#include "core/compose/JobCost.h"
#include "core/compose/JobValidator.h"
#include "ui/compose/ProfileDriftBanner.h"
#include "core/model/LaunchGeometry.h"
#include "core/profiles/ProfileRegistry.h"
#include "ui/common/UiResources.h"
#include "core/compose/SbatchRenderer.h"
#include "ui/compose/ScalingStudyDialog.h"
#include "ui/compose/ScriptPreview.h"
#include "ui/compose/StartCostPanel.h"
#include "core/model/SpecFix.h"

#include "ui/common/ClusterService.h"

#include <QDragEnterEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>

namespace scalelab {

ComposePlace::ComposePlace(AppServices &services, QWidget *parent)
    : QWidget(parent)
    , m_services(services)
{
    ensureUiResources();
    setAccessibleName(tr("Compose"));
    setAcceptDrops(true);
    m_form = new JobForm(services.profiles(), this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setAccessibleName(tr("Job form"));
    scroll->setMinimumWidth(380);
    m_preview = new ScriptPreview(this);
    m_diagnostics = new DiagnosticsPanel(this);

    createActions();
    QWidget *split = buildSplit(scroll);

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_verdict, 1);
    actions->addWidget(m_study);
    actions->addWidget(m_dryRun);
    actions->addWidget(m_submit);
    // Issue 13: the profile vs the live cluster, above the form.
    m_drift = new ProfileDriftBanner(services, this);
    connect(m_drift, &ProfileDriftBanner::message, this, &ComposePlace::message);
    connect(&services, &AppServices::profilesChanged, m_form, &JobForm::reloadProfiles);

    auto *lay = new QVBoxLayout(this);
    lay->addWidget(m_drift);
    lay->addWidget(split, 1);
    lay->addLayout(actions);

    connectSignals();

    // A sensible start: the first profile's default partition, 1 GPU.
    JobSpec start = m_form->spec();
    start.gpus = 1;
    start.time = QStringLiteral("01:00:00");
    m_form->setSpec(start);
    m_history = new FormHistory(m_form, this);
    connect(m_history, &FormHistory::modifiedChanged, this, &ComposePlace::documentChanged);
    connect(m_history, &FormHistory::applied, this, &ComposePlace::afterUndoRedo);
    m_files = new ComposeFiles(
        services, m_form, m_history, m_diagnostics, [this](const JobSpec &spec) { loadSpec(spec); }, this);
    connect(m_files, &ComposeFiles::message, this, &ComposePlace::message);
    connect(m_files, &ComposeFiles::recentSpecsChanged, this, &ComposePlace::recentSpecsChanged);
    connect(m_files, &ComposeFiles::documentChanged, this, &ComposePlace::documentChanged);
    connect(&m_services, &AppServices::openSpecRequested, m_files, &ComposeFiles::cloneSpec);
    m_drift->followProfileCombo(m_form->profileCombo());
    rerender();
}

// Scaling study, Dry run and Submit (their icons after the first paint) and the verdict line.
void ComposePlace::createActions()
{
    m_study = new QPushButton(tr("Scaling study…"), this);
    m_study->setAccessibleName(tr("Scaling study"));
    m_study->setToolTip(tr("Sweep this job over GPU counts"));
    m_dryRun = new QPushButton(tr("Dry run"), this);
    m_dryRun->setAccessibleName(tr("Dry run"));
    m_submit = new QPushButton(tr("Submit"), this);
    m_submit->setAccessibleName(tr("Submit"));
    m_submit->setDefault(true);
    // SVG icons load the icon engine and image plugins: not before the form is on screen.
    new AfterFirstPaint(this, [this] {
        m_study->setIcon(QIcon(QStringLiteral(":/scalelab/icons/study.svg")));
        m_dryRun->setIcon(QIcon(QStringLiteral(":/scalelab/icons/dryrun.svg")));
        m_submit->setIcon(QIcon(QStringLiteral(":/scalelab/icons/submit.svg")));
    });
    m_verdict = new QLabel(this);
    m_verdict->setAccessibleName(tr("Last dry run or submit result"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

// The form on the left; the script preview above the diagnostics on the right.
QWidget *ComposePlace::buildSplit(QWidget *formScroll)
{
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_preview);
    right->addWidget(m_diagnostics);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(formScroll);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    return split;
}

void ComposePlace::connectSignals()
{
    connect(m_form, &JobForm::edited, this, &ComposePlace::onEdited);
    connect(m_diagnostics, &DiagnosticsPanel::activated, this, &ComposePlace::focusDiagnostic);
    connect(m_diagnostics, &DiagnosticsPanel::fixRequested, this, &ComposePlace::applyFix);
    connect(m_preview, &ScriptPreview::message, this, &ComposePlace::message);
    connect(m_submit, &QPushButton::clicked, this, &ComposePlace::submit);
    connect(m_dryRun, &QPushButton::clicked, this, &ComposePlace::dryRun);
    connect(m_study, &QPushButton::clicked, this, &ComposePlace::openStudy);
    connect(m_form->startCostPanel(), &StartCostPanel::estimateRequested, this, &ComposePlace::estimateStart);
}

bool ComposePlace::isModified() const
{
    return m_history->isModified();
}

void ComposePlace::afterUndoRedo()
{
    m_diagnostics->clearImported();
    rerender();
}

JobSpec ComposePlace::spec() const
{
    return m_form->spec();
}

void ComposePlace::onEdited()
{
    m_history->record();
    m_diagnostics->clearImported();
    rerender();
}

void ComposePlace::rerender()
{
    const JobSpec s = m_form->spec();
    const ClusterProfile *profile = m_form->profile();
    m_services.setCurrentProfile(s.profile);
    if (s.profile != m_shownProfile)
        clearVerdicts();
    m_shownProfile = s.profile;
    m_form->clearMarks();
    if (!profile) {
        // A broken file of the researcher's that replaces a shipped profile is
        // named with its line, never stood in for by the shipped one.
        const QString broken = m_services.profiles().brokenOverride(s.profile);
        m_current = {Diagnostic{
            Severity::Error,
            broken.isEmpty() ? QStringLiteral("unknown-profile") : QStringLiteral("profile-broken"),
            QStringLiteral("profile"),
            0,
            0,
            broken.isEmpty() ? tr("No cluster profile \"%1\" is installed; choose one.").arg(s.profile) : broken,
            {}}};
        m_preview->setScript(QString());
        showCost(s, nullptr, QString());
    } else {
        RenderResult r = renderAndValidate(s, *profile);
        m_current = notesConsistentWithErrors(r.diagnostics);
        if (!m_dryRunFinding.rule.isEmpty() && r.script == m_dryRunScript)
            m_current.append(m_dryRunFinding);
        m_preview->setScript(r.script);
        m_form->showGeometry(computeGeometry(s, *profile));
        showCost(s, profile, r.script);
    }
    m_preview->setSuggestedFileName((s.jobName.isEmpty() ? QStringLiteral("job") : s.jobName)
                                    + QStringLiteral(".sbatch"));
    QList<QList<Fix>> remedies;   // a button per remedy a finding offers
    if (profile)
        for (const Diagnostic &d : std::as_const(m_current))
            remedies << FindingRemedies::of(d, s, *profile);
    m_form->showFindings(m_current);
    m_diagnostics->setDiagnostics(m_current, remedies);
    updateActions();
}

void ComposePlace::updateActions()
{
    connectClusters();
    const bool haveClusters = m_services.clusters() != nullptr;
    const Diagnostic *firstError = nullptr;
    for (const auto &d : m_current)
        if (d.severity == Severity::Error) {
            firstError = &d;
            break;
        }
    const QString noClusters = AppServices::clustersUnavailableReason();
    m_submit->setEnabled(haveClusters && !firstError);
    m_submit->setToolTip(!haveClusters ? noClusters
                         : firstError  ? tr("Fix first: %1").arg(firstError->message)
                                       : tr("Submit this job (Ctrl+Return)"));
    m_dryRun->setEnabled(haveClusters && !firstError);
    m_dryRun->setToolTip(!haveClusters ? noClusters
                         : firstError  ? tr("Fix first: %1").arg(firstError->message)
                                       : tr("Ask Slurm whether it would accept the job, without submitting "
                                             "(Ctrl+Shift+Return)"));
    m_study->setEnabled(m_form->profile() != nullptr);
    m_form->startCostPanel()->setAskEnabled(haveClusters && !firstError,
                                            !haveClusters ? noClusters
                                            : firstError  ? tr("Fix first: %1").arg(firstError->message)
                                                          : QString());
}

// The cost is computed in core on every edit; an estimate shown for another
// script than this one is said to be stale.
void ComposePlace::showCost(const JobSpec &spec, const ClusterProfile *profile, const QString &script)
{
    StartCostPanel *panel = m_form->startCostPanel();
    panel->setCost(profile ? JobCostEstimator::estimate(spec, *profile).summary() : QString());
    if (script != m_estimatedScript) {
        m_estimatedScript.clear();
        panel->setStale();
    }
}

void ComposePlace::estimateStart()
{
    updateActions();
    ClusterService *cm = m_services.clusters();
    if (!cm || hasErrors(m_current))
        return;
    m_estimatedScript = m_preview->script();
    m_form->startCostPanel()->setAsking();
    cm->estimateStart(spec());
}

void ComposePlace::connectClusters()
{
    ClusterService *cm = m_services.clusters();
    if (!cm || cm == m_connectedClusters)
        return;
    m_connectedClusters = cm;
    connect(cm, &ClusterService::dryRunFinished, this, &ComposePlace::onDryRunFinished);
    connect(cm, &ClusterService::startEstimated, this, [this](const QString &profileId, const QString &text, bool ok) {
        if (profileId == spec().profile && !m_estimatedScript.isEmpty())
            m_form->startCostPanel()->setEstimate(text, ok);
    });
    connect(cm, &ClusterService::submitFinished, this, [this](const QString &text, bool ok) {
        m_verdict->setText(text);
        Q_EMIT message(text);
        if (ok)
            Q_EMIT m_services.showPlaceRequested(1);
    });
}

// The verdict is a finding of this script: an error (a missing program, a
// refusal) blocks Submit until the job changes or another dry run passes.
void ComposePlace::onDryRunFinished(const QString &verdict, bool ok)
{
    if (m_dryRunScript.isEmpty())
        return;   // asked for a job that is no longer in the form
    m_dryRunFinding = finding(ok ? Severity::Info : Severity::Error, QStringLiteral("dry-run"), QString(), 0,
                              (ok ? tr("Dry run: ") : tr("Dry run failed: ")) + verdict);
    m_verdict->clear();
    rerender();
    Q_EMIT message(ok ? tr("Dry run finished.") : tr("Dry run failed."));
}

void ComposePlace::clearVerdicts()
{
    m_verdict->clear();
    m_dryRunScript.clear();
    m_dryRunFinding = {};
}

void ComposePlace::loadSpec(const JobSpec &spec)
{
    clearVerdicts();
    m_form->setSpec(spec);
    m_diagnostics->clearImported();
    rerender();
}

void ComposePlace::focusDiagnostic(const Diagnostic &diag)
{
    if (!m_form->focusField(diag.field, diag.severity) && !diag.field.isEmpty())
        Q_EMIT message(tr("\"%1\" is not a field of the form.").arg(diag.field));
}

void ComposePlace::applyFix(const Fix &fix)
{
    if (fix.field == QLatin1String("profile") && m_files->canReimport()) {
        // Switching the site of an imported script reads it again there.
        JobSpec s = m_form->spec();
        s.profile = fix.value;
        m_form->setSpec(s);
        m_files->reimport();
        Q_EMIT message(tr("Applied: %1").arg(fix.label));
        return;
    }
    JobSpec s = m_form->spec();
    const QString error = scalelab::applyFix(s, fix);
    if (!error.isEmpty()) {
        Q_EMIT message(error);
        return;
    }
    m_form->setSpec(s);
    m_history->record();
    m_diagnostics->clearImported();
    rerender();
    Q_EMIT message(tr("Applied: %1").arg(fix.label));
}

// ---- Actions -----------------------------------------------------------

void ComposePlace::copyScript()
{
    m_preview->copyToClipboard();
}

void ComposePlace::submit()
{
    updateActions();
    ClusterService *cm = m_services.clusters();
    if (!cm || !m_submit->isEnabled()) {
        Q_EMIT message(m_submit->toolTip());
        return;
    }
    const JobSpec s = spec();
    QStringList warnings;
    for (const auto &d : m_current)
        if (d.severity == Severity::Warning)
            warnings << QStringLiteral("• ") + d.message;
    if (warnings.isEmpty()) {
        cm->submit({s}, QString());
        m_verdict->setText(tr("Submitting…"));
        return;
    }
    if (m_confirm)
        return;   // already asking
    // Asked once per submit, without a nested event loop.
    m_confirm =
        new QMessageBox(QMessageBox::Question, tr("Submit with warnings?"),
                        tr("The job has warnings:\n\n%1\n\nSubmit anyway?").arg(warnings.join(QLatin1Char('\n'))),
                        QMessageBox::Yes | QMessageBox::Cancel, window());
    m_confirm->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_confirm, &QMessageBox::finished, this, [this, s](int result) {
        ClusterService *cm2 = m_services.clusters();
        if (result == QMessageBox::Yes && cm2) {
            cm2->submit({s}, QString());
            m_verdict->setText(tr("Submitting…"));
        }
    });
    m_confirm->open();
}

void ComposePlace::dryRun()
{
    updateActions();
    ClusterService *cm = m_services.clusters();
    if (!cm || !m_dryRun->isEnabled()) {
        Q_EMIT message(m_dryRun->toolTip());
        return;
    }
    m_dryRunFinding = {};
    m_dryRunScript = m_preview->script();
    cm->dryRun(spec());
    m_verdict->setText(tr("Dry run: asking Slurm…"));
}

void ComposePlace::openStudy()
{
    const ClusterProfile *profile = m_form->profile();
    if (!profile)
        return;
    auto *dlg = new ScalingStudyDialog(m_services, spec(), *profile, window());
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &ScalingStudyDialog::message, this, &ComposePlace::message);
    dlg->show();
}

// ---- Drops (a spec is opened, a script imported: ComposeFiles) ----------

void ComposePlace::dragEnterEvent(QDragEnterEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile() && ComposeFiles::isDroppable(urls.first().toLocalFile()))
        event->acceptProposedAction();
}

void ComposePlace::dropEvent(QDropEvent *event)
{
    m_files->openDropped(event->mimeData()->urls().value(0).toLocalFile());
    event->acceptProposedAction();
}

}   // namespace scalelab
