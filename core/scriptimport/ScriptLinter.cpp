// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/ScriptImporter.h"
#include "core/model/SpecFields.h"

#include "core/base/InputLimits.h"
#include "core/compose/JobValidator.h"
#include "core/model/ProfileFacts.h"
#include "core/model/SoftwareCatalog.h"
#include "core/scriptimport/LaunchLineParser.h"
#include "core/scriptimport/LintRules.h"
#include "core/scriptimport/ScriptOptionReader.h"

#include <QRegularExpression>

#include <algorithm>

// The findings about how an imported script starts its processes: the
// mistakes people copy from examples (a launcher that uses fewer GPUs than
// were reserved, tasks nobody starts, torchrun on the first node only) and
// the validator's findings placed on the line that caused them.

namespace scalelab {

namespace {

class Linter {
public:
    Linter(ScriptImport &imp, const ClusterProfile &profile)
        : m_imp(imp)
        , m_profile(profile)
    {}

    void run()
    {
        const LaunchCommand *l = m_imp.launch();
        if (!l) {
            if (!hasRule(QStringLiteral("cannot-parse")) || m_imp.options.size() > 0)
                add(finding(Severity::Warning, QStringLiteral("no-launch-line"), QStringLiteral("program"), 0,
                            QStringLiteral("No line starts a Python program (srun, torchrun, deepspeed, horovodrun, "
                                           "mpirun or python). Set the program by hand.")));
        } else {
            lintLaunch(*l);
        }
        lintSite();
        lintSiteOptions(m_imp, m_profile);
        lintPartition();
        lintTimeLimit(m_imp, m_profile);
        lintUnsetVariables(m_imp);
        lintOutputDirectories(m_imp);
        lintRedirectDirectories(m_imp);
        lintTasksPerGpu(m_imp);
        lintRequeueSignal(m_imp);
        lintPlaceholderValues(m_imp);
        lintFixedPort(m_imp, m_profile);
        lintLauncherRendezvous(m_imp);
        lintSoftware();
        mapValidator();
    }

private:
    void add(Diagnostic d) { m_imp.diagnostics << std::move(d); }

    // Modules and the image against what the cluster was found to have, on
    // their own lines (the validator's copies of these are then skipped).
    void lintSoftware()
    {
        const LaunchCommand *l = m_imp.launch();
        for (const Diagnostic &d : SoftwareCatalog::check(m_imp.spec, m_profile, m_imp.moduleLines, l ? l->line : 0))
            add(d);
    }

    bool hasRule(const QString &rule, const QString &field = QString()) const
    {
        return std::any_of(m_imp.diagnostics.begin(), m_imp.diagnostics.end(), [&](const Diagnostic &d) {
            return d.rule == rule && (field.isEmpty() || d.field == field);
        });
    }

    int optionLine(const char *name) const
    {
        const SbatchOption *o = m_imp.option(QString::fromLatin1(name));
        return o ? o->line : 0;
    }

    // One launch line against what the job reserved: nodes, tasks, GPUs.
    void lintLaunch(const LaunchCommand &l)
    {
        const Started s = countStarted(l, m_imp.request);
        const QString who =
            l.launcherWord.isEmpty() ? (l.underSrun ? QStringLiteral("srun") : l.interpreter) : l.launcherWord;
        if (!s.unknownBecause.isEmpty()) {
            // A count computed at run time ($(nvidia-smi -L | wc -l)) is fine;
            // an unset variable is reported by variable-never-set.
            add(finding(Severity::Info, QStringLiteral("unresolved-variable"), QStringLiteral("launcher"), s.countLine,
                        QStringLiteral("The process count %1 of %2 is only known when the job runs; the GPU check is "
                                       "skipped.")
                            .arg(s.unknownBecause, who)));
        }
        lintTorchrunNodes(l, s, who);
        const bool multiplied = lintLauncherPerTask(l, s, who);
        lintFirstNodeOnly(l, who);
        lintTasksNeverStarted(l);
        lintProcessesAgainstGpus(l, s, who, multiplied);
    }

