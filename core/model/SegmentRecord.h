// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SlurmJobState.h"

#include <QString>

namespace scalelab {

// One job of a run made of segments (JobSpec::segments), as the store keeps
// it (run_segments): its place in the chain, its job and what sacct said of
// it when it ended. The run's own job id is the segment the poll follows.
struct SegmentRecord {
    qint64 runId = 0;
    int segment = 0;   // 1 = the first job
    QString jobId;
    JobState state = JobState::Pending;
    QString stateText;   // sacct's, e.g. "COMPLETED"; "" until it ended
    QString exitCode;   // "0:0"
    QString submit, start, end, elapsed;   // as sacct printed them
    bool ended() const { return !stateText.isEmpty(); }
    bool operator==(const SegmentRecord &) const = default;
};

}   // namespace scalelab
