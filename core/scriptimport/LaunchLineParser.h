// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/ShellWords.h"
#include "core/model/JobSpec.h"
#include "core/scriptimport/SbatchScriptParser.h"
#include "core/scriptimport/WrittenCount.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// A command line that starts a program, unwrapped layer by layer:
// [srun opts] [mpirun opts] [singularity exec opts IMAGE] [launcher opts] program args.
struct LaunchCommand {
    int line = 0;   // first physical line of the command
    int lastLine = 0;
    QString text;   // the command as written (joined lines)

    bool underSrun = false;
    int srunTasks = 0;   // srun -n; 0 = inherit the job's
    int srunNodes = 0;   // srun -N
    int srunTasksPerNode = 0;   // srun --ntasks-per-node
    QStringList srunBinding;   // srun --cpu-bind=... / --gpu-bind=... / --mem-bind=..., as "--name=value"
    // NAME=VALUE exported inside a `bash -c` wrapper before the program: set in
    // each task, so $SLURM_PROCID there is that task's rank.
    QList<QPair<QString, QString>> taskVariables;

    // The tool that starts the training processes, innermost first wins:
    // `srun torchrun ...` is Torchrun (under srun), `horovodrun -np 4 python`
    // is Horovodrun; none for `srun python ...` (srun alone starts them) and
    // for a program started on its own. Never Launcher::Srun (underSrun says so).
    std::optional<Launcher> launcher;
    QString launcherWord;   // as written: "torchrun", "python3 -m torch.distributed.run" ...
    bool legacyTorchLaunch = false;   // torch.distributed.launch (default nproc 1, --use_env)
    // The launcher's counts, named in its row of launcherTable(): workers
    // per node (torchrun --nproc_per_node, deepspeed --num_gpus; accelerate's
    // total divided by its machines), nodes (--nnodes, --num_nodes,
    // --num_machines) and workers in total (horovodrun/mpirun -np).
    WrittenCount nproc;
    WrittenCount nnodes;
    WrittenCount np;
    bool standalone = false;   // torchrun --standalone
    QString rdzvEndpoint;   // torchrun --rdzv_endpoint / --master_addr, accelerate --main_process_ip
    QString masterPort;   // torchrun --master_port, accelerate --main_process_port (expanded)
    QString nodeRank;   // torchrun --node_rank, accelerate --machine_rank (as written)
    int nodeRankLine = 0;
    bool hostfile = false;   // deepspeed/horovodrun/mpirun told about other hosts

    QString interpreter;   // "python3", "kernprof" ...; empty for executables
    QString program;   // script path, "-m" for modules, or the executable
    QStringList args;
    int programLine = 0;
    int programWordIndex = -1;   // index of the program word in the command's words

    ContainerSpec container;   // singularity/apptainer exec IMAGE
    QString containerWrapper;   // "singularity_wrapper" (CSC): image chosen by the module
    QStringList unresolved;   // variables the words used but nobody set

    bool isPython() const { return !interpreter.isEmpty(); }
    // A distributed launcher or srun/mpirun: starts more than one process.
    bool isParallel() const { return underSrun || launcher.has_value(); }
};

// Recognises a launch in one simple command (words already expanded).
// nullopt for commands that start no program of interest (echo, cd, module,
// nvidia-smi ...).
std::optional<LaunchCommand> parseLaunchCommand(const ShellCommand &command, const ScriptLine &line,
                                                const QStringList &unresolved = {});

// "python", "python3", "python3.11", "/usr/bin/python3" ...
bool isPythonInterpreter(const QString &word);

}   // namespace scalelab
