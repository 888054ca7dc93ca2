// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

namespace scalelab {

// How a spec maps onto Slurm: nodes, tasks and CPUs, derived from the
// framework's launch model and the partition. Pure and cheap: computed on
// every keystroke.
struct LaunchGeometry {
    const Partition *partition = nullptr;   // resolved partition (may be null)
    QString partitionName;
    Launcher launcher = Launcher::Srun;
    int gpus = 0;
    int nodes = 1;
    int gpusPerNode = 0;
    int tasksPerNode = 1;   // Slurm tasks per node
    int processesPerNode = 1;   // training processes per node (torchrun spawns them)
    int cpusPerTask = 1;
    int cpusPerGpu = 0;
    bool nodesDerived = true;

    int totalTasks() const { return nodes * tasksPerNode; }
    int totalProcesses() const { return nodes * processesPerNode; }
};

LaunchGeometry computeGeometry(const JobSpec &spec, const ClusterProfile &profile);

}   // namespace scalelab
