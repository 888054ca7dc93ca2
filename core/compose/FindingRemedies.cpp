// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/FindingRemedies.h"

#include "core/compose/PartitionRules.h"

namespace scalelab {

QList<Fix> FindingRemedies::of(const Diagnostic &finding, const JobSpec &spec, const ClusterProfile &profile)
{
    QList<Fix> out;
    if (finding.fix.isValid())
        out << finding.fix;
    if (finding.rule == QLatin1String("time-exceeded")) {
        const Partition *current =
            spec.partition.isEmpty() ? profile.defaultPartition() : profile.partition(spec.partition);
        const Fix other =
            current ? jobrules::partitionFix(jobrules::suggestPartition(spec, profile, current->name)) : Fix{};
        if (other.isValid() && !out.contains(other))
            out << other;
    }
    return out;
}

}   // namespace scalelab
