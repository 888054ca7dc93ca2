// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LaunchWalker.h"

// The options of each launcher that matter for counting processes and
// finding peers: srun's task counts, mpirun's -np and hosts, container
// binds, torchrun/deepspeed/accelerate/horovodrun counts and rendezvous.

namespace scalelab::launchparse {

void parseSrun(Walker &w, LaunchCommand &lc)
{
    // srun flags that take no value; every other long option without '='
    // takes the next word.
    static const QSet<QString> flags = {
        QStringLiteral("--exclusive"),
        QStringLiteral("--label"),
        QStringLiteral("--unbuffered"),
        QStringLiteral("--verbose"),
        QStringLiteral("--quiet"),
        QStringLiteral("--overlap"),
        QStringLiteral("--overcommit"),
        QStringLiteral("--no-kill"),
        QStringLiteral("--pty"),
        QStringLiteral("--exact"),
        QStringLiteral("--multi-prog"),
        QStringLiteral("--oversubscribe"),
        QStringLiteral("--spread-job"),
        QStringLiteral("--use-min-nodes"),
        QStringLiteral("--whole"),
        QStringLiteral("--disable-status"),
        QStringLiteral("--preserve-env"),
        QStringLiteral("--test-only"),
        QStringLiteral("--kill-on-bad-exit"),
        QStringLiteral("--contiguous"),
        QStringLiteral("--hold"),
        QStringLiteral("--immediate"),
        QStringLiteral("--no-allocate"),
        QStringLiteral("--reboot"),
        QStringLiteral("--requeue"),
        QStringLiteral("--no-requeue"),
        QStringLiteral("--get-user-env"),
        QStringLiteral("--propagate"),
        QStringLiteral("--nice"),
        QStringLiteral("--help"),
        QStringLiteral("--usage"),
        QStringLiteral("--version"),
        QStringLiteral("--send-libs"),
        // pyxis (a SPANK plugin) flags: the next word is not theirs.
        QStringLiteral("--container-mount-home"),
        QStringLiteral("--no-container-mount-home"),
        QStringLiteral("--container-remap-root"),
        QStringLiteral("--no-container-remap-root"),
        QStringLiteral("--container-entrypoint"),
        QStringLiteral("--no-container-entrypoint"),
        QStringLiteral("--container-writable"),
        QStringLiteral("--container-readonly"),
        QStringLiteral("--ccm"),
    };
    static const QSet<QString> shortWithValue = {
        QStringLiteral("-A"), QStringLiteral("-b"), QStringLiteral("-c"), QStringLiteral("-d"), QStringLiteral("-D"),
        QStringLiteral("-e"), QStringLiteral("-i"), QStringLiteral("-J"), QStringLiteral("-m"), QStringLiteral("-M"),
        QStringLiteral("-n"), QStringLiteral("-N"), QStringLiteral("-o"), QStringLiteral("-p"), QStringLiteral("-q"),
        QStringLiteral("-r"), QStringLiteral("-t"), QStringLiteral("-T"), QStringLiteral("-w"), QStringLiteral("-W"),
        QStringLiteral("-x"), QStringLiteral("-C"), QStringLiteral("-G"), QStringLiteral("-B"), QStringLiteral("-S"),
        QStringLiteral("-L"),
    };
    const LauncherTraits &row = launcherTraits(Launcher::Srun);
    lc.underSrun = true;
    while (!w.atEnd()) {
        const QString word = w.peek();
        if (!word.startsWith(QLatin1Char('-')))
            break;
        QSet<QString> takes = shortWithValue;
        if (word.startsWith(QLatin1String("--")) && !word.contains(QLatin1Char('=')) && !flags.contains(word))
            takes.insert(word);
        Walker::Opt o;
        if (!w.nextOption(takes, &o, shortWithValue))
            break;
        if (isLauncherOption(o.name, row.totalOptions))
            lc.srunTasks = toCount(o.value);
        else if (isLauncherOption(o.name, row.nodesOptions))
            lc.srunNodes = toCount(o.value.section(QLatin1Char('-'), 0, 0));   // a range "2-4": its minimum
        else if (isLauncherOption(o.name, row.perNodeOptions))
            lc.srunTasksPerNode = toCount(o.value);
        else if (isLauncherOption(o.name, {QStringLiteral("--cpu-bind"), QStringLiteral("--gpu-bind"),
                                           QStringLiteral("--mem-bind")}))
            lc.srunBinding << QString(o.name).replace(QLatin1Char('_'), QLatin1Char('-')) + QLatin1Char('=') + o.value;
    }
}

void parseMpirun(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {
        QStringLiteral("-np"),
        QStringLiteral("-n"),
        QStringLiteral("--np"),
        QStringLiteral("-c"),
        QStringLiteral("-N"),
        QStringLiteral("-npernode"),
        QStringLiteral("--npernode"),
        QStringLiteral("-ppn"),
        QStringLiteral("-H"),
        QStringLiteral("--host"),
        QStringLiteral("-host"),
        QStringLiteral("-hosts"),
        QStringLiteral("-hostfile"),
        QStringLiteral("--hostfile"),
        QStringLiteral("-machinefile"),
        QStringLiteral("--machinefile"),
        QStringLiteral("-f"),
        QStringLiteral("--map-by"),
        QStringLiteral("-map-by"),
        QStringLiteral("--bind-to"),
        QStringLiteral("-bind-to"),
        QStringLiteral("--rank-by"),
        QStringLiteral("-x"),
        QStringLiteral("--prefix"),
        QStringLiteral("-wdir"),
        QStringLiteral("--wdir"),
        QStringLiteral("-mca"),
        QStringLiteral("--mca"),
        QStringLiteral("-genv"),
        QStringLiteral("-env"),
        QStringLiteral("--output-filename"),
    };
    const LauncherTraits &row = startLauncher(lc, Launcher::Mpirun);
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (o.name == QLatin1String("-mca") || o.name == QLatin1String("--mca") || o.name == QLatin1String("-genv")
            || o.name == QLatin1String("-env")) {
            if (!w.atEnd())
                w.take();   // these take two words
        } else if (readCountOption(row, o, lc)) {
        } else if (o.name.contains(QLatin1String("host")) || o.name == QLatin1String("-H")
                   || o.name.contains(QLatin1String("machinefile")) || o.name == QLatin1String("-f")) {
            lc.hostfile = true;
        }
    }
}

