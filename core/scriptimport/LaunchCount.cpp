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
    auto unresolvedCount = [&](const QString &text, int line) {
        s.unknownBecause = text;
        s.countLine = line ? line : l.line;
    };
    // The launcher's own worker count: the number given, else its default
    // when none is given, else unknown (a variable or a word we cannot read).
    auto workersPerInstance = [&](int whenAbsent) {
        if (l.nprocText.isEmpty())
            s.perInstance = whenAbsent;
        else if (l.nprocPerNode > 0)
            s.perInstance = l.nprocPerNode;
        else
            unresolvedCount(l.nprocText, l.nprocLine);
    };
    switch (l.launcher) {
    case ProcessLauncher::Torchrun:
        if (l.nprocText == QLatin1String("gpu") || l.nprocText == QLatin1String("auto"))
            s.perInstance = r.gpusPerNode;
        else
            workersPerInstance(1);   // torchrun's default
        if (l.nprocLine)
            s.countLine = l.nprocLine;
        break;
    case ProcessLauncher::Accelerate:
        // Without --num_processes accelerate uses its config: every GPU of the node.
        workersPerInstance(r.gpusPerNode);
        if (l.nprocLine)
            s.countLine = l.nprocLine;
        break;
    case ProcessLauncher::DeepSpeed:
        // Without --num_gpus DeepSpeed uses every GPU it sees on the node.
        workersPerInstance(r.gpusPerNode);
        if (!l.underSrun && l.hostfile) {
            s.instances = l.nnodes > 0 ? l.nnodes : jobNodes;
            s.instanceNodes = s.instances;
        }
        if (l.nprocLine)
            s.countLine = l.nprocLine;
        break;
    case ProcessLauncher::Horovodrun:
    case ProcessLauncher::Mpirun:
        if (l.npText.isEmpty() && l.launcher == ProcessLauncher::Mpirun)
            s.perInstance = r.tasks;   // mpirun inside Slurm fills every task slot
        else if (l.np > 0)
            s.perInstance = l.np;
        else
            unresolvedCount(l.npText.isEmpty() ? QStringLiteral("(no -np)") : l.npText, l.npLine);
        if (l.launcher == ProcessLauncher::Mpirun || l.hostfile)
            s.instanceNodes = jobNodes;   // mpirun reads the Slurm allocation
        if (l.npLine)
            s.countLine = l.npLine;
        break;
    case ProcessLauncher::None:
        s.perInstance = 1;
        break;
    }
    if (s.unknownBecause.isEmpty())
        s.processes = satMul(s.instances, s.perInstance);
    return s;
}

}   // namespace scalelab
