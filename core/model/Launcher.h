// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

enum class Framework;

// The tools that start a job's training processes. Every fact about one of
// them is its row in launcherTable() (Launcher.cpp): geometry, validator,
// renderer, importer, linter and highlighter read that row.
enum class Launcher { Torchrun, Srun, DeepSpeed, Horovodrun, Mpirun, Accelerate };

// How a launcher's processes come to be inside a Slurm job.
enum class ProcessModel {
    AgentPerNode,   // srun starts one agent per node; it spawns one worker per GPU
    RankPerTask,   // started once, it starts one rank per Slurm task slot
    SrunTasks,   // no launcher of its own: srun starts every process
};

// The workers a launch line starts when it writes no count.
enum class CountDefault {
    One,   // one worker (torchrun)
    NodeGpus,   // every GPU of the node (deepspeed, accelerate)
    JobTasks,   // every task slot of the job (mpirun reads Slurm's allocation)
    Required,   // unknown without one (horovodrun -np)
};

// One launcher, all it is. Option names are written with their dashes;
// readers compare them with '-' and '_' alike ("--nproc-per-node").
struct LauncherTraits {
    Launcher launcher;
    QString id;   // spec files, the form, messages: "torchrun"
    // Commands that start it, one or two words ("accelerate launch"); the
    // first is how it is named in a script.
    QStringList commands;
    QStringList modules;   // `python -m MODULE` forms
    ProcessModel model;
    bool spansNodes;   // started as ScaleLab starts it, it can span a job's nodes
    bool readsAllocation;   // spreads over the job's nodes by itself, without srun
    QStringList perNodeOptions;   // workers per node: --nproc_per_node
    QStringList totalOptions;   // workers in total: -np
    QStringList nodesOptions;   // nodes: --nnodes
    QStringList allGpuWords;   // per-node counts that mean every GPU of the node ("gpu")
    CountDefault whenNoCount;
    bool choosesPort;   // listens on a rendezvous port (two jobs on a node can collide)
    bool composable;   // the form and spec files offer it; SbatchRenderer writes it
    Launcher composedAs;   // the form's launcher for a script that uses it
    Framework framework;   // what a script it starts is imported as
    bool argsNameDeepSpeed;   // --deepspeed in the program's arguments makes it DeepSpeed
    QString frameworkGuess;   // not empty: that framework is a guess, for this reason
};

const QList<LauncherTraits> &launcherTable();
const LauncherTraits &launcherTraits(Launcher l);

QString launcherId(Launcher l);
// Any row's id; spec files accept only composable ones (composableLaunchers()).
std::optional<Launcher> launcherFromId(const QString &id);
QList<Launcher> allLaunchers();
QList<Launcher> composableLaunchers();

// The launcher a command word starts (`torchrun`, `mpiexec`, `srun`; the
// second word of a two-word command is checked by the caller through
// launcherTraits().commands), and a python module.
std::optional<Launcher> launcherOfCommand(const QString &word);
std::optional<Launcher> launcherOfModule(const QString &module);
// Every first command word, for highlighting ("torchrun", "accelerate", ...).
QStringList launcherCommandWords();

// An option name as written is one of `names` ('-' and '_' alike).
bool isLauncherOption(const QString &written, const QStringList &names);

}   // namespace scalelab
