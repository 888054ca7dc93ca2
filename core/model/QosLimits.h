// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// A Slurm QOS's per-job limits that decide whether a job is accepted
// (sacctmgr show qos). 0 = no limit set.
struct QosLimits {
    QString name;
    int maxGpusPerJob = 0;   // MaxTRESPerJob gres/gpu
    int maxNodesPerJob = 0;   // MaxTRESPerJob node
    qint64 maxWallSeconds = 0;   // MaxWall
    int maxGpusPerUser = 0;   // MaxTRESPerUser gres/gpu: GPUs of all the user's running jobs
    int maxJobsPerUser = 0;   // MaxJobsPerUser (informational)
    QString source;

    bool operator==(const QosLimits &) const = default;
};

}   // namespace scalelab
