// SPDX-License-Identifier: GPL-3.0-or-later
// JobsPlace: withdrawing unsent runs, hiding runs and putting a resubmitted
// point back into its study. The store writes run on the pool
// (AppServices::storeTasks); the views read the run again when it is done.
#include "ui/jobs/JobsPlace.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/StoreTaskQueue.h"
#include "ui/jobs/JobsModel.h"

namespace scalelab {

void JobsPlace::withdrawSelected()
{
    const qint64 id = selectedRunId();
    if (id <= 0) {
        showMessage(tr("No run is selected."), true);
        return;
    }
    m_services.storeTasks().run(
        this, [id](RunStore &store) { return store.withdrawRun(id); },
        [this, id](const Result<void> &done) {
            if (done)
                showMessage(tr("Run %1 withdrawn: it had not reached Slurm and will not be sent.").arg(id));
            else
                showMessage(done.errorText(), true);
            Q_EMIT m_services.runsChanged({id});
        });
}

void JobsPlace::toggleHiddenSelected()
{
    const qint64 id = selectedRunId();
    const JobsModel::RunRow *row = m_model->runRow(id);
    if (!row)
        return;
    const bool hide = !row->hidden;
    m_services.storeTasks().run(
        this, [id, hide](RunStore &store) { return store.setHidden(id, hide); },
        [this, id, hide](const Result<void> &done) {
            if (!done) {
                showMessage(done.errorText(), true);
                return;
            }
            showMessage(hide ? tr("Run %1 hidden (kept in the run store; \"Show hidden\" lists it again).").arg(id)
                             : tr("Run %1 shown again.").arg(id));
            Q_EMIT m_services.runsChanged({id});
        });
}

void JobsPlace::addSelectedToStudy()
{
    const qint64 id = selectedRunId();
    const qint64 study = m_model->studyOfSameSpec(id);
    if (study <= 0)
        return;
    const QString name = m_model->studyName(study);
    m_services.storeTasks().run(
        this, [id, study](RunStore &store) { return store.setRunStudy(id, study); },
        [this, id, name](const Result<void> &done) {
            if (!done) {
                showMessage(done.errorText(), true);
                return;
            }
            showMessage(tr("Run %1 is now a point of study \"%2\".").arg(id).arg(name));
            Q_EMIT m_services.runsChanged({id});
            selectRun(id);
        });
}

}   // namespace scalelab
