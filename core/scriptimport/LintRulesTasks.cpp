// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LintRules.h"

#include <algorithm>

// Frameworks that srun starts directly, one process per GPU: Lightning
// (its SLURM environment takes the task count as its process count),
// Horovod and DeepSpeed without their own launcher, JAX (its
// jax.distributed.initialize() takes one process per Slurm task). One task per node for
// several GPUs per node looks like a multi-worker layout but is not one.

namespace scalelab {

void lintTasksPerGpu(ScriptImport &imp)
{
    const LaunchCommand *l = imp.launch();
    const ScriptRequest &r = imp.request;
    if (!l || !l->underSrun || l->launcher.has_value() || r.gpusPerNode <= 1)
        return;
    const Framework f = imp.spec.framework;
    if (f != Framework::Lightning && f != Framework::Horovod && f != Framework::DeepSpeed && f != Framework::Jax)
        return;
    const Started s = countStarted(*l, r);
    const int perNode = s.instances / std::max(1, s.instanceNodes);
    if (perNode >= r.gpusPerNode)
        return;   // more tasks than GPUs: launcher-too-many-processes says it
    const bool said = std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(), [](const Diagnostic &d) {
        return d.rule == QLatin1String("launcher-too-few-processes");
    });
    if (said)
        return;
    const int line =
        imp.option(QStringLiteral("ntasks-per-node")) ? imp.option(QStringLiteral("ntasks-per-node"))->line : l->line;
    const bool lightning = f == Framework::Lightning;
    imp.diagnostics << finding(
        lightning ? Severity::Error : Severity::Warning, QStringLiteral("tasks-per-gpu"), QString(), line,
        QStringLiteral("%1 started by srun runs one process per task, each on one GPU, but srun starts %2 per node "
                       "for %3 GPUs per node: %4%5 Set --ntasks-per-node=%3.")
            .arg(frameworkName(f), plural(perNode, "task", "tasks"))
            .arg(r.gpusPerNode)
            .arg(plural(r.gpusPerNode - perNode, "GPU idles.", "GPUs idle."),
                 lightning ? QStringLiteral(" Lightning refuses to start when its devices and the tasks per node "
                                            "disagree.")
                           : QString()));
}

}   // namespace scalelab
