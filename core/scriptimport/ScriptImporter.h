// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"
#include "core/scriptimport/LaunchLineParser.h"
#include "core/scriptimport/SbatchScriptParser.h"

#include <QHash>
#include <QString>

#include <functional>
#include <optional>

namespace scalelab {

// What the #SBATCH options ask Slurm for, resolved to numbers the way Slurm
// fills in defaults (one task per node, one node).
struct ScriptRequest {
    int nodes = 0;   // --nodes (the minimum of a range); 0 = not given
    int tasks = 1;   // tasks in the job (srun's default -n)
    int tasksPerNode = 1;
    bool tasksGiven = false;   // --ntasks or --ntasks-per-node was set
    int cpusPerTask = 0;   // 0 = not given (Slurm: 1)
    int gpus = 0;   // GPUs of the whole job
    int gpusPerNode = 0;
    QString gpuType;   // "v100" from --gres=gpu:v100:4; empty = any
    int gpuOptionLine = 0;   // the option that set the GPU count

    int cpusPerGpu = 0;   // --cpus-per-gpu; 0 = not given
    bool nodesImplied = false;   // nodes worked out from --ntasks / --ntasks-per-node

    int effectiveNodes() const { return nodes > 0 ? nodes : 1; }
    // CPUs Slurm gives each node: --cpus-per-task x tasks, or --cpus-per-gpu
    // x GPUs, else one per task. Saturating, as every count here.
    int cpusPerNode() const;
};

// An sbatch script turned into a JobSpec plus findings about the script.
struct ScriptImport {
    JobSpec spec;
    Diagnostics diagnostics;   // parser, importer and validator findings, by line
    QList<SbatchOption> options;   // #SBATCH options in effect
    QList<SbatchOption> disabledOptions;   // ##SBATCH
    QList<SbatchOption> ignoredOptions;   // #SBATCH after the first command
    QList<ScriptLine> lines;   // the shell commands after the header, as the parser joined them
    Diagnostics summary;   // infos: what the import changed, dropped or could not carry over
    QList<LaunchCommand> launches;   // every command that starts a program
    QList<int> setupLines;   // the physical lines of the spec.environment.setup entries, ascending
    QHash<QString, int> moduleLines;   // each module of spec.environment.modules: the line that loads it
    int primaryLaunch = -1;   // index into launches the spec was built from
    ScriptRequest request;
    bool frameworkGuessed = false;   // no launcher named the framework
    QString frameworkEvidence;   // what decided the framework ("the program imports jax")
    QString frameworkUnsure;   // not empty: evidence that conflicts, both sides named

    const LaunchCommand *launch() const
    {
        return primaryLaunch >= 0 && primaryLaunch < launches.size() ? &launches[primaryLaunch] : nullptr;
    }
    const SbatchOption *option(const QString &name) const;   // the one in effect
    int lineOf(const QString &field) const;   // the script line that set a spec field, 0 = none
};

// What an import may read beside the script: the program's own text when it
// is a local file (its imports name the framework). Empty: nothing.
struct ImportContext {
    std::function<std::optional<QString>(const QString &program)> readProgram;
};

// Reads an sbatch script: never throws, never fails; anything it cannot
// understand is a finding. The profile gives the partitions to check against
// (validateJob) and site rules (e.g. --cpus-per-gpu on LUMI).
ScriptImport importSbatchScript(const QString &text, const ClusterProfile &profile, const ImportContext &context = {});

// The findings about how the script launches its processes and how its
// request fits the profile; called by importSbatchScript.
void lintScriptImport(ScriptImport &imp, const ClusterProfile &profile);

// The spec field an #SBATCH option sets ("gres" -> "gpus"), empty when none.
QString specFieldOfOption(const QString &option);

}   // namespace scalelab
