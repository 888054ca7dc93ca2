// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/ScalingAnalysis.h"

namespace scalelab {

// Runs that shared a node while both ran (Slurm's node lists expanded): apart
// from ScalingAnalysis because it reads when and where runs ran, not their timings.
class RunOverlaps {
public:
    // Pairs of runs (completed or not) that shared a node while both ran.
    static QList<RunOverlap> find(const QList<ScalingRun> &runs);
};

}   // namespace scalelab