void parseContainer(Walker &w, LaunchCommand &lc, const QString &runtime)
{
    static const QSet<QString> takes = {
        QStringLiteral("-B"),          QStringLiteral("--bind"),
        QStringLiteral("--mount"),     QStringLiteral("-H"),
        QStringLiteral("--home"),      QStringLiteral("--env"),
        QStringLiteral("--env-file"),  QStringLiteral("--pwd"),
        QStringLiteral("-W"),          QStringLiteral("--workdir"),
        QStringLiteral("-o"),          QStringLiteral("--overlay"),
        QStringLiteral("--security"),  QStringLiteral("--hostname"),
        QStringLiteral("--network"),   QStringLiteral("--network-args"),
        QStringLiteral("-S"),          QStringLiteral("--scratch"),
        QStringLiteral("--dns"),       QStringLiteral("--app"),
        QStringLiteral("--add-caps"),  QStringLiteral("--drop-caps"),
        QStringLiteral("--fusemount"), QStringLiteral("--apply-cgroups"),
        QStringLiteral("--no-mount"),
    };
    lc.container.runtime = runtime;
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (o.name == QLatin1String("-B") || o.name == QLatin1String("--bind"))
            lc.container.binds << o.value;
    }
    if (!w.atEnd())
        lc.container.image = w.take();
}