    // Torchrun's node handling.
    void lintTorchrunNodes(const LaunchCommand &l, const Started &s, const QString &who)
    {
        const int nodes = m_imp.request.effectiveNodes();
        if (l.launcher != Launcher::Torchrun)
            return;
        if (nodes > 1 && !l.underSrun) {
            add(finding(Severity::Error, QStringLiteral("torchrun-without-srun-multinode"), QStringLiteral("launcher"),
                        l.line,
                        QStringLiteral("%1 nodes are reserved but %2 is not started with srun, so it runs on the first "
                                       "node only and the other %3 wait idle. Start it as \"srun %2 ...\" with one "
                                       "task per node.")
                            .arg(nodes)
                            .arg(who)
                            .arg(nodes - 1),
                        Fix{QStringLiteral("launcher"), QStringLiteral("torchrun"),
                            QStringLiteral("let ScaleLab start torchrun on every node with srun")}));
        } else if (l.standalone && s.instanceNodes > 1) {
            add(finding(Severity::Error, QStringLiteral("torchrun-standalone-multinode"), QStringLiteral("launcher"),
                        l.line,
                        QStringLiteral("--standalone makes every node its own training group: the %1 nodes train "
                                       "separate copies of the model. Use --rdzv_backend=c10d with an endpoint on the "
                                       "first node.")
                            .arg(s.instanceNodes)));
        } else if (l.nnodes.value > 0 && l.nnodes.value != s.instanceNodes) {
            add(finding(Severity::Error, QStringLiteral("torchrun-nnodes-mismatch"), QStringLiteral("nodes"),
                        l.nnodes.line ? l.nnodes.line : l.line,
                        QStringLiteral("--nnodes=%1 but %2 starts on %3; the rendezvous waits for nodes that never "
                                       "come. Use --nnodes=$SLURM_JOB_NUM_NODES.")
                            .arg(l.nnodes.value)
                            .arg(who, plural(s.instanceNodes, "node", "nodes"))));
        }
    }

    // srun x launcher: every srun task runs the launcher, which spawns its own
    // workers. True when that is so (reported here).
    bool lintLauncherPerTask(const LaunchCommand &l, const Started &s, const QString &who)
    {
        if (!l.launcher || !l.underSrun || s.instances <= s.instanceNodes)
            return false;
        add(finding(Severity::Error, QStringLiteral("launcher-too-many-processes"), QStringLiteral("launcher"), l.line,
                    QStringLiteral("srun starts %1 copies of %2 (%3 per node), and each spawns its own workers%4: "
                                   "%5 processes compete for %6 GPUs. Start the launcher once per node "
                                   "(--ntasks-per-node=1).")
                        .arg(s.instances)
                        .arg(who)
                        .arg(s.instances / std::max(1, s.instanceNodes))
                        .arg(s.perInstance > 0 && s.unknownBecause.isEmpty()
                                 ? QStringLiteral(" (%1 each)").arg(s.perInstance)
                                 : QString())
                        .arg(s.processes > 0 ? QString::number(s.processes) : QStringLiteral("N x M"))
                        .arg(m_imp.request.gpus),
                    Fix{QStringLiteral("launcher"), launcherIdFor(*l.launcher),
                        QStringLiteral("let ScaleLab start %1 once per node").arg(launcherIdFor(*l.launcher))}));
        return true;
    }

    // First node only: one process without srun on a multi-node job.
    void lintFirstNodeOnly(const LaunchCommand &l, const QString &who)
    {
        const ScriptRequest &r = m_imp.request;
        const int nodes = r.effectiveNodes();
        const bool spans = l.underSrun || l.hostfile || (l.launcher && launcherTraits(*l.launcher).readsAllocation);
        if (l.launcher == Launcher::Torchrun || nodes <= 1 || spans)
            return;
        Fix fix;
        const Partition *p = partition();
        if (p && r.gpusPerNode <= p->gpusPerNode && r.gpusPerNode > 0)
            fix = Fix{QStringLiteral("nodes"), QStringLiteral("1"), QStringLiteral("run on one node")};
        add(finding(Severity::Error, QStringLiteral("first-node-only"), QStringLiteral("nodes"), l.line,
                    QStringLiteral("%1 nodes are reserved but %2 runs on the first node only (no srun); the other "
                                   "%3 idle. Start it with srun or reserve one node.")
                        .arg(nodes)
                        .arg(who.isEmpty() ? l.program : who)
                        .arg(nodes - 1),
                    fix));
    }

