// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/InputLimits.h"
#include "core/scriptimport/ScriptImporter.h"

// The linter's rules about the script as a whole (time strings, variables,
// output files, ports, placeholders) and about how its launcher multiplies
// processes. Each adds findings to imp.diagnostics; none fires on a value the
// profile does not know (it notes the skip as an info instead).

namespace scalelab {

// The partition the job runs in: the one named, or the profile's default.
const Partition *importPartition(const ScriptImport &imp, const ClusterProfile &profile);

// --time=3:00 (3 minutes, not 3 hours) for a training job outside a test partition.
void lintTimeLimit(ScriptImport &imp, const ClusterProfile &profile);

// $NAME used but never set in the script (did-you-mean from the names it sets).
void lintUnsetVariables(ScriptImport &imp);

// --output/--error into a directory Slurm does not create.
void lintOutputDirectories(ScriptImport &imp);

// Options Slurm does not define: a plugin's where the profile lists the
// site's plugins or does not list them (then an unknown one is an info).
void lintSiteOptions(ScriptImport &imp, const ClusterProfile &profile);

// A launch whose program or argument is a variable the script never sets.
void lintUnsetLaunchVariables(ScriptImport &imp);

// Redirections (> dir/x.log) into a directory the script never creates.
void lintRedirectDirectories(ScriptImport &imp);

// srun-launched frameworks (Lightning, one process per GPU through srun)
// with fewer tasks per node than GPUs per node.
void lintTasksPerGpu(ScriptImport &imp);

// A framework's auto-requeue (Lightning's SLURMEnvironment: SIGUSR1) without
// the matching --signal, with another signal, or with one only the batch shell gets.
void lintRequeueSignal(ScriptImport &imp);

// A fixed master/rendezvous port on nodes other jobs share.
void lintFixedPort(ScriptImport &imp, const ClusterProfile &profile);

// Example values left in options: YOUR_ACCOUNT, project_xxxxxxx.
void lintPlaceholderValues(ScriptImport &imp);
// The finding for an example value in an option: an error, but only an info
// for the account (every shared example leaves the reader's project open).
Diagnostic placeholderFinding(const SbatchOption &o, const QString &placeholder);

// srun multiplying a launcher, --node_rank=$SLURM_PROCID, multi-node
// torchrun/accelerate without a rendezvous address.
void lintLauncherRendezvous(ScriptImport &imp);

// How many processes the primary launch line starts and on how many nodes.
struct Started {
    int instances = 1;   // copies of the launcher (srun tasks, or 1)
    int instanceNodes = 1;   // nodes those copies run on
    int processes = 0;   // training processes; 0 = unknown
    int perInstance = 1;   // processes each copy spawns
    QString unknownBecause;   // why processes is unknown
    int countLine = 0;   // the line of the option that set the count
};

Started countStarted(const LaunchCommand &l, const ScriptRequest &r);

// "1 GPU", "4 GPUs".
QString plural(int n, const char *one, const char *many);

// Levenshtein distance, capped: returns cap + 1 when larger.
int editDistance(const QString &a, const QString &b, int cap);

}   // namespace scalelab
