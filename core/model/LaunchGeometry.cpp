// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/LaunchGeometry.h"

#include <algorithm>

namespace scalelab {

LaunchGeometry computeGeometry(const JobSpec &spec, const ClusterProfile &profile)
{
    LaunchGeometry g;
    g.partition = spec.partition.isEmpty() ? profile.defaultPartition() : profile.partition(spec.partition);
    g.partitionName = g.partition ? g.partition->name : spec.partition;
    g.launcher = spec.effectiveLauncher();
    // Bounded so that no product below can overflow, whatever a caller passes.
    constexpr int kMaxCount = 100000;
    g.gpus = std::clamp(spec.gpus, 0, kMaxCount);
    const int askedNodes = std::clamp(spec.nodes, 0, kMaxCount);
    const int askedCpusPerGpu = std::clamp(spec.cpusPerGpu, 0, 10000);
    const int cap = g.partition ? g.partition->gpusPerNode : 0;

    if (askedNodes > 0) {
        g.nodes = askedNodes;
        g.nodesDerived = false;
    } else if (!frameworkSpansNodes(spec.framework) || cap <= 0) {
        g.nodes = 1;
    } else {
        g.nodes = std::max(1, (g.gpus + cap - 1) / cap);
    }
    g.gpusPerNode = g.nodes > 0 ? (g.gpus + g.nodes - 1) / g.nodes : g.gpus;

    // CPUs per GPU: what the researcher asked for, else the node's fair share
    // so that GPUs x CPUs never exceeds the node.
    if (askedCpusPerGpu > 0) {
        g.cpusPerGpu = askedCpusPerGpu;
    } else if (g.partition && g.partition->gpusPerNode > 0) {
        g.cpusPerGpu = std::max(1, g.partition->cpusPerNode / g.partition->gpusPerNode);
    } else {
        g.cpusPerGpu = 1;
    }
    const int gpn = std::max(g.gpusPerNode, 1);

    // Agents spawn one worker per GPU; ranks and srun's own processes are
    // one per GPU, except a framework whose one process drives the node.
    const ProcessModel model = launcherTraits(g.launcher).model;
    const bool onePerNode = model == ProcessModel::AgentPerNode
                            || (model == ProcessModel::SrunTasks && frameworkOneProcessPerNode(spec.framework));
    g.tasksPerNode = onePerNode ? 1 : gpn;
    g.processesPerNode = model == ProcessModel::AgentPerNode ? gpn : g.tasksPerNode;
    g.cpusPerTask = onePerNode ? g.cpusPerGpu * gpn : g.cpusPerGpu;
    return g;
}

}   // namespace scalelab
