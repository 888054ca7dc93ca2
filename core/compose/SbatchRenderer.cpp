// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/SbatchRenderer.h"

#include "core/compose/JobValidator.h"
#include "core/compose/SegmentScript.h"
#include "core/model/LaunchGeometry.h"
#include "core/base/ShellQuote.h"

#include <QRegularExpression>

#include <algorithm>

namespace scalelab {

namespace {

// Job names go into an #SBATCH line that sbatch parses itself; keep them to
// characters that need no quoting anywhere (squeue, file names, shells).
QString safeJobName(const JobSpec &spec)
{
    QString name = spec.jobName.trimmed();
    if (name.isEmpty())
        name = QStringLiteral("%1-%2gpu").arg(frameworkId(spec.framework)).arg(spec.gpus);
    QString out;
    for (QChar c : name) {
        const bool ok = c.isLetterOrNumber() && c.unicode() < 128;
        out += (ok || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.')) ? c : QLatin1Char('_');
    }
    return out.left(128);
}

// Relative program paths are taken relative to the home directory, because
// the job itself runs in its own run directory (where its outputs land);
// with a project folder that run directory holds the code: relative to it.
QString programWord(const QString &program, bool inRunFolder)
{
    const QString p = program.trimmed();
    if (inRunFolder && !p.isEmpty() && !p.startsWith(QLatin1Char('/')) && !p.startsWith(QLatin1Char('~'))
        && !p.startsWith(QLatin1Char('$')))
        return QStringLiteral("./") + ShellQuote::quote(p);
    if (p.isEmpty())
        return QStringLiteral("\"$HOME\"/train.py");
    if (p.startsWith(QLatin1Char('/')))
        return ShellQuote::quote(p);
    if (p.startsWith(QLatin1String("~/")))
        return QStringLiteral("\"$HOME\"/") + ShellQuote::quote(p.mid(2));
    if (p.startsWith(QLatin1Char('$'))) {
        // "$DIR/train.py" or "${DIR}/train.py": the variable expands, the rest
        // is quoted; anything else after '$' is refused by the validator and
        // rendered literally here.
        static const QRegularExpression var(
            QStringLiteral("^\\$(\\{([A-Za-z_][A-Za-z0-9_]*)\\}|([A-Za-z_][A-Za-z0-9_]*))(.*)$"));
        const auto m = var.match(p);
        if (!m.hasMatch())
            return ShellQuote::quote(p);
        const QString name = m.captured(2).isEmpty() ? m.captured(3) : m.captured(2);
        const QString rest = m.captured(4);
        return QStringLiteral("\"$%1\"").arg(name) + (rest.isEmpty() ? QString() : ShellQuote::quote(rest));
    }
    return QStringLiteral("\"$HOME\"/") + ShellQuote::quote(p);
}

// A word from a script: a $VAR in it expands on the cluster as it did in
// the script ("$SCRATCH/data"), anything else is literal.
QString expandingWord(const QString &word)
{
    static const QRegularExpression variable(QStringLiteral("\\$(\\{[A-Za-z_]|[A-Za-z_])"));
    // A command substitution stays literal (the import summary says so):
    // a spec's words never run a command of their own.
    if (word.contains(QLatin1String("$(")) || word.contains(QLatin1Char('`')))
        return ShellQuote::quote(word);
    return variable.match(word).hasMatch() ? ShellQuote::quoteExpandingVariables(word) : ShellQuote::quote(word);
}

QString commandFor(const JobSpec &spec)
{
    QStringList words;
    const QString p = spec.program.trimmed();
    if (p.endsWith(QLatin1String(".py")) || p.isEmpty())
        words << QStringLiteral("python3");
    words << programWord(p, !spec.project.folder.isEmpty());
    for (const auto &a : spec.args)
        words << expandingWord(a);
    return words.join(QLatin1Char(' '));
}

// The program run in each task after the task's own variables (RANK from
// SLURM_PROCID): `bash -c 'export RANK="$SLURM_PROCID" && python3 ...'`.
QString taskCommand(const JobSpec &spec, const QString &cmd)
{
    const auto &vars = spec.environment.taskVariables;
    if (vars.isEmpty())
        return cmd;
    QStringList exports{QStringLiteral("export")};
    for (const auto &[name, value] : vars)
        exports << name + QLatin1Char('=') + ShellQuote::quoteExpandingVariables(value);
    return QStringLiteral("bash -c ")
           + ShellQuote::quote(exports.join(QLatin1Char(' ')) + QStringLiteral(" && ") + cmd);
}

// The spec sets `name` itself: a variable, or a setup line assigning it.
bool setsVariable(const JobSpec &spec, const QString &name)
{
    const auto &vars = spec.environment.variables;
    if (std::any_of(vars.begin(), vars.end(), [&](const auto &v) { return v.first == name; }))
        return true;
    const QRegularExpression assigns(QStringLiteral("^\\s*(export\\s+)?%1=").arg(name));
    const auto &setup = spec.environment.setup;
    return std::any_of(setup.begin(), setup.end(), [&](const QString &l) { return assigns.match(l).hasMatch(); });
}

// srun's options for every launch: CPUs per task, then the spec's binding
// (an imported script's --cpu-bind=mask_cpu:...) or else the profile's.
QString srunPrefix(const JobSpec &spec, const ClusterProfile &profile)
{
    // Since Slurm 22.05 srun no longer inherits --cpus-per-task from sbatch.
    QString srun = QStringLiteral("srun --cpus-per-task=$SLURM_CPUS_PER_TASK ");
    const bool ownCpuBind = std::any_of(spec.binding.begin(), spec.binding.end(),
                                        [](const QString &b) { return b.startsWith(QLatin1String("--cpu-bind=")); });
    if (!ownCpuBind && !profile.cpuBind.isEmpty() && profile.cpuBind != QLatin1String("none"))
        srun += QStringLiteral("--cpu-bind=%1 ").arg(profile.cpuBind);
    for (const QString &b : spec.binding)
        srun += expandingWord(b) + QLatin1Char(' ');
    return srun;
}

QString containerPrefix(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g)
{
    const ContainerSpec &c = spec.environment.container;
    if (c.image.trimmed().isEmpty())
        return {};
    const QString runtime = c.runtime.isEmpty() ? profile.containerRuntime : c.runtime;
    const GpuType *type = g.partition ? profile.gpuType(g.partition->gpuType) : nullptr;
    QStringList words{runtime, QStringLiteral("exec"),
                      type && type->vendor == GpuVendor::Amd ? QStringLiteral("--rocm") : QStringLiteral("--nv")};
    for (const auto &b : c.binds)
        words << QStringLiteral("-B") << expandingWord(b);
    words << expandingWord(c.image);
    return words.join(QLatin1Char(' ')) + QLatin1Char(' ');
}

void appendGpuRequest(QStringList &lines, const ClusterProfile &profile, const LaunchGeometry &g)
{
    // Partition and GPU type names come from profiles and cluster output: a
    // name with a newline or quote would write a line of its own into the
    // script, so such a name is written as INVALID (sbatch then refuses it).
    const QString rawType = g.partition ? g.partition->gpuType : QString();
    const QString type = rawType.isEmpty() || ShellQuote::isPlain(rawType) ? rawType : QStringLiteral("INVALID");
    switch (profile.gpuRequest) {
    case GpuRequestStyle::GresTyped:
        lines << (type.isEmpty() ? QStringLiteral("#SBATCH --gres=gpu:%1").arg(g.gpusPerNode)
                                 : QStringLiteral("#SBATCH --gres=gpu:%1:%2").arg(type).arg(g.gpusPerNode));
        break;
    case GpuRequestStyle::Gres:
        lines << QStringLiteral("#SBATCH --gres=gpu:%1").arg(g.gpusPerNode);
        break;
    case GpuRequestStyle::GpusPerNode:
        lines << QStringLiteral("#SBATCH --gpus-per-node=%1").arg(g.gpusPerNode);
        break;
    case GpuRequestStyle::GpusPerTask:
        lines << QStringLiteral("#SBATCH --gpus-per-task=%1")
                     .arg(std::max(1, g.gpusPerNode / std::max(1, g.tasksPerNode)));
        break;
    }
}

QString samplerScript(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g)
{
    const GpuType *type = g.partition ? profile.gpuType(g.partition->gpuType) : nullptr;
    const bool rocm = type && type->monitor == GpuMonitor::RocmSmi;
    const int n = spec.gpuSampleSeconds;
    QStringList s;
    s << QStringLiteral("# GPU sampler: one CSV per node (scalelab-gpu-<job>-<host>.csv), stopped on exit.")
      << QStringLiteral("cat > \"scalelab-sampler-$SLURM_JOB_ID.sh\" <<'SCALELAB_SAMPLER'")
      << QStringLiteral("#!/bin/bash") << QStringLiteral("host=$(hostname -s)")
      << QStringLiteral("out=\"scalelab-gpu-${SLURM_JOB_ID}-${host}.csv\"");
    if (rocm) {
        s << QStringLiteral("if command -v rocm-smi >/dev/null 2>&1; then") << QStringLiteral("  while :; do")
          << QStringLiteral("    echo \"# time $(date +%s.%N)\"")
          << QStringLiteral("    rocm-smi --showuse --showmemuse --showmeminfo vram --showpower --csv")
          << QStringLiteral("    sleep %1").arg(n) << QStringLiteral("  done > \"$out\"") << QStringLiteral("else")
          << QStringLiteral("  echo \"scalelab: no rocm-smi on ${host}; no GPU samples\"") << QStringLiteral("fi");
    } else {
        s << QStringLiteral("if command -v nvidia-smi >/dev/null 2>&1; then")
          << QStringLiteral("  exec nvidia-smi --query-gpu=index,timestamp,utilization.gpu,utilization.memory,"
                            "memory.used,memory.total,power.draw --format=csv -l %1 > \"$out\"")
                 .arg(n)
          << QStringLiteral("else") << QStringLiteral("  echo \"scalelab: no nvidia-smi on ${host}; no GPU samples\"")
          << QStringLiteral("fi");
    }
    s << QStringLiteral("SCALELAB_SAMPLER");
    // The batch host says "no GPU samples" itself when it lacks the tool: a
    // background sampler step can be killed before it prints, when the
    // program ends first. A partition's nodes share their software.
    const QString tool = rocm ? QStringLiteral("rocm-smi") : QStringLiteral("nvidia-smi");
    s << QStringLiteral("if command -v %1 >/dev/null 2>&1; then").arg(tool);
    if (g.nodes > 1)
        s << QStringLiteral("  srun --overlap --nodes=%1 --ntasks-per-node=1 --cpus-per-task=1 bash "
                            "\"scalelab-sampler-$SLURM_JOB_ID.sh\" &")
                 .arg(g.nodes);
    else
        s << QStringLiteral("  bash \"scalelab-sampler-$SLURM_JOB_ID.sh\" &");
    s << QStringLiteral("  SCALELAB_SAMPLER_PID=$!")
      << QStringLiteral("  trap 'kill \"$SCALELAB_SAMPLER_PID\" 2>/dev/null' EXIT") << QStringLiteral("else")
      << QStringLiteral("  echo \"scalelab: no %1 on $(hostname -s); no GPU samples\"").arg(tool)
      << QStringLiteral("fi");
    return s.join(QLatin1Char('\n'));
}

// Rank 0's host for a multi-node job. Node names need not resolve on the
// nodes (NodeName is Slurm's label; NodeAddr is how nodes reach each other),
// so the first node's NodeAddr comes from slurmctld, falling back to the name.
QStringList firstNodeAddressLines(const QString &var)
{
    return {QStringLiteral("SCALELAB_FIRST_NODE=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)"),
            QStringLiteral("%1=$(scontrol show node -o \"$SCALELAB_FIRST_NODE\" | tr ' ' '\\n' | sed -n "
                           "'s/^NodeAddr=//p' | head -n 1)")
                .arg(var),
            QStringLiteral("export %1=\"${%1:-$SCALELAB_FIRST_NODE}\"").arg(var)};
}

QString launchLine(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g, QStringList &pre)
{
    const QString cmd = commandFor(spec);
    const QString container = containerPrefix(spec, profile, g);
    const QString srun = srunPrefix(spec, profile);
    // A launcher the form does not offer is written as the one it becomes.
    switch (launcherTraits(g.launcher).composedAs) {
    case Launcher::Torchrun: {
        QStringList t{QStringLiteral("python3 -m torch.distributed.run")};
        t << profile.torchrunArgs;
        // torchrun --standalone always listens on port 29400, so two jobs
        // sharing a node collide ("Address already in use"); each job gets
        // its own port from its id instead, on one node as across nodes.
        pre << QStringLiteral("# c10d rendezvous on the first node, on a port of this job's own (shared nodes).");
        if (g.nodes <= 1)
            pre << QStringLiteral("export RDZV_HOST=localhost");
        else
            pre << firstNodeAddressLines(QStringLiteral("RDZV_HOST"));
        pre << QStringLiteral("export RDZV_PORT=$((20000 + SLURM_JOB_ID % 20000))");
        t << (g.nodes <= 1
                  ? QStringLiteral("--nnodes=1 --nproc_per_node=%1").arg(g.processesPerNode)
                  : QStringLiteral("--nnodes=$SLURM_JOB_NUM_NODES --nproc_per_node=%1").arg(g.processesPerNode))
          << QStringLiteral("--rdzv_id=$SLURM_JOB_ID --rdzv_backend=c10d --rdzv_endpoint=\"$RDZV_HOST:$RDZV_PORT\"");
        QString body = t.join(QLatin1Char(' '));
        // torchrun wants the script path, not "python3 script".
        QString prog = cmd;
        if (prog.startsWith(QLatin1String("python3 ")))
            prog = prog.mid(8);
        return QStringLiteral("# One torchrun agent per node starts %1 worker(s) on it.\n").arg(g.processesPerNode)
               + srun + container + taskCommand(spec, body + QLatin1Char(' ') + prog);
    }
    case Launcher::DeepSpeed: {
        QString prog = cmd;
        if (prog.startsWith(QLatin1String("python3 ")))
            prog = prog.mid(8);
        return QStringLiteral("# The deepspeed launcher starts %1 worker(s) on this node.\n").arg(g.processesPerNode)
               + srun + container
               + taskCommand(spec, QStringLiteral("deepspeed --num_gpus=%1 ").arg(g.processesPerNode) + prog);
    }
    case Launcher::Horovodrun:
        return QStringLiteral("# horovodrun starts one process per GPU (%1 in total).\n").arg(g.totalProcesses())
               + container + taskCommand(spec, QStringLiteral("horovodrun -np $SLURM_NTASKS ") + cmd);
    case Launcher::Mpirun:
        return QStringLiteral("# mpirun starts one rank per Slurm task (%1 in total).\n").arg(g.totalTasks())
               + container + taskCommand(spec, QStringLiteral("mpirun -np $SLURM_NTASKS ") + cmd);
    case Launcher::Srun:
    case Launcher::Accelerate:
        break;
    }
    const QString task = taskCommand(spec, cmd);
    if (spec.framework == Framework::TfMultiWorker) {
        pre << QStringLiteral("# MultiWorkerMirroredStrategy: one worker per node; build the strategy with")
            << QStringLiteral(
                   "# tf.distribute.cluster_resolver.SlurmClusterResolver(), which reads the Slurm task layout.");
        return QStringLiteral("# srun starts one worker per node (%1 in total).\n").arg(g.nodes) + srun + container
               + task;
    }
    if (spec.framework == Framework::Jax)
        return QStringLiteral(
                   "# srun starts one process per GPU (%1 in total); jax.distributed.initialize() reads the\n"
                   "# coordinator, the process count and each process's id from Slurm.\n")
                   .arg(g.totalProcesses())
               + srun + container + task;
    if (spec.framework == Framework::DataParallel || spec.framework == Framework::TfMirrored)
        return QStringLiteral("# One process drives all %1 GPU(s) of the node.\n").arg(g.gpusPerNode) + srun + container
               + task;
    // The spec's own rendezvous (an imported script's MASTER_PORT) is kept, not overwritten.
    if (!setsVariable(spec, QStringLiteral("MASTER_ADDR")))
        pre << QStringLiteral("# Rank 0's address for frameworks that read MASTER_ADDR/MASTER_PORT (DDP, DeepSpeed).")
            << firstNodeAddressLines(QStringLiteral("MASTER_ADDR"));
    if (!setsVariable(spec, QStringLiteral("MASTER_PORT")))
        pre << QStringLiteral("export MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000))");
    return QStringLiteral("# srun starts one process per GPU (%1 in total); ranks come from SLURM_PROCID.\n")
               .arg(g.totalProcesses())
           + srun + container + task;
}

}   // namespace

QString outputFilePattern()
{
    return QStringLiteral("scalelab-%j.out");
}

QString gpuSamplesFilePrefix()
{
    return QStringLiteral("scalelab-gpu-");
}

namespace {

// A value on an #SBATCH line, which sbatch reads itself (no shell): kept as
// written unless a blank, a quote, a backslash or a control character could
// end it early or start another option; then INVALID, which sbatch refuses.
QString sbatchValue(const QString &value)
{
    const bool safe = !value.isEmpty() && std::none_of(value.begin(), value.end(), [](QChar c) {
        return c.isSpace() || c < u' ' || c == u'\'' || c == u'"' || c == u'\\' || c == u'#';
    });
    return safe ? value : QStringLiteral("INVALID");
}

// The #SBATCH options an imported script asked for beyond ScaleLab's own
// fields (qos, reservation, mail settings ...), written as they were. sbatch
// reads these lines itself: a value with a blank or a control character is
// written as INVALID, so sbatch refuses it rather than reading another option.
void appendCarriedOptions(QStringList &l, const JobSpec &spec)
{
    for (const auto &[name, value] : spec.slurmOptions) {
        if (!carriedSlurmOptions().contains(name))
            continue;
        l << (value.isEmpty() ? QStringLiteral("#SBATCH --%1").arg(name)
                              : QStringLiteral("#SBATCH --%1=%2").arg(name, sbatchValue(value)));
    }
}

// The header: what the script is, then the #SBATCH options.
void appendHeader(QStringList &l, const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g,
                  const GpuType *type)
{
    l << QStringLiteral("#!/bin/bash")
      << QStringLiteral("# Composed by ScaleLab %1 for %2 (profile %3).")
             .arg(QStringLiteral(SCALELAB_VERSION), profile.name, profile.id)
      << QStringLiteral("# %1 on %2 GPU(s): %3 node(s) x %4 %5 GPU(s), %6 task(s) per node, %7 CPU(s) per task.")
             .arg(frameworkName(spec.framework))
             .arg(spec.gpus)
             .arg(g.nodes)
             .arg(g.gpusPerNode)
             .arg(type ? type->id : QStringLiteral("?"))
             .arg(g.tasksPerNode)
             .arg(g.cpusPerTask)
      << QStringLiteral("#SBATCH --job-name=%1").arg(safeJobName(spec));
    if (!spec.account.trimmed().isEmpty())
        l << QStringLiteral("#SBATCH --account=%1").arg(sbatchValue(spec.account.trimmed()));
    // No partition in the spec: Slurm's default, as the script it came from had.
    if (!spec.partition.trimmed().isEmpty())
        l << QStringLiteral("#SBATCH --partition=%1")
                 .arg(ShellQuote::isPlain(g.partitionName) ? g.partitionName : QStringLiteral("INVALID"));
    if (!spec.time.trimmed().isEmpty())
        l << QStringLiteral("#SBATCH --time=%1")
                 .arg(ShellQuote::isPlain(spec.time.trimmed()) ? spec.time.trimmed() : QStringLiteral("INVALID"));
    if (g.nodesDerived)
        l << QLatin1String(kNodesDerivedMarker);
    l << QStringLiteral("#SBATCH --nodes=%1").arg(g.nodes)
      << QStringLiteral("#SBATCH --ntasks-per-node=%1").arg(g.tasksPerNode);
    if (spec.cpusPerGpu <= 0)
        l << QLatin1String(kCpusDerivedMarker);
    l << QStringLiteral("#SBATCH --cpus-per-task=%1").arg(g.cpusPerTask);
    appendGpuRequest(l, profile, g);
    if (!spec.memory.trimmed().isEmpty())
        l << QStringLiteral("#SBATCH --mem=%1")
                 .arg(ShellQuote::isPlain(spec.memory.trimmed()) ? spec.memory.trimmed() : QStringLiteral("INVALID"));
    appendCarriedOptions(l, spec);
    l << SegmentScript::headerLines(spec);
    l << QStringLiteral("#SBATCH --output=%1").arg(outputFilePattern()) << QString();
}

// The modules: the spec's, or the profile's defaults (said so, so that an
// import of this script reads them as the defaults, not as the spec's own).
// `module use/purge/unload` lines from the spec precede the loads; they are
// taken out of moduleSetup once written.
void appendModules(QStringList &l, const JobSpec &spec, const ClusterProfile &profile, QStringList &moduleSetup)
{
    const JobEnvironment &env = spec.environment;
    const bool defaults = env.modules.isEmpty() && env.container.image.isEmpty();
    const QStringList modules = defaults ? profile.defaultModules : env.modules;
    if (modules.isEmpty())
        return;
    l << QStringLiteral("# Software environment.");
    if (!moduleSetup.join(QLatin1Char('\n')).contains(QLatin1String("module purge")))
        l << QStringLiteral("module purge");
    if (!moduleSetup.isEmpty())
        l << QLatin1String(kModuleSetupMarker) << moduleSetup;
    moduleSetup.clear();
    QStringList words{QStringLiteral("module load")};
    for (const auto &m : modules)
        words << ShellQuote::quote(m);
    l << QLatin1String(defaults ? kDefaultModulesMarker : kModulesMarker) << words.join(QLatin1Char(' '));
}

// The software environment: modules, threads, the collective library's and the spec's variables, setup lines.
void appendEnvironment(QStringList &l, const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g,
                       bool amd)
{
    const JobEnvironment &env = spec.environment;
    QStringList moduleSetup, otherSetup;
    for (const auto &line : env.setup)
        (line.trimmed().startsWith(QLatin1String("module ")) ? moduleSetup : otherSetup) << line;
    appendModules(l, spec, profile, moduleSetup);
    const int threads = std::max(1, g.cpusPerTask / std::max(1, g.processesPerNode / std::max(1, g.tasksPerNode)));
    l << QStringLiteral("# One OpenMP/BLAS thread pool per process, sized to its CPUs.")
      << QStringLiteral("export OMP_NUM_THREADS=%1").arg(threads);
    QList<QPair<QString, QString>> vars = profile.defaultVariables;
    if (g.nodes > 1 || spec.gpus > 1) {
        const QString lib = amd ? QStringLiteral("RCCL") : QStringLiteral("NCCL");
        l << QStringLiteral("# %1 (the collective library; RCCL reads NCCL_* too): warnings only unless debugging.")
                 .arg(lib);
        vars.prepend(qMakePair(QStringLiteral("NCCL_DEBUG"), QStringLiteral("WARN")));
    }
    for (const auto &[k, v] : vars)
        l << QStringLiteral("export %1=%2").arg(k, ShellQuote::quote(v));
    if (!env.variables.isEmpty())
        l << QLatin1String(kVariablesMarker);
    for (const auto &[k, v] : env.variables)
        l << QStringLiteral("export %1=%2").arg(k, ShellQuote::quoteExpandingVariables(v));
    if (!moduleSetup.isEmpty() || !otherSetup.isEmpty()) {
        l << QLatin1String(kSetupMarker);
        l << moduleSetup << otherSetup;
    }
}

}   // namespace

QString renderSbatch(const JobSpec &spec, const ClusterProfile &profile)
{
    const LaunchGeometry g = computeGeometry(spec, profile);
    const GpuType *type = g.partition ? profile.gpuType(g.partition->gpuType) : nullptr;
    const bool amd = type && type->vendor == GpuVendor::Amd;
    QStringList l;
    l.reserve(64);
    appendHeader(l, spec, profile, g, type);
    l << QStringLiteral("set -o pipefail")
      << QStringLiteral("echo \"scalelab: job $SLURM_JOB_ID started $(date -Is) on $SLURM_JOB_NODELIST\"")
      << QStringLiteral(
             "echo \"scalelab: geometry gpus=%1 nodes=%2 tasks_per_node=%3 procs_per_node=%4 cpus_per_task=%5\"")
             .arg(spec.gpus)
             .arg(g.nodes)
             .arg(g.tasksPerNode)
             .arg(g.processesPerNode)
             .arg(g.cpusPerTask)
      << QString();
    l << SegmentScript::prologue(spec);

    appendEnvironment(l, spec, profile, g, amd);
    l << QString();

    if (spec.gpuSampleSeconds > 0)
        l << samplerScript(spec, profile, g) << QString();

    QStringList pre;
    const QString launch = launchLine(spec, profile, g, pre);
    l << pre << SegmentScript::launch(spec, launch);
    l << QStringLiteral("echo \"scalelab: job $SLURM_JOB_ID finished $(date -Is) with exit code $rc\"")
      << QStringLiteral("exit $rc");
    return l.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

RenderResult renderAndValidate(const JobSpec &spec, const ClusterProfile &profile)
{
    return RenderResult{renderSbatch(spec, profile), validateJob(spec, profile)};
}

}   // namespace scalelab