// torchrun / python -m torch.distributed.run|launch options up to the script.
void parseTorchrun(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> flags = {
        QStringLiteral("--standalone"), QStringLiteral("--use_env"),   QStringLiteral("--use-env"),
        QStringLiteral("--no_python"),  QStringLiteral("--no-python"), QStringLiteral("--run_path"),
        QStringLiteral("--run-path"),   QStringLiteral("-m"),          QStringLiteral("--module"),
    };
    const LauncherTraits &row = startLauncher(lc, Launcher::Torchrun);
    bool module = false;
    while (!w.atEnd() && w.peek().startsWith(QLatin1Char('-'))) {
        QSet<QString> takes;
        if (!flags.contains(w.peek()))
            takes.insert(w.peek());
        Walker::Opt o;
        if (!w.nextOption(takes, &o))
            break;
        const QString name = QString(o.name).replace(QLatin1Char('-'), QLatin1Char('_'));
        if (readCountOption(row, o, lc)) {
        } else if (name == QLatin1String("__standalone")) {
            lc.standalone = true;
        } else if (name == QLatin1String("__rdzv_endpoint") || name == QLatin1String("__master_addr")) {
            lc.rdzvEndpoint = o.value;
            if (name == QLatin1String("__rdzv_endpoint") && o.value.contains(QLatin1Char(':')))
                lc.masterPort = o.value.section(QLatin1Char(':'), -1);
        } else if (name == QLatin1String("__master_port")) {
            lc.masterPort = o.value;
        } else if (name == QLatin1String("__node_rank")) {
            lc.nodeRank = o.value;
            lc.nodeRankLine = o.line;
        } else if (name == QLatin1String("_m") || name == QLatin1String("__module")) {
            module = true;
        }
    }
    if (module) {
        lc.program = QStringLiteral("-m");
        lc.programLine = w.lineOfCurrent();
        lc.programWordIndex = w.index();
        lc.args = w.rest();
    }
}

void parseDeepSpeed(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {
        QStringLiteral("--num_gpus"),
        QStringLiteral("--num-gpus"),
        QStringLiteral("--num_nodes"),
        QStringLiteral("--num-nodes"),
        QStringLiteral("-H"),
        QStringLiteral("--hostfile"),
        QStringLiteral("-i"),
        QStringLiteral("--include"),
        QStringLiteral("-e"),
        QStringLiteral("--exclude"),
        QStringLiteral("--master_port"),
        QStringLiteral("--master_addr"),
        QStringLiteral("--launcher"),
        QStringLiteral("--launcher_args"),
        QStringLiteral("--min_elastic_nodes"),
        QStringLiteral("--max_elastic_nodes"),
        QStringLiteral("--ssh_port"),
        QStringLiteral("--bind_core_list"),
        QStringLiteral("--autotuning"),
        QStringLiteral("--enable_each_rank_log"),
    };
    const LauncherTraits &row = startLauncher(lc, Launcher::DeepSpeed);
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (readCountOption(row, o, lc)) {
        } else if (o.name == QLatin1String("-H") || isLauncherOption(o.name, {QStringLiteral("--hostfile")})) {
            lc.hostfile = true;
        }
    }
}

void parseHorovodrun(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {
        QStringLiteral("-np"),
        QStringLiteral("--num-proc"),
        QStringLiteral("-p"),
        QStringLiteral("--ssh-port"),
        QStringLiteral("-H"),
        QStringLiteral("--hosts"),
        QStringLiteral("--hostfile"),
        QStringLiteral("--mpi-args"),
        QStringLiteral("--start-timeout"),
        QStringLiteral("--network-interface"),
        QStringLiteral("--log-level"),
        QStringLiteral("--timeline-filename"),
        QStringLiteral("--binding-args"),
        QStringLiteral("--output-filename"),
        QStringLiteral("--config-file"),
        QStringLiteral("-i"),
        QStringLiteral("--ssh-identity-file"),
        QStringLiteral("--min-np"),
        QStringLiteral("--max-np"),
        QStringLiteral("--slots"),
        QStringLiteral("--host-discovery-script"),
        QStringLiteral("--gloo-timeout-seconds"),
        QStringLiteral("--cycle-time-ms"),
        QStringLiteral("--cache-capacity"),
        QStringLiteral("--fusion-threshold-mb"),
        QStringLiteral("--num-nccl-streams"),
        QStringLiteral("--reset-limit"),
    };
    const LauncherTraits &row = startLauncher(lc, Launcher::Horovodrun);
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (readCountOption(row, o, lc)) {
        } else if (o.name == QLatin1String("-H") || o.name == QLatin1String("--hosts")
                   || o.name == QLatin1String("--hostfile") || o.name == QLatin1String("--host-discovery-script")) {
            lc.hostfile = true;
        }
    }
}

