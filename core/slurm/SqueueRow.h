// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SlurmJobState.h"

#include <QString>

namespace scalelab {

// One job line of `squeue --format=SqueueParser::formatArgument()`.
struct SqueueRow {
    QString jobId;   // "%i": "123", or "123_4" for array elements
    JobState state = JobState::Unknown;
    QString stateText;   // as printed
    QString reason;   // "Resources", "None", ...
    QString partition;
    QString timeUsed;   // Slurm time form, e.g. "1:02:03"
    QString timeLimit;
    int nodes = 0;
    QString nodeList;   // empty while pending
    QString tresPerNode;   // "%b", e.g. "gres:gpu:2" or "N/A"
    QString submitTime;   // ISO local time of the cluster
    QString startTime;   // ISO, "N/A" when unknown
    QString workDir;
    QString comment;   // ScaleLab puts the run token here
    QString name;   // user text: always the last field
    int line = 0;   // 1-based line in the output

    bool operator==(const SqueueRow &) const = default;
};

}   // namespace scalelab
