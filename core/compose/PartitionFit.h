// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"

#include <QStringList>

namespace scalelab {

// The partitions of a profile that could take a job as it is: the job moved
// to each partition validates without an error (GPUs, nodes, time, QOS).
class PartitionFit {
public:
    // The job's own partition first (when it fits), then the profile's order.
    static QStringList fitting(const JobSpec &spec, const ClusterProfile &profile);
};

}   // namespace scalelab