// accelerate launch [opts] script: --num_processes counts every process of
// every machine, so the per-node count is num_processes / num_machines.
void parseAccelerate(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> flags = {
        QStringLiteral("--multi_gpu"),
        QStringLiteral("--cpu"),
        QStringLiteral("--use_deepspeed"),
        QStringLiteral("--use_fsdp"),
        QStringLiteral("--use_megatron_lm"),
        QStringLiteral("--use_xpu"),
        QStringLiteral("--same_network"),
        QStringLiteral("--debug"),
        QStringLiteral("-q"),
        QStringLiteral("--quiet"),
        QStringLiteral("--tpu"),
        QStringLiteral("--no_python"),
        QStringLiteral("-m"),
        QStringLiteral("--module"),
        QStringLiteral("--downcast_bf16"),
        QStringLiteral("--enable_cpu_affinity"),
        QStringLiteral("--ipex"),
        QStringLiteral("--tpu_use_cluster"),
    };
    const LauncherTraits &row = startLauncher(lc, Launcher::Accelerate);
    while (!w.atEnd() && w.peek().startsWith(QLatin1Char('-'))) {
        QSet<QString> takes;
        const QString word = w.peek();
        if (!flags.contains(word) && !word.contains(QLatin1Char('='))) {
            Walker probe = w;
            probe.take();
            if (!probe.atEnd() && !probe.peek().startsWith(QLatin1Char('-'))
                && !probe.peek().endsWith(QLatin1String(".py")))
                takes.insert(word);
        }
        Walker::Opt o;
        if (!w.nextOption(takes, &o))
            break;
        const QString name = QString(o.name).replace(QLatin1Char('-'), QLatin1Char('_'));
        if (readCountOption(row, o, lc)) {
        } else if (name == QLatin1String("__main_process_ip")) {
            lc.rdzvEndpoint = o.value;
        } else if (name == QLatin1String("__main_process_port")) {
            lc.masterPort = o.value;
        } else if (name == QLatin1String("__machine_rank")) {
            lc.nodeRank = o.value;
            lc.nodeRankLine = o.line;
        }
    }
    // Workers per node: the total over the machines.
    if (lc.np.given()) {
        const int t = lc.np.value;
        const int m = lc.nnodes.given() ? lc.nnodes.value : 1;
        lc.nproc = WrittenCount{t > 0 && m > 0 && t % m == 0 ? t / m : 0, lc.np.text, lc.np.line};
        if (lc.nproc.value == 0 && t > 0 && m > 0)
            lc.nproc.text = QStringLiteral("%1 over %2 machines").arg(lc.np.text, lc.nnodes.text);
    }
}

void parseLauncherOptions(Walker &w, LaunchCommand &lc, Launcher launcher)
{
    switch (launcher) {
    case Launcher::Srun:
        return parseSrun(w, lc);
    case Launcher::Torchrun:
        return parseTorchrun(w, lc);
    case Launcher::DeepSpeed:
        return parseDeepSpeed(w, lc);
    case Launcher::Accelerate:
        return parseAccelerate(w, lc);
    case Launcher::Horovodrun:
        return parseHorovodrun(w, lc);
    case Launcher::Mpirun:
        return parseMpirun(w, lc);
    }
}

const LauncherTraits &startLauncher(LaunchCommand &lc, Launcher launcher)
{
    lc.launcher = launcher;
    return launcherTraits(launcher);
}

bool readCountOption(const LauncherTraits &row, const Walker::Opt &o, LaunchCommand &lc)
{
    WrittenCount *count = isLauncherOption(o.name, row.perNodeOptions) ? &lc.nproc
                          : isLauncherOption(o.name, row.nodesOptions) ? &lc.nnodes
                          : isLauncherOption(o.name, row.totalOptions) ? &lc.np
                                                                       : nullptr;
    if (!count)
        return false;
    *count = WrittenCount{toCount(o.value), o.value, o.line};
    return true;
}

}   // namespace scalelab::launchparse
