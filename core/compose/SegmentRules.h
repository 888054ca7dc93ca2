// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"
#include "core/model/Partition.h"

namespace scalelab {

// The validator's rules for a run longer than the time limit (JobSpec::segments):
// a time limit to signal before, a lead shorter than it and no shorter than a
// checkpoint takes (when the spec says), no second --signal or requeue option
// carried from an imported script; and --requeue (the segments' or a carried
// one) on a partition whose profile says the site refuses it. Each finding
// names its field; `partition` is the job's (nullptr = not known).
class SegmentRules {
public:
    static void check(const JobSpec &spec, const Partition *partition, Diagnostics &out);
};

}   // namespace scalelab
