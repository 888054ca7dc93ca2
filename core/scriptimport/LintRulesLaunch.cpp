// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LintRules.h"

#include <algorithm>

// How a multi-node launch finds its peers: torchrun and accelerate need the
// address of the first node, and each node needs its own rank. These rules
// read the launch line the parser unwrapped (through srun, containers and
// bash -c strings).

namespace scalelab {

namespace {

bool exported(const ScriptImport &imp, std::initializer_list<const char *> names)
{
    for (const auto &[k, v] : imp.spec.environment.variables)
        for (const char *n : names)
            if (k == QLatin1String(n))
                return true;
    for (const ScriptLine &sl : imp.lines)
        for (const char *n : names)
            if (sl.text.contains(QLatin1String(n) + QLatin1Char('=')))
                return true;
    return false;
}

// Copies of the launcher srun starts on each node; 1 without srun.
int launcherCopiesPerNode(const LaunchCommand &l, const ScriptRequest &r)
{
    if (!l.underSrun)
        return 1;
    if (l.srunTasksPerNode > 0)
        return l.srunTasksPerNode;
    const int nodes = l.srunNodes > 0 ? std::min(l.srunNodes, r.effectiveNodes()) : r.effectiveNodes();
    if (l.srunTasks > 0)
        return std::max(1, (l.srunTasks + nodes - 1) / nodes);
    return std::max(1, r.tasksPerNode);
}

}   // namespace

void lintLauncherRendezvous(ScriptImport &imp)
{
    const LaunchCommand *l = imp.launch();
    if (!l)
        return;
    const ScriptRequest &r = imp.request;
    const int copies = launcherCopiesPerNode(*l, r);
    const bool torch = l->launcher == Launcher::Torchrun;
    const bool accelerate = l->launcher == Launcher::Accelerate;

    // --node_rank=$SLURM_PROCID: the task rank equals the node rank only with
    // one task per node.
    if ((torch || accelerate) && copies > 1 && l->nodeRank.contains(QLatin1String("SLURM_PROCID"))) {
        imp.diagnostics << finding(
            Severity::Error, QStringLiteral("node-rank-procid"), QStringLiteral("launcher"),
            l->nodeRankLine ? l->nodeRankLine : l->line,
            QStringLiteral("%1 takes its node rank from $SLURM_PROCID, but srun starts %2 tasks per node: the ranks "
                           "run from 0 to %3 on %4, and ranks beyond %5 name nodes that do not exist. Use "
                           "$SLURM_NODEID with one task per node (srun --ntasks-per-node=1).")
                .arg(l->launcherWord)
                .arg(copies)
                .arg(copies * r.effectiveNodes() - 1)
                .arg(r.effectiveNodes() == 1 ? QStringLiteral("1 node")
                                             : QStringLiteral("%1 nodes").arg(r.effectiveNodes()))
                .arg(r.effectiveNodes() - 1));
    }

    // Multi-node torchrun / accelerate need the first node's address; without
    // one every node waits on its own localhost until the timeout.
    const int nodes =
        l->underSrun ? (l->srunNodes > 0 ? std::min(l->srunNodes, r.effectiveNodes()) : r.effectiveNodes()) : 1;
    const int asked = l->nnodes.value;
    // The endpoint may hide in a variable that expands to several words
    // (srun torchrun $DIST_ARGS ...): any mention of one counts.
    const bool mentioned = std::any_of(imp.lines.begin(), imp.lines.end(), [](const ScriptLine &sl) {
        return sl.text.contains(QLatin1String("rdzv_endpoint")) || sl.text.contains(QLatin1String("rdzv-endpoint"))
               || sl.text.contains(QLatin1String("master_addr")) || sl.text.contains(QLatin1String("master-addr"))
               || sl.text.contains(QLatin1String("main_process_ip"));
    });
    if (torch && !l->standalone && l->underSrun && (nodes > 1 || asked > 1) && l->rdzvEndpoint.isEmpty() && !mentioned
        && !exported(imp, {"PET_RDZV_ENDPOINT", "PET_MASTER_ADDR"})) {
        imp.diagnostics << finding(
            Severity::Error, QStringLiteral("torchrun-no-rendezvous"), QStringLiteral("launcher"), l->line,
            QStringLiteral("%1 runs on %2 nodes without --rdzv_endpoint or --master_addr, so each node waits for "
                           "its peers at 127.0.0.1 and the job hangs until the rendezvous times out. Add "
                           "--rdzv_backend=c10d --rdzv_endpoint=$(scontrol show hostnames $SLURM_JOB_NODELIST | head "
                           "-n 1):29500.")
                .arg(l->launcherWord)
                .arg(std::max(nodes, asked)));
    }
    if (accelerate && (asked > 1 || (l->underSrun && nodes > 1 && asked != 1)) && l->rdzvEndpoint.isEmpty()
        && !mentioned) {
        imp.diagnostics << finding(
            Severity::Error, QStringLiteral("torchrun-no-rendezvous"), QStringLiteral("launcher"), l->line,
            QStringLiteral("accelerate launch runs on %1 machines without --main_process_ip, so the machines cannot "
                           "find the first one. Add --main_process_ip=$(scontrol show hostnames $SLURM_JOB_NODELIST "
                           "| head -n 1) and --machine_rank=$SLURM_NODEID.")
                .arg(std::max(nodes, asked)));
    }
}

}   // namespace scalelab
