// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/Launcher.h"

#include "core/model/Framework.h"

#include <QHash>

namespace scalelab {

namespace {

// Defaults: torchrun 1 worker (torch.distributed.run), deepspeed and
// accelerate every visible GPU, mpirun every Slurm task slot (Open MPI's
// Slurm integration), horovodrun none (-np is required).
// table: one row per launcher
QList<LauncherTraits> makeTable()
{
    using L = Launcher;
    using M = ProcessModel;
    using C = CountDefault;
    return {
        {.launcher = L::Torchrun,
         .id = QStringLiteral("torchrun"),
         .commands = {QStringLiteral("torchrun"), QStringLiteral("torch-distributed-run")},
         .modules = {QStringLiteral("torch.distributed.run"), QStringLiteral("torch.distributed.launch")},
         .model = M::AgentPerNode,
         .spansNodes = true,
         .readsAllocation = false,
         .perNodeOptions = {QStringLiteral("--nproc_per_node")},
         .totalOptions = {},
         .nodesOptions = {QStringLiteral("--nnodes")},
         .allGpuWords = {QStringLiteral("gpu"), QStringLiteral("auto")},
         .whenNoCount = C::One,
         .choosesPort = true,
         .composable = true,
         .composedAs = L::Torchrun,
         .framework = Framework::PytorchDdp,
         .argsNameDeepSpeed = false,
         .frameworkGuess = {}},
        // No launcher of its own: srun starts every process (a script with srun
        // alone has its framework guessed from its layout, ScriptImporter.cpp).
        {.launcher = L::Srun,
         .id = QStringLiteral("srun"),
         .commands = {QStringLiteral("srun")},
         .modules = {},
         .model = M::SrunTasks,
         .spansNodes = true,
         .readsAllocation = true,
         .perNodeOptions = {QStringLiteral("--ntasks-per-node")},
         .totalOptions = {QStringLiteral("-n"), QStringLiteral("--ntasks")},
         .nodesOptions = {QStringLiteral("-N"), QStringLiteral("--nodes")},
         .allGpuWords = {},
         .whenNoCount = C::One,
         .choosesPort = false,
         .composable = true,
         .composedAs = L::Srun,
         .framework = Framework::DataParallel,
         .argsNameDeepSpeed = true,
         .frameworkGuess = {}},
        {.launcher = L::DeepSpeed,
         .id = QStringLiteral("deepspeed"),
         .commands = {QStringLiteral("deepspeed")},
         .modules = {QStringLiteral("deepspeed"), QStringLiteral("deepspeed.launcher.runner")},
         .model = M::AgentPerNode,
         .spansNodes = false,
         .readsAllocation = false,
         .perNodeOptions = {QStringLiteral("--num_gpus")},
         .totalOptions = {},
         .nodesOptions = {QStringLiteral("--num_nodes")},
         .allGpuWords = {},
         .whenNoCount = C::NodeGpus,
         .choosesPort = true,
         .composable = true,
         .composedAs = L::DeepSpeed,
         .framework = Framework::DeepSpeed,
         .argsNameDeepSpeed = false,
         .frameworkGuess = {}},
        {.launcher = L::Horovodrun,
         .id = QStringLiteral("horovodrun"),
         .commands = {QStringLiteral("horovodrun")},
         .modules = {},
         .model = M::RankPerTask,
         .spansNodes = false,
         .readsAllocation = false,
         .perNodeOptions = {},
         .totalOptions = {QStringLiteral("-np"), QStringLiteral("--num-proc")},
         .nodesOptions = {},
         .allGpuWords = {},
         .whenNoCount = C::Required,
         .choosesPort = false,
         .composable = true,
         .composedAs = L::Horovodrun,
         .framework = Framework::Horovod,
         .argsNameDeepSpeed = false,
         .frameworkGuess = {}},
        // Inside Slurm, Open MPI reads the allocation: -np defaults to its task slots.
        {.launcher = L::Mpirun,
         .id = QStringLiteral("mpirun"),
         .commands = {QStringLiteral("mpirun"), QStringLiteral("mpiexec"), QStringLiteral("orterun")},
         .modules = {},
         .model = M::RankPerTask,
         .spansNodes = true,
         .readsAllocation = true,
         .perNodeOptions = {},
         .totalOptions = {QStringLiteral("-np"), QStringLiteral("-n"), QStringLiteral("--np"), QStringLiteral("-c")},
         .nodesOptions = {},
         .allGpuWords = {},
         .whenNoCount = C::JobTasks,
         .choosesPort = false,
         .composable = true,
         .composedAs = L::Mpirun,
         .framework = Framework::Horovod,
         .argsNameDeepSpeed = true,
         .frameworkGuess = QStringLiteral("mpirun starts the processes; Horovod is the usual framework behind it")},
        // accelerate launch starts torch.distributed workers as torchrun does:
        // imported as torchrun, never written. --num_processes counts all machines.
        {.launcher = L::Accelerate,
         .id = QStringLiteral("accelerate"),
         .commands = {QStringLiteral("accelerate launch"), QStringLiteral("accelerate-launch")},
         .modules = {QStringLiteral("accelerate.commands.launch")},
         .model = M::AgentPerNode,
         .spansNodes = true,
         .readsAllocation = false,
         .perNodeOptions = {},
         .totalOptions = {QStringLiteral("--num_processes")},
         .nodesOptions = {QStringLiteral("--num_machines")},
         .allGpuWords = {},
         .whenNoCount = C::NodeGpus,
         .choosesPort = true,
         .composable = false,
         .composedAs = L::Torchrun,
         .framework = Framework::PytorchDdp,
         .argsNameDeepSpeed = true,
         .frameworkGuess = {}},
    };
}

QString normalOption(QString name)
{
    return name.replace(QLatin1Char('-'), QLatin1Char('_'));
}

}   // namespace

const QList<LauncherTraits> &launcherTable()
{
    static const QList<LauncherTraits> table = makeTable();
    return table;
}

const LauncherTraits &launcherTraits(Launcher l)
{
    const auto &table = launcherTable();
    for (const auto &row : table)
        if (row.launcher == l)
            return row;
    Q_UNREACHABLE();   // every enum value has its row (tst_launchertable)
    return table.front();
}

QString launcherId(Launcher l)
{
    return launcherTraits(l).id;
}

std::optional<Launcher> launcherFromId(const QString &id)
{
    for (const auto &row : launcherTable())
        if (row.id == id)
            return row.launcher;
    return std::nullopt;
}

QList<Launcher> allLaunchers()
{
    QList<Launcher> out;
    for (const auto &row : launcherTable())
        out << row.launcher;
    return out;
}

QList<Launcher> composableLaunchers()
{
    QList<Launcher> out;
    for (const auto &row : launcherTable())
        if (row.composable)
            out << row.launcher;
    return out;
}

std::optional<Launcher> launcherOfCommand(const QString &word)
{
    // Asked for the first word of every command of a script: one lookup.
    static const QHash<QString, Launcher> byWord = [] {
        QHash<QString, Launcher> h;
        for (const auto &row : launcherTable())
            for (const auto &c : row.commands)
                h.insert(c.section(QLatin1Char(' '), 0, 0), row.launcher);
        return h;
    }();
    const auto it = byWord.constFind(word);
    return it == byWord.cend() ? std::nullopt : std::optional<Launcher>(*it);
}

std::optional<Launcher> launcherOfModule(const QString &module)
{
    for (const auto &row : launcherTable())
        if (row.modules.contains(module))
            return row.launcher;
    return std::nullopt;
}

QStringList launcherCommandWords()
{
    QStringList out;
    for (const auto &row : launcherTable())
        for (const auto &c : row.commands)
            if (const QString first = c.section(QLatin1Char(' '), 0, 0); !out.contains(first))
                out << first;
    return out;
}

bool isLauncherOption(const QString &written, const QStringList &names)
{
    const QString w = normalOption(written);
    for (const auto &n : names)
        if (normalOption(n) == w)
            return true;
    return false;
}

}   // namespace scalelab
