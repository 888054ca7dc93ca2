// SPDX-License-Identifier: GPL-3.0-or-later
// The pending reasons table (Slurm's job_reason words, squeue(1) "JOB REASON CODES").
#include "core/slurm/PendingReason.h"

namespace scalelab {

// table: Slurm's pending reason -> plain words, advice, whether waiting alone starts it
const QList<PendingReasonRow> &PendingReason::table()
{
    static const QList<PendingReasonRow> rows{
        {"Priority", "Other jobs ahead of it in the queue have a higher priority.",
         "Wait; a shorter time limit or fewer GPUs can let the scheduler fit it in earlier (backfill).", false},
        {"Resources", "It is next in line and waits for the GPUs or nodes it asked for to become free.",
         "Wait; the start estimate says when they are expected to be free.", false},
        {"Dependency", "It waits for another job it depends on to end.",
         "Nothing: a study run one at a time waits this way for the run before it.", false},
        {"DependencyNeverSatisfied", "The job it depends on ended in a way that can never satisfy the dependency.",
         "Cancel it and submit it again without the dependency.", true},
        {"QOSMaxGRESPerUser",
         "Your QOS limits the GPUs one researcher may use at once, and your running jobs use them.",
         "It starts when enough of your other jobs end; or cancel one, or ask for fewer GPUs.", false},
        {"QOSMaxGRESPerJob", "It asks for more GPUs than its QOS allows for one job.",
         "It will never start: cancel it and submit with fewer GPUs or another QOS or partition.", true},
        {"QOSMaxGRESPerAccount", "Your QOS limits the GPUs one project may use at once, and its running jobs use them.",
         "It starts when jobs of your project end.", false},
        {"QOSGrpGRES", "All GPUs the QOS allows at once are in use.", "It starts when jobs in the same QOS end.",
         false},
        {"AssocGrpGRES", "Your project (association) may use only so many GPUs at once, and its running jobs use them.",
         "It starts when jobs of your project end; or ask for fewer GPUs.", false},
        {"AssocGrpGRESMinutes", "Your project's allocation of GPU time is used up.",
         "It will not start until the allocation is raised or renewed: ask your project's PI or the site.", true},
        {"AssocGrpBillingMinutes", "Your project's allocation of billing units is used up.",
         "It will not start until the allocation is raised or renewed: ask your project's PI or the site.", true},
        {"AssocGrpCPUMinutesLimit", "Your project's allocation of CPU time is used up.",
         "It will not start until the allocation is raised or renewed: ask your project's PI or the site.", true},
        {"AssocGrpGRESRunMinutes", "Your project's running jobs already hold as much GPU time as it may have running.",
         "It starts as they finish; shorter time limits help.", false},
        {"AssocMaxJobsLimit", "You already run as many jobs as your association allows.", "It starts when one ends.",
         false},
        {"AssocGrpJobsLimit", "Your project already runs as many jobs as it may.", "It starts when one of them ends.",
         false},
        {"QOSMaxJobsPerUserLimit", "You already run as many jobs as your QOS allows.", "It starts when one ends.",
         false},
        {"QOSMaxWallDurationPerJobLimit", "Its time limit is longer than its QOS allows.",
         "It will never start: cancel it and submit with a shorter time limit.", true},
        {"PartitionTimeLimit", "Its time limit is longer than the partition allows.",
         "It will never start: cancel it and submit with a shorter time limit or to another partition.", true},
        {"PartitionNodeLimit", "It asks for more nodes than the partition allows.",
         "Cancel it and submit with fewer GPUs or to another partition.", true},
        {"PartitionDown", "The partition is down.", "It starts when the site brings the partition up.", false},
        {"PartitionInactive", "The partition is inactive: it takes no jobs now.",
         "Submit to another partition, or ask the site.", true},
        {"ReqNodeNotAvail", "Some of the nodes it needs are down, drained or reserved.",
         "If a maintenance reservation is named, it starts after the maintenance; a shorter time limit may let it "
         "finish before it begins.",
         false},
        {"Reservation", "It waits for its reservation to start.", "Nothing: it starts with the reservation.", false},
        {"BeginTime", "It was asked to start no earlier than a given time (--begin).", "Nothing: it waits for then.",
         false},
        {"JobHeldUser", "You (or a tool of yours) held it.", "Release it with `scontrol release JOBID`.", true},
        {"JobHeldAdmin", "An administrator held it.", "Ask the site why.", true},
        {"BadConstraints", "No node can satisfy what it asks for (constraints, GPUs, memory).",
         "It will never start: cancel it and change the request.", true},
        {"InvalidAccount", "Its account is not valid for you.",
         "Cancel it and submit with one of your accounts (`sacctmgr show assoc user=$USER`).", true},
        {"InvalidQOS", "Its QOS is not valid for you.", "Cancel it and submit with a QOS you may use.", true},
        {"NodeDown", "A node it needs is down.", "It starts when the node is back, or is requeued.", false},
        {"Licenses", "It waits for licenses it asked for.", "It starts when they are free.", false},
        {"launch failed requeued held", "Its launch failed; Slurm requeued it and held it.",
         "Look at the node's error, then release it (`scontrol release JOBID`) or cancel it.", true},
    };
    return rows;
}

namespace {

// A reason not in the table, by the family of its word.
PendingExplanation byFamily(PendingExplanation e)
{
    const QString &c = e.code;
    // "...RunMinutes" limits what running jobs hold, not an allocation.
    const bool minutes = c.contains(QLatin1String("Minutes")) && !c.contains(QLatin1String("RunMinutes"));
    const bool wall = c.contains(QLatin1String("Wall"));
    const QString who = c.startsWith(QLatin1String("QOS"))         ? QStringLiteral("its QOS")
                        : c.startsWith(QLatin1String("Assoc"))     ? QStringLiteral("your project (association)")
                        : c.startsWith(QLatin1String("Partition")) ? QStringLiteral("the partition")
                                                                   : QString();
    if (who.isEmpty())
        return e;
    e.known = true;
    if (minutes) {
        e.words = QStringLiteral("An allocation of %1 is used up (%2).").arg(who, c);
        e.advice = QStringLiteral("It will not start until the allocation is raised or renewed: ask the site.");
        e.blocked = true;
    } else if (wall) {
        e.words = QStringLiteral("Its time limit is longer than %1 allows (%2).").arg(who, c);
        e.advice = QStringLiteral("It will never start: cancel it and submit with a shorter time limit.");
        e.blocked = true;
    } else {
        e.words = QStringLiteral("A limit of %1 is reached (%2).").arg(who, c);
        e.advice = QStringLiteral("It starts when running jobs under that limit end; `scontrol show job JOBID` "
                                  "names the limit.");
    }
    return e;
}

}   // namespace

PendingExplanation PendingReason::explain(const QString &reason)
{
    PendingExplanation e;
    QString text = reason.left(400).trimmed();
    if (text.startsWith(QLatin1Char('(')) && text.endsWith(QLatin1Char(')')))
        text = text.mid(1, text.size() - 2).trimmed();
    if (text.isEmpty() || text == QLatin1String("None") || text == QLatin1String("(null)"))
        return e;
    for (const PendingReasonRow &row : table())
        if (text == QLatin1String(row.code)) {
            e.code = text;
            e.words = QString::fromUtf8(row.words);
            e.advice = QString::fromUtf8(row.advice);
            e.blocked = row.blocked;
            e.known = true;
            return e;
        }
    // "ReqNodeNotAvail, UnavailableNodes:tb-node1", "ReqNodeNotAvail, Reserved for maintenance".
    const qsizetype cut = text.indexOf(QLatin1Char(','));
    e.code = (cut < 0 ? text : text.left(cut)).trimmed();
    e.detail = cut < 0 ? QString() : text.mid(cut + 1).trimmed();
    for (const PendingReasonRow &row : table())
        if (e.code == QLatin1String(row.code)) {
            e.words = QString::fromUtf8(row.words);
            e.advice = QString::fromUtf8(row.advice);
            e.blocked = row.blocked;
            e.known = true;
            break;
        }
    if (e.detail.contains(QLatin1String("maintenance"), Qt::CaseInsensitive)) {
        e.words = QStringLiteral("The nodes it needs are reserved for a maintenance.");
        e.advice = QStringLiteral("It starts after the maintenance; a time limit that ends before the maintenance "
                                  "begins lets it run now.");
        e.known = true;
    }
    return e.known ? e : byFamily(e);
}

}   // namespace scalelab
