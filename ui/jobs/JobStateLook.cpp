// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/JobStateLook.h"

#include "core/slurm/SlurmJobState.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>

namespace scalelab::JobStateLook {

QColor stateColour(JobState s)
{
    switch (s) {
    case JobState::Pending:
    case JobState::Configuring:
    case JobState::Requeued:
        return QColor(0xb2, 0x8a, 0x00);   // amber
    case JobState::Running:
    case JobState::Completing:
    case JobState::Resizing:
        return QColor(0x1a, 0x73, 0xe8);   // blue
    case JobState::Completed:
        return QColor(0x1e, 0x8e, 0x3e);   // green
    case JobState::Cancelled:
    case JobState::Suspended:
    case JobState::Preempted:
    case JobState::Revoked:
        return QColor(0x70, 0x70, 0x70);   // grey
    case JobState::Failed:
    case JobState::Timeout:
    case JobState::NodeFail:
    case JobState::OutOfMemory:
    case JobState::BootFail:
    case JobState::Deadline:
    case JobState::SpecialExit:
        return QColor(0xc5, 0x22, 0x1f);   // red
    case JobState::Unknown:
        break;
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

QColor runColour(const RunRecord &run)
{
    if (run.hasJob())
        return stateColour(run.state);
    return run.submitState == SubmitState::Rejected ? stateColour(JobState::Failed) : stateColour(JobState::Unknown);
}

QIcon stateIcon(const QColor &colour)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(colour.darker(130));
    p.setBrush(colour);
    p.drawEllipse(QRectF(1, 1, 10, 10));
    return QIcon(pm);
}

QString stateText(const RunRecord &run)
{
    if (run.hasJob())
        return SlurmJobState::displayName(run.state);
    switch (run.submitState) {
    case SubmitState::Intent:
        return QCoreApplication::translate("JobsModel", "Not sent yet");
    case SubmitState::Uploaded:
        return QCoreApplication::translate("JobsModel", "Uploaded, not submitted");
    case SubmitState::Unknown:
        return QCoreApplication::translate("JobsModel", "Submission unknown (checking)");
    case SubmitState::Rejected:
        return QCoreApplication::translate("JobsModel", "Rejected");
    case SubmitState::Submitted:
    case SubmitState::Reconciled:
        break;
    }
    return SlurmJobState::displayName(run.state);
}

}   // namespace scalelab::JobStateLook
