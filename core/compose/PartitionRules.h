// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/compose: the validator's rules from Slurm's own settings of
// a partition (State, AllowAccounts, AllowQos, DefaultTime, memory) and from
// the QOS that reaches a job (the partition's and the researcher's
// association's). JobValidator.cpp calls them; each needs only what the
// profile describes, and a value it does not know is never an error.

#include "core/base/Diagnostic.h"
#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"
#include "core/model/LaunchGeometry.h"

#include <functional>
#include <optional>

namespace scalelab::jobrules {

// The partition a failing job could use instead; computed only when asked.
using Alternative = std::function<const Partition *()>;

// "64G", "16000M", "16000" -> MiB; nullopt when it is not a Slurm memory size.

Fix partitionFix(const Partition *p);
QString suggestionText(const Partition *p);

// The partition a researcher should use instead of `current` (JobValidator.cpp;
// FindingRemedies offers it beside a finding's own fix).
const Partition *suggestPartition(const JobSpec &spec, const ClusterProfile &profile, const QString &current);

// A QOS's limits are enforced by Slurm like the partition's own (DenyOnLimit
// rejects at submit); reported only where the QOS is stricter than the
// partition, with the QOS named. `whose` says how it reaches the job ("of
// partition gpu"); a limit that `over` (the partition QOS, which takes
// precedence over the job's QOS) also sets is left to it.
void checkQos(const JobSpec &spec, const LaunchGeometry &g, const Partition &p, const QosLimits &q,
              const QString &whose, const QosLimits *over, const Alternative &alternative, Diagnostics &out);

// State, AllowAccounts, AllowQos, DefaultTime, MaxMemPerNode and default
// memory of the job's partition, and the limits of the QOS the job gets
// through the researcher's association.
void checkPartitionSettings(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g,
                            const Alternative &alternative, Diagnostics &out);

}   // namespace scalelab::jobrules
