// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/JobsActions.h"

#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/ClusterService.h"
#include "ui/common/StoreTaskQueue.h"
#include "ui/jobs/JobsModel.h"

#include <QAbstractButton>
#include <QMessageBox>

#include <utility>

namespace scalelab {

JobsActions::JobsActions(AppServices &services, JobsModel &model, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_services(services)
    , m_model(model)
    , m_dialogParent(dialogParent)
{}

void JobsActions::cancel(qint64 id)
{
    const JobsModel::RunRow *row = m_model.runRow(id);
    if (!row)
        return;
    auto *box =
        new QMessageBox(QMessageBox::Warning, tr("Cancel job"),
                        tr("Cancel Slurm job %1 (run %2) on %3?\nIts allocation ends now; this cannot be undone.")
                            .arg(row->run.jobId)
                            .arg(id)
                            .arg(row->run.clusterAlias),
                        QMessageBox::NoButton, m_dialogParent);
    box->setObjectName(QStringLiteral("cancelConfirmation"));
    box->addButton(tr("Cancel job"), QMessageBox::DestructiveRole);
    box->addButton(tr("Keep running"), QMessageBox::RejectRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, box, id](QAbstractButton *b) {
        if (box->buttonRole(b) != QMessageBox::DestructiveRole)
            return;
        if (ClusterService *cm = m_services.clusters()) {
            Q_EMIT message(tr("Cancelling run %1…").arg(id), false, id, false);
            cm->cancel(id);
        }
    });
    box->open();
}

void JobsActions::dryRun(qint64 id)
{
    ClusterService *cm = m_services.clusters();
    if (!cm || id <= 0)
        return;
    m_dryRunOf = id;
    Q_EMIT message(tr("Asking Slurm about run %1's script (sbatch --test-only)…").arg(id), false, id, false);
    cm->dryRunRun(id);
}

void JobsActions::onDryRunFinished(const QString &verdict, bool ok)
{
    const qint64 id = std::exchange(m_dryRunOf, 0);
    if (id == 0)
        return;   // asked from Compose
    Q_EMIT message((ok ? tr("Dry run: Slurm would accept the job. ") : tr("Dry run: Slurm would refuse the job. "))
                       + verdict,
                   !ok, id, false);
}

void JobsActions::resubmit(qint64 id)
{
    const JobsModel::RunRow *row = m_model.runRow(id);
    ClusterService *cm = m_services.clusters();
    if (!row || !cm)
        return;
    const std::optional<JobSpec> spec = storedSpec(id, row->run.specJson);
    if (!spec)
        return;
    m_resubmitOf = id;
    Q_EMIT message(tr("Submitting a new run with run %1's spec…").arg(id), false, id, false);
    cm->submit({*spec}, QString());
}

std::optional<JobSpec> JobsActions::storedSpec(qint64 id, const QByteArray &specJson)
{
    JobSpecParseResult parsed = parseJobSpec(specJson, tr("run %1").arg(id));
    if (!parsed.spec)
        Q_EMIT message(tr("Run %1's stored spec cannot be read: %2").arg(id).arg(parsed.errors.value(0).message), true,
                       id, false);
    return std::move(parsed.spec);
}

qint64 JobsActions::takeResubmitted()
{
    return std::exchange(m_resubmitOf, 0);
}

void JobsActions::clone(qint64 id)
{
    const JobsModel::RunRow *row = m_model.runRow(id);
    if (!row)
        return;
    const std::optional<JobSpec> spec = storedSpec(id, row->run.specJson);
    if (!spec)
        return;
    Q_EMIT m_services.openSpecRequested(*spec);
    Q_EMIT m_services.showPlaceRequested(0);
}

void JobsActions::withdraw(qint64 id)
{
    if (id <= 0) {
        Q_EMIT message(tr("No run is selected."), true, 0, false);
        return;
    }
    m_services.storeTasks().run(
        this, [id](RunStore &store) { return store.withdrawRun(id); },
        [this, id](const Result<void> &done) {
            if (done)
                Q_EMIT message(tr("Run %1 withdrawn: it had not reached Slurm and will not be sent.").arg(id), false,
                               id, true);
            else
                Q_EMIT message(done.errorText(), true, id, false);
            Q_EMIT m_services.runsChanged({id});
        });
}

void JobsActions::toggleHidden(qint64 id)
{
    const JobsModel::RunRow *row = m_model.runRow(id);
    if (!row)
        return;
    const bool hide = !row->hidden;
    m_services.storeTasks().run(
        this, [id, hide](RunStore &store) { return store.setHidden(id, hide); },
        [this, id, hide](const Result<void> &done) {
            if (!done) {
                Q_EMIT message(done.errorText(), true, id, false);
                return;
            }
            Q_EMIT message(hide ? tr("Run %1 hidden (kept in the run store; \"Show hidden\" lists it again).").arg(id)
                                : tr("Run %1 shown again.").arg(id),
                           false, id, true);
            Q_EMIT m_services.runsChanged({id});
        });
}

void JobsActions::addToStudy(qint64 id)
{
    const qint64 study = m_model.studyOfSameSpec(id);
    if (study <= 0)
        return;
    const QString name = m_model.studyName(study);
    m_services.storeTasks().run(
        this, [id, study](RunStore &store) { return store.setRunStudy(id, study); },
        [this, id, name](const Result<void> &done) {
            if (!done) {
                Q_EMIT message(done.errorText(), true, id, false);
                return;
            }
            Q_EMIT message(tr("Run %1 is now a point of study \"%2\".").arg(id).arg(name), false, id, true);
            Q_EMIT m_services.runsChanged({id});
            Q_EMIT runJoinedStudy(id);
        });
}

}   // namespace scalelab
