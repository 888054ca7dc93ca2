// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/Framework.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

struct ContainerSpec {
    QString image;   // path of a .sif image on the cluster; empty = no container
    QString runtime;   // "singularity" or "apptainer"; empty = the profile's
    QStringList binds;   // -B arguments
    bool operator==(const ContainerSpec &) const = default;
};

struct JobEnvironment {
    QStringList modules;
    ContainerSpec container;
    QStringList setup;   // shell lines run before the launch
    QList<QPair<QString, QString>> variables;   // exported in order
    // Set in each task before the program, so "$SLURM_PROCID" is that task's
    // rank (RANK, LOCAL_RANK); the launch is wrapped in `bash -c`.
    QList<QPair<QString, QString>> taskVariables;
    bool operator==(const JobEnvironment &) const = default;
};

// The folder of code on the researcher's machine that each run takes a
// snapshot of, and where on the cluster the snapshots are kept. Empty folder:
// no project, the program is already on the cluster.
struct ProjectSpec {
    QString folder;   // local; relative to the spec file's folder in a spec file
    QString remoteFolder;   // "" = the profile's default ($HOME/scalelab); absolute, "~/x", "$HOME/x" or under $HOME
    bool operator==(const ProjectSpec &) const = default;
};

// A run longer than the time limit, as a chain of jobs (segments) in one run
// folder: Slurm signals each segment `signalLeadSeconds` before its limit, the
// script passes the signal on and records it; the training checkpoints, and
// the next segment (sbatch --dependency=afterany) resumes, unless the work is
// done (the training wrote $SCALELAB_DONE_FILE, or exited 0 before the limit).
struct SegmentSpec {
    static constexpr int kMaxSegments = 50;
    static constexpr int kUntilDoneSegments = 20;   // "until-done" chains at most this many
    int count = 0;   // 0 = one job, no signal; N >= 1: up to N segments
    bool untilDone = false;   // "until-done": as many as needed, up to kUntilDoneSegments
    int signalLeadSeconds = 120;   // --signal=B:SIG@lead
    QString signal = QStringLiteral("USR1");   // USR1 (Lightning's SLURMEnvironment) or USR2 (submitit)
    bool requeue = false;   // #SBATCH --requeue: Slurm may requeue a segment after a node failure
    // How long the training takes to write its checkpoint, as the researcher
    // measured it (0 = not known): the signal lead must cover it, or the
    // limit's SIGTERM lands in the middle of writing it. Rendered as
    // SCALELAB_CHECKPOINT_SECONDS for the training to read.
    int checkpointSeconds = 0;
    bool enabled() const { return untilDone || count >= 1; }
    int planned() const { return untilDone ? kUntilDoneSegments : count; }
    // The jobs the submit creates: a number of segments all at once; "until-done"
    // only the first, and a segment that reaches its limit queues the next (its
    // trap, SegmentScript::nextJob): no job waits for work that may be done.
    int firstJobs() const { return untilDone ? 1 : count; }
    bool operator==(const SegmentSpec &) const = default;
};

// What a researcher asks for; the contract the CLI, the GUI and the store share.
// Optional values are 0/empty when unset; the composer derives them.
struct JobSpec {
    QString profile;
    QString partition;
    int gpus = 0;
    int nodes = 0;   // 0 = derive from GPUs per node
    Framework framework = Framework::PytorchDdp;
    std::optional<Launcher> launcher;   // unset = the framework's default
    QString time;   // Slurm time format
    QString account;
    QString jobName;
    QString program;
    QStringList args;
    int cpusPerGpu = 0;   // 0 = the node's share per GPU
    QString memory;   // Slurm --mem form, e.g. "64G"; empty = site default
    JobEnvironment environment;
    int gpuSampleSeconds = 10;   // 0 = no GPU sampler
    // Folders where the job writes metric files besides its run folder
    // (absolute, or relative to it; $NAME expands on the cluster). Fetch
    // also looks where the arguments point: MetricFileLocations.
    QStringList metricDirs;
    // #SBATCH options the form has no field for, kept from an imported script
    // and written back as they are: name without dashes -> value ("" for a
    // flag). Only the names of carriedSlurmOptions() (qos, reservation,
    // constraint, mail settings, ...); ScaleLab's own options never.
    QList<QPair<QString, QString>> slurmOptions;
    // How srun binds each task: "--cpu-bind=mask_cpu:0xfe,...", "--gpu-bind=...",
    // "--mem-bind=..." as a script wrote them; a --cpu-bind replaces the profile's.
    QStringList binding;
    // A project folder sent with each run: the run folder holds its snapshot
    // and is the job's working directory, so a relative program resolves there.
    ProjectSpec project;
    // Segments: a run longer than the partition's time limit (off by default).
    SegmentSpec segments;

    Launcher effectiveLauncher() const { return launcher.value_or(defaultLauncher(framework)); }
    bool operator==(const JobSpec &) const = default;
};

// The #SBATCH options a spec may carry in slurmOptions: what a script asks
// of Slurm beyond ScaleLab's own fields, none of which changes the geometry.
const QStringList &carriedSlurmOptions();
// The srun options JobSpec::binding may hold ("--cpu-bind", ...).
const QStringList &bindingOptions();

}   // namespace scalelab