    // Tasks reserved but never started.
    void lintTasksNeverStarted(const LaunchCommand &l)
    {
        const ScriptRequest &r = m_imp.request;
        const int nodes = r.effectiveNodes();
        if (r.tasksGiven && r.tasks > 1 && !l.underSrun && !usesSlots(l) && r.tasks > nodes) {
            const int line = optionLine("ntasks") ? optionLine("ntasks") : optionLine("ntasks-per-node");
            add(finding(Severity::Warning, QStringLiteral("tasks-never-started"), QString(), line,
                        QStringLiteral("%1 reserved, but line %2 starts one process without srun, so %3 never "
                                       "started%4. Their CPUs only reach that one process as extra threads, and "
                                       "the task count suggests one process per GPU that is not there. Reserve "
                                       "--ntasks=1 --cpus-per-task=%5, or start the program with srun.")
                            .arg(plural(r.tasks, "task is", "tasks are"))
                            .arg(l.line)
                            .arg(plural(r.tasks - 1, "task is", "tasks are"))
                            .arg(idleCost(r.tasks - 1))
                            .arg(satMul(std::max(1, r.cpusPerTask), r.tasks) / nodes)));
        } else if (l.underSrun && l.srunTasks > 0 && l.srunTasks < r.tasks && r.tasksGiven) {
            add(finding(
                Severity::Warning, QStringLiteral("tasks-never-started"), QString(), l.line,
                QStringLiteral("srun -n %1 starts %2 of the %3 tasks the job reserved; the rest idle%4. Drop -n "
                               "or reserve fewer tasks.")
                    .arg(l.srunTasks)
                    .arg(l.srunTasks)
                    .arg(r.tasks)
                    .arg(idleCost(r.tasks - l.srunTasks))));
        }
    }

    static bool usesSlots(const LaunchCommand &l)
    {
        return l.launcher && launcherTraits(*l.launcher).model == ProcessModel::RankPerTask;
    }

    // Processes against GPUs; `multiplied`: the launcher-per-task case, reported already.
    void lintProcessesAgainstGpus(const LaunchCommand &l, const Started &s, const QString &who, bool multiplied)
    {
        const ScriptRequest &r = m_imp.request;
        if (s.processes <= 0 || r.gpus <= 0)
            return;
        const bool torch = l.launcher == Launcher::Torchrun;
        const bool onePerNode = !l.launcher && s.instances <= s.instanceNodes;
        const bool firstNodeOnly = torch && r.effectiveNodes() > 1 && !l.underSrun;   // reported, same cause
        if (s.processes < r.gpus && !onePerNode && !firstNodeOnly) {
            add(finding(
                Severity::Warning, QStringLiteral("launcher-too-few-processes"), QStringLiteral("gpus"), s.countLine,
                QStringLiteral("%1 reserved but %2 starts %3%4: %5 never used. Start one process per GPU%6, or "
                               "reserve only %7.")
                    .arg(plural(r.gpus, "GPU is", "GPUs are"), who, plural(s.processes, "process", "processes"),
                         s.instances > 1 ? QStringLiteral(" (%1 x %2)").arg(s.instances).arg(s.perInstance) : QString(),
                         plural(r.gpus - s.processes, "GPU is", "GPUs are"),
                         torch ? QStringLiteral(" (--nproc_per_node=%1)").arg(r.gpusPerNode) : QString(),
                         plural(s.processes, "GPU", "GPUs")),
                Fix{QStringLiteral("gpus"), QString::number(s.processes),
                    QStringLiteral("reserve %1 GPUs").arg(s.processes)}));
        } else if (s.processes > r.gpus && !multiplied) {
            add(finding(torch ? Severity::Error : Severity::Warning, QStringLiteral("launcher-too-many-processes"),
                        QStringLiteral("gpus"), s.countLine,
                        QStringLiteral("%1 starts %2 for %3%4; processes share GPUs or fail to find one. Start one "
                                       "process per GPU.")
                            .arg(who, plural(s.processes, "process", "processes"), plural(r.gpus, "GPU", "GPUs"),
                                 s.instanceNodes > 1 && s.processes % s.instanceNodes == 0
                                     ? QStringLiteral(" (%1 per node on %2 nodes, each with %3 GPUs)")
                                           .arg(s.processes / s.instanceNodes)
                                           .arg(s.instanceNodes)
                                           .arg(r.gpusPerNode)
                                     : QString()),
                        Fix{QStringLiteral("gpus"), QString::number(s.processes),
                            QStringLiteral("reserve %1 GPUs").arg(s.processes)}));
        }
        if (usesSlots(l) && l.np.value > r.tasks && r.tasksGiven && l.launcher == Launcher::Mpirun) {
            add(finding(Severity::Error, QStringLiteral("launcher-too-many-processes"), QStringLiteral("launcher"),
                        s.countLine,
                        QStringLiteral("mpirun -np %1 but the job has %2 task slots; Open MPI refuses to start (not "
                                       "enough slots). Reserve --ntasks=%1.")
                            .arg(l.np.value)
                            .arg(r.tasks)));
        }
    }

