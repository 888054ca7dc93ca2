// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/Launcher.h"

#include "core/model/Framework.h"

#include <QHash>

namespace scalelab {

namespace {

// Defaults: torchrun 1 worker (torch.distributed.run), deepspeed and
// accelerate every visible GPU, mpirun every Slurm task slot (Open MPI's
// Slurm integration), horovodrun none (-np is required).
QList<LauncherTraits> makeTable()
{
    using L = Launcher;
    using M = ProcessModel;
    using C = CountDefault;
    const QString mpirunGuess = QStringLiteral("mpirun starts the processes; Horovod is the usual framework behind it");
    return {
        {L::Torchrun,
         QStringLiteral("torchrun"),
         {QStringLiteral("torchrun"), QStringLiteral("torch-distributed-run")},
         {QStringLiteral("torch.distributed.run"), QStringLiteral("torch.distributed.launch")},
         M::AgentPerNode,
         true,
         false,
         {QStringLiteral("--nproc_per_node")},
         {},
         {QStringLiteral("--nnodes")},
         {QStringLiteral("gpu"), QStringLiteral("auto")},
         C::One,
         true,
         true,
         L::Torchrun,
         Framework::PytorchDdp,
         false,
         {}},
        {L::Srun,
         QStringLiteral("srun"),
         {QStringLiteral("srun")},
         {},
         M::SrunTasks,
         true,
         true,
         {QStringLiteral("--ntasks-per-node")},
         {QStringLiteral("-n"), QStringLiteral("--ntasks")},
         {QStringLiteral("-N"), QStringLiteral("--nodes")},
         {},
         C::One,
         false,
         true,
         L::Srun,
         Framework::DataParallel,
         true,
         {}},
        {L::DeepSpeed,
         QStringLiteral("deepspeed"),
         {QStringLiteral("deepspeed")},
         {QStringLiteral("deepspeed"), QStringLiteral("deepspeed.launcher.runner")},
         M::AgentPerNode,
         false,
         false,
         {QStringLiteral("--num_gpus")},
         {},
         {QStringLiteral("--num_nodes")},
         {},
         C::NodeGpus,
         true,
         true,
         L::DeepSpeed,
         Framework::DeepSpeed,
         false,
         {}},
        {L::Horovodrun,
         QStringLiteral("horovodrun"),
         {QStringLiteral("horovodrun")},
         {},
         M::RankPerTask,
         false,
         false,
         {},
         {QStringLiteral("-np"), QStringLiteral("--num-proc")},
         {},
         {},
         C::Required,
         false,
         true,
         L::Horovodrun,
         Framework::Horovod,
         false,
         {}},
        {L::Mpirun,
         QStringLiteral("mpirun"),
         {QStringLiteral("mpirun"), QStringLiteral("mpiexec"), QStringLiteral("orterun")},
         {},
         M::RankPerTask,
         true,
         true,
         {},
         {QStringLiteral("-np"), QStringLiteral("-n"), QStringLiteral("--np"), QStringLiteral("-c")},
         {},
         {},
         C::JobTasks,
         false,
         true,
         L::Mpirun,
         Framework::Horovod,
         true,
         mpirunGuess},
        // accelerate launch starts torch.distributed workers as torchrun does:
        // imported as torchrun, never written.
        {L::Accelerate,
         QStringLiteral("accelerate"),
         {QStringLiteral("accelerate launch"), QStringLiteral("accelerate-launch")},
         {QStringLiteral("accelerate.commands.launch")},
         M::AgentPerNode,
         true,
         false,
         {},
         {QStringLiteral("--num_processes")},
         {QStringLiteral("--num_machines")},
         {},
         C::NodeGpus,
         true,
         false,
         L::Torchrun,
         Framework::PytorchDdp,
         true,
         {}},
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
    Q_UNREACHABLE_RETURN(table.front());   // every enum value has its row (tst_launchertable)
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
