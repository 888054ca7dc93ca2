// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LintRules.h"

#include "core/scriptimport/ScriptOptionReader.h"

#include <algorithm>

// Counting what a launch line starts: copies of the launcher (srun tasks) and
// the workers each copy spawns, the way srun and each launcher fill in their
// defaults.

namespace scalelab {

QString plural(int n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

namespace {

// The launcher's own workers: per copy (torchrun --nproc_per_node) or in
// total (mpirun -np), the number given, else the row's default when none is
// given, else unknown (a variable or a word we cannot read).
void countWorkers(const LaunchCommand &l, const LauncherTraits &row, const ScriptRequest &r, Started &s)
{
    const bool total = row.model == ProcessModel::RankPerTask;
    const WrittenCount &count = total ? l.np : l.nproc;
    if (count.line)
        s.countLine = count.line;
    if (!total && row.allGpuWords.contains(count.text)) {
        s.perInstance = r.gpusPerNode;
    } else if (count.value > 0) {
        s.perInstance = count.value;
    } else if (count.given() || row.whenNoCount == CountDefault::Required) {
        s.unknownBecause = count.given() ? count.text : QStringLiteral("(no %1)").arg(row.totalOptions.value(0));
        s.countLine = count.line ? count.line : l.line;
    } else {
        switch (row.whenNoCount) {
        case CountDefault::One:
        case CountDefault::Required:
            s.perInstance = 1;
            break;
        case CountDefault::NodeGpus:
            s.perInstance = r.gpusPerNode;
            break;
        case CountDefault::JobTasks:
            s.perInstance = r.tasks;
            break;
        }
    }
}

}   // namespace

Started countStarted(const LaunchCommand &l, const ScriptRequest &r)
{
    Started s;
    const int jobNodes = r.effectiveNodes();
    if (l.underSrun) {
        int nodes = l.srunNodes > 0 ? std::min(l.srunNodes, jobNodes) : jobNodes;
        if (l.srunTasks > 0)
            s.instances = l.srunTasks;
        else if (l.srunTasksPerNode > 0)
            s.instances = satMul(l.srunTasksPerNode, nodes);
        else if (l.srunNodes > 0)
            s.instances = satMul(nodes, r.tasksPerNode);
        else
            s.instances = r.tasks;
        s.instanceNodes = std::max(1, std::min(nodes, s.instances));
    }
    s.countLine = l.line;
    if (!l.launcher) {
        s.perInstance = 1;   // srun alone, or one program
    } else {
        const LauncherTraits &row = launcherTraits(*l.launcher);
        countWorkers(l, row, r, s);
        if (row.model == ProcessModel::RankPerTask && (row.readsAllocation || l.hostfile)) {
            s.instanceNodes = jobNodes;   // ranks over the allocation, or over the hosts it was told
        } else if (row.model == ProcessModel::AgentPerNode && l.hostfile && !l.underSrun) {
            s.instances = l.nnodes.value > 0 ? l.nnodes.value : jobNodes;   // an agent on every host
            s.instanceNodes = s.instances;
        }
    }
    if (s.unknownBecause.isEmpty())
        s.processes = satMul(s.instances, s.perInstance);
    return s;
}

}   // namespace scalelab
