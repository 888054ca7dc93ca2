// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SlurmJobState.h"

#include <QHash>

namespace scalelab {

namespace {

struct StateInfo {
    JobState state;
    const char *id;
    const char *shortCode;
    const char *display;
};

constexpr StateInfo kStates[] = {
    {JobState::Unknown, "UNKNOWN", "", "Unknown"},
    {JobState::Pending, "PENDING", "PD", "Pending"},
    {JobState::Configuring, "CONFIGURING", "CF", "Configuring"},
    {JobState::Running, "RUNNING", "R", "Running"},
    {JobState::Completing, "COMPLETING", "CG", "Completing"},
    {JobState::Suspended, "SUSPENDED", "S", "Suspended"},
    {JobState::Completed, "COMPLETED", "CD", "Completed"},
    {JobState::Failed, "FAILED", "F", "Failed"},
    {JobState::Cancelled, "CANCELLED", "CA", "Cancelled"},
    {JobState::Timeout, "TIMEOUT", "TO", "Timed out"},
    {JobState::NodeFail, "NODE_FAIL", "NF", "Node failure"},
    {JobState::Preempted, "PREEMPTED", "PR", "Preempted"},
    {JobState::OutOfMemory, "OUT_OF_MEMORY", "OOM", "Out of memory"},
    {JobState::BootFail, "BOOT_FAIL", "BF", "Boot failure"},
    {JobState::Deadline, "DEADLINE", "DL", "Deadline reached"},
    {JobState::Requeued, "REQUEUED", "RQ", "Requeued"},
    {JobState::Resizing, "RESIZING", "RS", "Resizing"},
    {JobState::Revoked, "REVOKED", "RV", "Revoked"},
    {JobState::SpecialExit, "SPECIAL_EXIT", "SE", "Special exit"},
};

const QHash<QString, JobState> &lookup()
{
    static const QHash<QString, JobState> table = [] {
        QHash<QString, JobState> t;
        for (const auto &s : kStates) {
            t.insert(QString::fromLatin1(s.id), s.state);
            if (*s.shortCode)
                t.insert(QString::fromLatin1(s.shortCode), s.state);
        }
        // Transitional states Slurm reports that map onto the closest visible one.
        t.insert(QStringLiteral("STOPPED"), JobState::Suspended);
        t.insert(QStringLiteral("ST"), JobState::Suspended);
        t.insert(QStringLiteral("REQUEUE_HOLD"), JobState::Requeued);
        t.insert(QStringLiteral("RH"), JobState::Requeued);
        t.insert(QStringLiteral("REQUEUE_FED"), JobState::Requeued);
        t.insert(QStringLiteral("RF"), JobState::Requeued);
        t.insert(QStringLiteral("SIGNALING"), JobState::Completing);
        t.insert(QStringLiteral("SI"), JobState::Completing);
        t.insert(QStringLiteral("STAGE_OUT"), JobState::Completing);
        t.insert(QStringLiteral("SO"), JobState::Completing);
        t.insert(QStringLiteral("RESV_DEL_HOLD"), JobState::Pending);
        t.insert(QStringLiteral("RD"), JobState::Pending);
        t.insert(QStringLiteral("OOM"), JobState::OutOfMemory);
        return t;
    }();
    return table;
}

const StateInfo &info(JobState s)
{
    for (const auto &i : kStates)
        if (i.state == s)
            return i;
    return kStates[0];
}

}   // namespace

JobState SlurmJobState::parse(const QString &text)
{
    QString t = text.trimmed().toUpper();
    // sacct: "CANCELLED by 1001"; sacct fixed-width: "CANCELLED+".
    const qsizetype space = t.indexOf(QLatin1Char(' '));
    if (space > 0)
        t.truncate(space);
    while (t.endsWith(QLatin1Char('+')))
        t.chop(1);
    return lookup().value(t, JobState::Unknown);
}

bool SlurmJobState::isTerminal(JobState s)
{
    switch (s) {
    case JobState::Completed:
    case JobState::Failed:
    case JobState::Cancelled:
    case JobState::Timeout:
    case JobState::NodeFail:
    case JobState::Preempted:
    case JobState::OutOfMemory:
    case JobState::BootFail:
    case JobState::Deadline:
    case JobState::Revoked:
    case JobState::SpecialExit:
        return true;
    default:
        return false;
    }
}

QString SlurmJobState::id(JobState s)
{
    return QString::fromLatin1(info(s).id);
}

QString SlurmJobState::displayName(JobState s)
{
    return QString::fromLatin1(info(s).display);
}

}   // namespace scalelab