    // ", leaving 24 CPUs and 96G of memory idle" for tasks nobody starts.
    QString idleCost(int idleTasks) const
    {
        const ScriptRequest &r = m_imp.request;
        if (idleTasks <= 0)
            return {};
        const int cpus = satMul(std::max(1, r.cpusPerTask), idleTasks);
        QString mem;
        if (const SbatchOption *o = m_imp.option(QStringLiteral("mem-per-cpu")); o && o->hasValue) {
            static const QRegularExpression re(QStringLiteral("^([0-9]+)([KMGT]?)B?$"),
                                               QRegularExpression::CaseInsensitiveOption);
            const auto m = re.match(o->value.trimmed());
            if (m.hasMatch())
                mem = QStringLiteral(" and %1%2 of memory (--mem-per-cpu=%3 x %4)")
                          .arg(m.captured(1).toLongLong() * cpus)
                          .arg(m.captured(2).isEmpty() ? QStringLiteral("M") : m.captured(2).toUpper(), o->value)
                          .arg(cpus);
        }
        return QStringLiteral(", leaving %1 CPUs%2 idle").arg(cpus).arg(mem);
    }

    // The form's launcher for the fix (accelerate is started through torchrun).
    static QString launcherIdFor(Launcher l) { return launcherId(launcherTraits(l).composedAs); }

    const Partition *partition() const
    {
        const QString &name = m_imp.spec.partition;
        return name.isEmpty() ? m_profile.defaultPartition() : m_profile.partition(name);
    }

    void lintSite()
    {
        const SbatchOption *cpg = m_imp.option(QStringLiteral("cpus-per-gpu"));
        if (!cpg || !m_profile.cpusPerGpuBroken)
            return;
        QString note;
        for (const auto &n : m_profile.notes)
            if (n.rule == QLatin1String("site-cpus-per-gpu"))
                note = QStringLiteral(" ") + n.text;
        // In 64 bits: both factors may be up to kMaxScriptCount; advice beyond
        // that bound would be nonsense, so none is given then.
        const qint64 product =
            m_imp.request.gpusPerNode > 0 && m_imp.spec.cpusPerGpu > 0
                ? qint64(m_imp.spec.cpusPerGpu) * m_imp.request.gpusPerNode / std::max(1, m_imp.request.tasksPerNode)
                : 0;
        const int perTask = product <= kMaxScriptCount ? int(product) : 0;
        add(finding(Severity::Warning, QStringLiteral("site-cpus-per-gpu"), QLatin1String(SpecField::cpusPerGpu),
                    cpg->line,
                    QStringLiteral("On %1, --cpus-per-gpu breaks direct GPU-to-GPU communication.%2 Request CPUs with "
                                   "--cpus-per-task%3 instead.")
                        .arg(m_profile.name.isEmpty() ? m_profile.id : m_profile.name, note,
                             perTask > 0 ? QStringLiteral("=%1").arg(perTask) : QString())));
    }

