// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/PartitionFit.h"

#include "core/compose/JobValidator.h"

namespace scalelab {

QStringList PartitionFit::fitting(const JobSpec &spec, const ClusterProfile &profile)
{
    QStringList out;
    auto consider = [&](const QString &name) {
        if (name.isEmpty() || out.contains(name))
            return;
        JobSpec moved = spec;
        moved.partition = name;
        if (!hasErrors(validateJob(moved, profile)))
            out << name;
    };
    consider(spec.partition);
    for (const Partition &p : profile.partitions)
        if (spec.gpus <= 0 || p.gpusPerNode > 0)
            consider(p.name);
    return out;
}

}   // namespace scalelab
