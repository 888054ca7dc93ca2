// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SegmentAccounting.h"

#include "core/slurm/SlurmTime.h"

namespace scalelab {

qint64 SegmentAccounting::elapsedSeconds(const QList<SacctRecord> &segments)
{
    qint64 total = 0;
    for (const SacctRecord &s : segments)
        total += std::max<qint64>(0, SlurmTime::parseSeconds(s.elapsed).value_or(0));
    return total;
}

SacctRecord SegmentAccounting::combine(const QList<SacctRecord> &segments)
{
    if (segments.isEmpty())
        return {};
    SacctRecord out = segments.last();
    if (segments.size() == 1)
        return out;
    const SacctRecord &first = segments.first();
    const qint64 elapsed = elapsedSeconds(segments);
    out.elapsed = SlurmTime::format(elapsed);
    out.submit = first.submit;
    out.start = first.start;
    if (!out.lines.isEmpty()) {
        auto &job = out.lines.first();
        job[QStringLiteral("Elapsed")] = out.elapsed;
        if (job.contains(QStringLiteral("ElapsedRaw")))
            job[QStringLiteral("ElapsedRaw")] = QString::number(elapsed);
        job[QStringLiteral("Submit")] = out.submit;
        job[QStringLiteral("Start")] = out.start;
    }
    return out;
}

}   // namespace scalelab