    // What the script asks of a node that the partition's nodes do not have.
    void lintPartition()
    {
        const Partition *p = partition();
        const ScriptRequest &r = m_imp.request;
        if (!p)
            return;
        const ProfileFacts facts(m_profile);
        if (!r.gpuType.isEmpty() && r.gpuType != p->gpuType && !facts.statesGpuType(*p)) {
            add(finding(Severity::Info, QStringLiteral("gpu-type-unknown"), QStringLiteral("gpus"), r.gpuOptionLine,
                        QStringLiteral("The script asks for %1 GPUs; profile %2 does not say which GPU types "
                                       "partition %3 has, so this is not checked. %4")
                            .arg(r.gpuType, profileName(), p->name, facts.howToLearn(QStringLiteral("them")))));
        } else if (!r.gpuType.isEmpty() && !p->gpuType.isEmpty() && r.gpuType != p->gpuType) {
            const Partition *alt = nullptr;
            for (const auto &q : m_profile.partitions)
                if (q.gpuType == r.gpuType && !alt)
                    alt = &q;
            add(finding(
                Severity::Error, QStringLiteral("geometry-partition-mismatch"), QStringLiteral("gpus"), r.gpuOptionLine,
                QStringLiteral("The script asks for %1 GPUs but partition %2 has %3; Slurm reports \"Requested "
                               "node configuration is not available\".%4")
                    .arg(r.gpuType, p->name, p->gpuType,
                         alt ? QStringLiteral(" Use partition %1.").arg(alt->name) : QString()),
                alt ? Fix{QStringLiteral("partition"), alt->name, QStringLiteral("use %1").arg(alt->name)} : Fix{}));
        }
        if (p->gpusPerNode > 0 && r.gpusPerNode > p->gpusPerNode) {
            const int needed = (r.gpus + p->gpusPerNode - 1) / p->gpusPerNode;
            add(finding(
                Severity::Error, QStringLiteral("geometry-partition-mismatch"), QStringLiteral("gpus"), r.gpuOptionLine,
                QStringLiteral("%1 GPUs per node requested but a %2 node has %3; Slurm cannot place the job. "
                               "Use %4 nodes with %3 GPUs each.")
                    .arg(r.gpusPerNode)
                    .arg(p->name)
                    .arg(p->gpusPerNode)
                    .arg(needed),
                Fix{QStringLiteral("nodes"), QString::number(needed), QStringLiteral("set nodes to %1").arg(needed)}));
        }
        const int cpus = r.cpusPerNode();
        if (p->cpusPerNode > 0 && cpus > p->cpusPerNode) {
            const int fit = std::max(1, p->cpusPerNode / std::max(1, r.tasksPerNode));
            add(finding(Severity::Error, QStringLiteral("geometry-partition-mismatch"),
                        QLatin1String(SpecField::cpusPerGpu),
                        optionLine("cpus-per-task") ? optionLine("cpus-per-task") : optionLine("ntasks-per-node"),
                        QStringLiteral("%1 CPUs per node requested (%2 x %3) but a %4 node has %5. Use "
                                       "--cpus-per-task=%6.")
                            .arg(cpus)
                            .arg(r.tasksPerNode)
                            .arg(std::max(1, r.cpusPerTask))
                            .arg(p->name)
                            .arg(p->cpusPerNode)
                            .arg(fit)));
        }
    }

