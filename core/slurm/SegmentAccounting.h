// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SacctRecord.h"

#include <QList>

namespace scalelab {

// The accounting of a run made of several jobs (segments, in order): one
// record whose elapsed time is the sum of the segments', whose submit and
// start are the first segment's and whose end, state, exit code and
// allocation are the last's. GPU-hours and billing × hours, computed from
// elapsed × the allocation, therefore add up over the segments too (the
// segments share one script, so one allocation). The job line's fields in
// `lines` (what AccountingMetrics reads) say the same.
class SegmentAccounting {
public:
    static SacctRecord combine(const QList<SacctRecord> &segments);
    // The sum of the segments' Elapsed in seconds (an unreadable one counts 0).
    static qint64 elapsedSeconds(const QList<SacctRecord> &segments);
};

}   // namespace scalelab
