// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/PendingRunText.h"

#include "core/slurm/PendingReason.h"

namespace scalelab {

PendingRunInfo PendingRunText::of(const RunRecord &run, const QList<QueueWaitMedian> &medians)
{
    PendingRunInfo i;
    if (run.state != JobState::Pending || !run.hasJob())
        return i;
    i.pending = true;
    const PendingExplanation e = PendingReason::explain(run.reason);
    i.reason = e.detail.isEmpty() ? e.code : QStringLiteral("%1, %2").arg(e.code, e.detail);
    i.words = e.words;
    i.advice = e.advice;
    i.blocked = e.blocked;
    i.expectedStart = run.expectedStart;
    i.pastWait = QueueWaitStats::find(medians, run.clusterAlias, run.partition, run.gpus);
    return i;
}

QString PendingRunInfo::text() const
{
    if (!pending)
        return {};
    QStringList parts;
    if (!words.isEmpty())
        parts << QStringLiteral("Waits: %1 (%2) %3").arg(words, reason, advice);
    else if (!reason.isEmpty())
        parts << QStringLiteral("Waits: %1.").arg(reason);
    else
        parts << QStringLiteral("Waits in the queue.");
    parts << (expectedStart.isEmpty() ? QStringLiteral("Slurm has no expected start yet.")
                                      : QStringLiteral("Expected start %1 (cluster time).")
                                            .arg(QString(expectedStart).replace(QLatin1Char('T'), QLatin1Char(' '))));
    if (pastWait)
        parts << QStringLiteral("Your jobs like it: %1.").arg(pastWait->text());
    return parts.join(QLatin1Char(' '));
}

}   // namespace scalelab