    // The validator checks the spec; its findings go on the line that set the
    // field. Infos about how ScaleLab would render the job are left out.
    void mapValidator()
    {
        if (m_profile.id.isEmpty() && m_profile.partitions.isEmpty())
            return;
        if (m_imp.options.isEmpty() && m_imp.launches.isEmpty())
            return;   // nothing was read (empty, binary): the spec is all defaults
        const Diagnostics v = validateJob(m_imp.spec, m_profile);
        bool limitsSkipped = false;
        for (Diagnostic d : v) {
            if (d.severity == Severity::Info)
                continue;
            // About how the spec holds the script ("$@" as program, a multi-line
            // quoted command), not a mistake in the script: the summary says it.
            static const QStringList representation = {
                QStringLiteral("program-invalid"),        QStringLiteral("argument-newline"),
                QStringLiteral("variable-value-newline"), QStringLiteral("variable-name-invalid"),
                QStringLiteral("module-name-invalid"),    QStringLiteral("job-name-invalid"),
            };
            if (representation.contains(d.rule))
                continue;
            // A profile without partitions knows no limits: nothing to hold the
            // script against (noted once below), rather than invented errors.
            static const QStringList limits = {
                QStringLiteral("unknown-partition"),      QStringLiteral("partition-no-gpus"),
                QStringLiteral("partition-gpu-limit"),    QStringLiteral("partition-min-gpus"),
                QStringLiteral("gpus-per-node-exceeded"), QStringLiteral("nodes-exceeded"),
                QStringLiteral("nodes-below-min"),        QStringLiteral("exclusive-partial-node"),
                QStringLiteral("time-exceeded"),          QStringLiteral("cpus-per-node-exceeded"),
                QStringLiteral("memory-exceeded"),        QStringLiteral("memory-required"),
            };
            if (m_profile.partitions.isEmpty() && limits.contains(d.rule)) {
                limitsSkipped = true;
                continue;
            }
            if (d.rule == QLatin1String("unknown-partition") && !ProfileFacts(m_profile).statesPartitions()) {
                add(partitionUnknown());
                continue;
            }
            // Choices a correct script may make on purpose (the site's default
            // time, part of an exclusive node): worth knowing, not a mistake.
            if (d.rule == QLatin1String("time-missing") || d.rule == QLatin1String("exclusive-partial-node")
                || d.rule == QLatin1String("nodes-spread"))
                d.severity = Severity::Info;
            if (!d.field.isEmpty() && hasRule(QStringLiteral("placeholder-value"), d.field))
                continue;   // one finding for an example value, not also "malformed"
            if (d.rule == QLatin1String("program-missing") && hasRule(QStringLiteral("no-launch-line")))
                continue;
            if (hasRule(d.rule, d.field))
                continue;
            // Ours already says it about the same field, with the script's numbers.
            if (hasRule(QStringLiteral("geometry-partition-mismatch"), d.field)
                || (d.rule == QLatin1String("gpus-per-node-exceeded")
                    && hasRule(QStringLiteral("geometry-partition-mismatch"))))
                continue;
            if (d.field == QLatin1String("time") && hasRule(QStringLiteral("invalid-value"), d.field))
                continue;
            if (d.line == 0)
                d.line = m_imp.lineOf(d.field);
            add(d);
        }
        if (limitsSkipped)
            add(finding(Severity::Info, QStringLiteral("profile-limits-unknown"), QStringLiteral("partition"),
                        m_imp.lineOf(QStringLiteral("partition")),
                        QStringLiteral("Profile %1 lists no partitions, so the request is not checked against node "
                                       "sizes or limits.")
                            .arg(m_profile.name.isEmpty() ? m_profile.id : m_profile.name)));
    }

    QString profileName() const { return m_profile.name.isEmpty() ? m_profile.id : m_profile.name; }

    // A partition a template cannot know: unknown, not wrong.
    Diagnostic partitionUnknown() const
    {
        return finding(Severity::Info, QStringLiteral("unknown-partition"), QStringLiteral("partition"),
                       m_imp.lineOf(QStringLiteral("partition")),
                       QStringLiteral("Profile %1 does not list the site's partitions, so whether partition \"%2\" "
                                      "exists is not known here. %3")
                           .arg(profileName(), InputLimits::quoted(m_imp.spec.partition),
                                ProfileFacts(m_profile).howToLearn(QStringLiteral("the partitions"))));
    }

    ScriptImport &m_imp;
    const ClusterProfile &m_profile;
};

}   // namespace

void lintScriptImport(ScriptImport &imp, const ClusterProfile &profile)
{
    Linter(imp, profile).run();
    std::stable_sort(imp.diagnostics.begin(), imp.diagnostics.end(),
                     [](const Diagnostic &a, const Diagnostic &b) { return a.line < b.line; });
}

}   // namespace scalelab
