// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

namespace scalelab {

// The validator's rules for a run longer than the time limit (JobSpec::segments):
// a time limit to signal before, a lead shorter than it, no second --signal or
// requeue option carried from an imported script. Each finding names its field.
class SegmentRules {
public:
    static void check(const JobSpec &spec, Diagnostics &out);
};

}   // namespace scalelab
