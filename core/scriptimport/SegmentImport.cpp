// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/SegmentImport.h"

#include <QRegularExpression>

namespace scalelab {

namespace {

// The prologue's exports (SegmentScript::prologue): its number of segments, 0 = none.
int segmentsExported(const ScriptImport &imp, bool *untilDone, int *checkpointSeconds)
{
    static const QRegularExpression checkpoint(QStringLiteral("^export SCALELAB_CHECKPOINT_SECONDS=(\\d+)$"));
    static const QRegularExpression exported(
        QStringLiteral("^export SCALELAB_SEGMENT=\"\\$\\{SCALELAB_SEGMENT:-1\\}\" "
                       "SCALELAB_SEGMENTS=\"\\$\\{SCALELAB_SEGMENTS:-(\\d+)\\}\"$"));
    int count = 0;
    for (const ScriptLine &l : imp.lines) {
        const QString text = l.text.trimmed();
        if (const auto m = exported.match(text); m.hasMatch())
            count = m.captured(1).toInt();
        else if (text.contains(QLatin1String("scalelab_queue_next")))
            *untilDone = true;
        else if (const auto c = checkpoint.match(text); c.hasMatch())
            *checkpointSeconds = c.captured(1).toInt();
    }
    return count;
}

void dropCarried(JobSpec &spec, const QString &name)
{
    spec.slurmOptions.removeIf([&](const QPair<QString, QString> &o) { return o.first == name; });
}

}   // namespace

void SegmentImport::read(ScriptImport &imp)
{
    bool untilDone = false;
    int checkpointSeconds = 0;
    const int count = segmentsExported(imp, &untilDone, &checkpointSeconds);
    const SbatchOption *signal = imp.option(QStringLiteral("signal"));
    static const QRegularExpression written(QStringLiteral("^B:(USR1|USR2)@(\\d+)$"));
    const auto m = signal ? written.match(signal->value.trimmed()) : QRegularExpressionMatch();
    if (count < 1 || !m.hasMatch())
        return;
    SegmentSpec &g = imp.spec.segments;
    g.untilDone = untilDone;
    g.count = untilDone ? 0 : std::min(count, SegmentSpec::kMaxSegments);
    g.signal = m.captured(1);
    g.signalLeadSeconds = m.captured(2).toInt();
    g.requeue = imp.option(QStringLiteral("requeue")) != nullptr;
    g.checkpointSeconds = checkpointSeconds;
    dropCarried(imp.spec, QStringLiteral("signal"));
    dropCarried(imp.spec, QStringLiteral("requeue"));
}

}   // namespace scalelab
