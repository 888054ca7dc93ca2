// SPDX-License-Identifier: GPL-3.0-or-later
// JobsPlace: withdrawing unsent runs, hiding runs and putting a resubmitted
// point back into its study (the store changes; the views reload).
#include "ui/jobs/JobsPlace.h"

#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/jobs/JobsModel.h"

namespace scalelab {

QString JobsPlace::withdrawSelected()
{
    const qint64 id = selectedRunId();
    if (id <= 0)
        return tr("No run is selected.");
    const QString e = m_services.store().withdrawRun(id).errorText();
    if (e.isEmpty())
        showMessage(tr("Run %1 withdrawn: it had not reached Slurm and will not be sent.").arg(id));
    else
        showMessage(e, true);
    Q_EMIT m_services.runsChanged({id});
    return e;
}

void JobsPlace::toggleHiddenSelected()
{
    const qint64 id = selectedRunId();
    const JobsModel::RunRow *row = m_model->runRow(id);
    if (!row)
        return;
    const bool hide = !row->hidden;
    if (const QString e = m_services.store().setHidden(id, hide).errorText(); !e.isEmpty()) {
        showMessage(e, true);
        return;
    }
    showMessage(hide ? tr("Run %1 hidden (kept in the run store; \"Show hidden\" lists it again).").arg(id)
                     : tr("Run %1 shown again.").arg(id));
    Q_EMIT m_services.runsChanged({id});
}

void JobsPlace::addSelectedToStudy()
{
    const qint64 id = selectedRunId();
    const qint64 study = m_model->studyOfSameSpec(id);
    if (study <= 0)
        return;
    const QString name = m_model->studyName(study);
    if (const QString e = m_services.store().setRunStudy(id, study).errorText(); !e.isEmpty()) {
        showMessage(e, true);
        return;
    }
    showMessage(tr("Run %1 is now a point of study \"%2\".").arg(id).arg(name));
    Q_EMIT m_services.runsChanged({id});
    selectRun(id);
}

}   // namespace scalelab
