// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/SegmentRules.h"

#include "core/model/SpecFields.h"
#include "core/slurm/SlurmTime.h"

namespace scalelab {

namespace {

Diagnostic finding(Severity sev, const char *rule, const QString &field, const QString &message)
{
    return Diagnostic{sev, QString::fromLatin1(rule), field, 0, 0, message, {}};
}

// The spec carries an option of an imported script that the segments write themselves.
bool carries(const JobSpec &spec, const char *name)
{
    for (const auto &option : spec.slurmOptions)
        if (option.first == QLatin1String(name))
            return true;
    return false;
}

// --requeue where the profile says the site refuses it.
void checkRequeueAllowed(const JobSpec &spec, const Partition *partition, Diagnostics &out)
{
    const bool segments = spec.segments.enabled() && spec.segments.requeue;
    if (!partition || partition->requeue.value_or(true) || (!segments && !carries(spec, "requeue")))
        return;
    const QString source = partition->sources.value(QStringLiteral("requeue"));
    out << finding(Severity::Error, "requeue-forbidden",
                   segments ? QLatin1String(SpecField::segmentsRequeue) : QStringLiteral("slurmOptions"),
                   QStringLiteral("Partition %1 does not let jobs be requeued%2, but the job asks for --requeue; "
                                  "remove it (a segment whose node fails then ends the run, which resumes from its "
                                  "checkpoint when submitted again).")
                       .arg(partition->name, source.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(source)));
}

// A signal lead shorter than the spec says a checkpoint takes.
void checkLeadCoversCheckpoint(const SegmentSpec &g, Diagnostics &out)
{
    if (g.checkpointSeconds <= 0 || g.signalLeadSeconds >= g.checkpointSeconds)
        return;
    out << finding(Severity::Warning, "segments-lead-checkpoint", QLatin1String(SpecField::segmentsSignalLead),
                   QStringLiteral("The signal comes %1 s before the time limit but a checkpoint takes %2 s: the "
                                  "limit ends the job while it writes, and the next segment resumes from an older "
                                  "one. Set the lead to at least %2 s.")
                       .arg(g.signalLeadSeconds)
                       .arg(g.checkpointSeconds));
}

}   // namespace

void SegmentRules::check(const JobSpec &spec, const Partition *partition, Diagnostics &out)
{
    checkRequeueAllowed(spec, partition, out);
    const SegmentSpec &g = spec.segments;
    if (!g.enabled())
        return;
    checkLeadCoversCheckpoint(g, out);
    const QString lead = QLatin1String(SpecField::segmentsSignalLead);
    if (g.count > SegmentSpec::kMaxSegments)
        out << finding(Severity::Error, "segments-count", QLatin1String(SpecField::segmentsCount),
                       QStringLiteral("At most %1 segments; use \"until-done\" to continue as long as the work needs.")
                           .arg(SegmentSpec::kMaxSegments));
    if (g.signal != QLatin1String("USR1") && g.signal != QLatin1String("USR2"))
        out << finding(Severity::Error, "segments-signal", QLatin1String(SpecField::segmentsSignal),
                       QStringLiteral("The signal before the limit must be USR1 or USR2."));
    if (g.signalLeadSeconds < 1)
        out << finding(Severity::Error, "segments-lead", lead,
                       QStringLiteral("The signal must come at least 1 s before the time limit."));
    const auto limit = SlurmTime::parseSeconds(spec.time.trimmed());
    if (spec.time.trimmed().isEmpty())
        out << finding(Severity::Error, "segments-time", QStringLiteral("time"),
                       QStringLiteral("Segments need a time limit: each segment is signalled %1 s before it.")
                           .arg(g.signalLeadSeconds));
    else if (limit && *limit > 0 && g.signalLeadSeconds >= *limit)
        out << finding(Severity::Error, "segments-lead", lead,
                       QStringLiteral("The signal lead (%1 s) must be shorter than the time limit (%2 s).")
                           .arg(g.signalLeadSeconds)
                           .arg(*limit));
    if (carries(spec, "signal"))
        out << finding(Severity::Error, "segments-signal-twice", QStringLiteral("slurmOptions"),
                       QStringLiteral("The spec carries its own --signal and asks for segments, which write one; "
                                      "remove \"signal\" from slurmOptions."));
    if (carries(spec, "no-requeue") && g.requeue)
        out << finding(Severity::Error, "segments-requeue-conflict", QLatin1String(SpecField::segmentsRequeue),
                       QStringLiteral("segments.requeue asks for --requeue but slurmOptions carries --no-requeue; "
                                      "remove one."));
}

}   // namespace scalelab
