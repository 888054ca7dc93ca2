// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/JobValidator.h"
#include "core/compose/SegmentRules.h"

#include "core/model/SoftwareCatalog.h"

#include "core/base/InputLimits.h"
#include "core/compose/PartitionRules.h"
#include "core/model/SpecFields.h"

#include "core/model/LaunchGeometry.h"
#include "core/model/MetricFileLocations.h"
#include "core/slurm/SlurmMemory.h"
#include "core/slurm/SlurmTime.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace scalelab {

namespace {

using jobrules::partitionFix;
using jobrules::suggestionText;
using jobrules::suggestPartition;

Diagnostic diag(Severity sev, const char *rule, const char *field, const QString &message, Fix fix = {})
{
    return Diagnostic{sev, QString::fromLatin1(rule), QString::fromLatin1(field), 0, 0, message, std::move(fix)};
}

const QRegularExpression &cachedRegex(const QString &pattern)
{
    // Compiled once per pattern: validation runs on every keystroke.
    thread_local QHash<QString, QRegularExpression> cache;
    auto it = cache.find(pattern);
    if (it == cache.end())
        it = cache.insert(pattern, QRegularExpression(pattern));
    return *it;
}

int nodesNeeded(const JobSpec &spec, const Partition &p)
{
    if (spec.nodes > 0)
        return spec.nodes;
    if (!frameworkSpansNodes(spec.framework) || p.gpusPerNode <= 0)
        return 1;
    return std::max(1, (spec.gpus + p.gpusPerNode - 1) / p.gpusPerNode);
}

}   // namespace

namespace jobrules {

// The partition a researcher should use instead: fits the GPU count, the node
// count and the time; prefers the site default, then shared nodes for partial
// nodes and whole-node partitions for full ones, then the longest time limit.
const Partition *suggestPartition(const JobSpec &spec, const ClusterProfile &profile, const QString &current)
{
    const auto timeSecs = SlurmTime::parseSeconds(spec.time);
    const Partition *best = nullptr;
    int bestScore = -1;
    for (const auto &p : profile.partitions) {
        if (p.name == current || p.gpusPerNode <= 0)
            continue;
        JobSpec s = spec;
        s.nodes = 0;
        const int nodes = nodesNeeded(s, p);
        if (spec.gpus > p.maxGpus() || (p.minGpusPerJob > 0 && spec.gpus < p.minGpusPerJob)
            || (nodes > p.maxNodes && p.isKnown(QStringLiteral("maxNodes"))) || nodes < p.minNodes)
            continue;
        if (!frameworkSpansNodes(spec.framework) && spec.gpus > p.gpusPerNode)
            continue;
        if (timeSecs && p.maxTimeSeconds > 0 && *timeSecs > p.maxTimeSeconds)
            continue;
        const bool fullNodes = spec.gpus % p.gpusPerNode == 0;
        int score = 0;
        if (p.isDefault)
            score += 4;
        if (p.exclusive == fullNodes)
            score += 2;
        if (p.maxTimeSeconds == 0 || p.maxTimeSeconds >= 3600 * 4)
            score += 1;   // a production partition rather than a test one
        if (score > bestScore) {
            best = &p;
            bestScore = score;
        }
    }
    return best;
}

}   // namespace jobrules

namespace {

// GPUs per job: the partition's limit, its QOS's, its minimum.
void checkGpuLimits(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g,
                    const jobrules::Alternative &alternative, Diagnostics &out)
{
    const Partition &p = *g.partition;
    const QString pn = p.name;
    const QosLimits *qos = p.qos.isEmpty() ? nullptr : profile.qosNamed(p.qos);
    if (p.maxGpusPerJob > 0 && spec.gpus > p.maxGpusPerJob) {
        const bool byQos = qos && qos->maxGpusPerJob == p.maxGpusPerJob;
        out << diag(
            Severity::Error, "partition-gpu-limit", "gpus",
            QStringLiteral("Partition %1 allows at most %2 GPUs per job%5; %3 requested.%4")
                .arg(pn)
                .arg(p.maxGpusPerJob)
                .arg(spec.gpus)
                .arg(suggestionText(alternative()),
                     byQos
                         ? QStringLiteral(" (QOS %1: MaxTRESPerJob gres/gpu=%2)").arg(qos->name).arg(qos->maxGpusPerJob)
                         : QString()),
            partitionFix(alternative()));
    }
    if (qos)
        jobrules::checkQos(spec, g, p, *qos, QStringLiteral("of partition %1").arg(pn), nullptr, alternative, out);
    if (p.minGpusPerJob > 0 && spec.gpus < p.minGpusPerJob) {
        out << diag(Severity::Error, "partition-min-gpus", "gpus",
                    QStringLiteral("Partition %1 is for jobs of at least %2 GPUs; %3 requested.%4")
                        .arg(pn)
                        .arg(p.minGpusPerJob)
                        .arg(spec.gpus)
                        .arg(suggestionText(alternative())),
                    partitionFix(alternative()));
    }
}

// More GPUs per node than a node of the partition has.
void checkGpusPerNode(const JobSpec &spec, const LaunchGeometry &g, Diagnostics &out)
{
    const Partition &p = *g.partition;
    const QString pn = p.name;
    const bool gpusKnown = p.isKnown(QStringLiteral("gpusPerNode"));
    if (gpusKnown && g.gpusPerNode > p.gpusPerNode && frameworkSpansNodes(spec.framework)) {
        const int needed = (g.gpus + p.gpusPerNode - 1) / p.gpusPerNode;
        Fix fix;
        QString how;
        if (!g.nodesDerived && needed <= p.maxNodes && frameworkSpansNodes(spec.framework)) {
            fix = Fix{QStringLiteral("nodes"), QString::number(needed), QStringLiteral("set nodes to %1").arg(needed)};
            how = QStringLiteral(" Set nodes to %1.").arg(needed);
        }
        out << diag(Severity::Error, "gpus-per-node-exceeded", g.nodesDerived ? "gpus" : "nodes",
                    QStringLiteral("%1 GPUs per node requested but a %2 node has %3.%4")
                        .arg(g.gpusPerNode)
                        .arg(pn)
                        .arg(p.gpusPerNode)
                        .arg(how),
                    fix);
    }
}

// Node count against the partition's bounds; partial nodes of a whole-node partition.
void checkNodes(const LaunchGeometry &g, const jobrules::Alternative &alternative, Diagnostics &out)
{
    const Partition &p = *g.partition;
    const QString pn = p.name;
    const bool maxNodesKnown = p.isKnown(QStringLiteral("maxNodes"));
    if (maxNodesKnown && g.nodes > p.maxNodes) {
        out << diag(Severity::Error, "nodes-exceeded", "nodes",
                    QStringLiteral("%1 nodes needed but partition %2 allows at most %3.%4")
                        .arg(g.nodes)
                        .arg(pn)
                        .arg(p.maxNodes)
                        .arg(suggestionText(alternative())),
                    partitionFix(alternative()));
    } else if (g.nodes < p.minNodes) {
        out << diag(Severity::Error, "nodes-below-min", "nodes",
                    QStringLiteral("Partition %1 needs at least %2 nodes; %3 requested.%4")
                        .arg(pn)
                        .arg(p.minNodes)
                        .arg(g.nodes)
                        .arg(suggestionText(alternative())),
                    partitionFix(alternative()));
    }
    if (p.exclusive && g.gpusPerNode < p.gpusPerNode && g.gpusPerNode > 0) {
        out << diag(Severity::Warning, "exclusive-partial-node", "gpus",
                    QStringLiteral("Partition %1 allocates whole nodes: %2 of %3 GPUs per node would sit idle but "
                                   "still be billed. Use %4 GPUs per node or a shared partition.%5")
                        .arg(pn)
                        .arg(g.gpusPerNode)
                        .arg(p.gpusPerNode)
                        .arg(p.gpusPerNode)
                        .arg(suggestionText(alternative())),
                    partitionFix(alternative()));
    }
}

// The time limit: missing, malformed, over the partition's; a test partition named as such.
void checkTime(const JobSpec &spec, const LaunchGeometry &g, const jobrules::Alternative &alternative, Diagnostics &out)
{
    const Partition &p = *g.partition;
    const QString pn = p.name;
    if (spec.time.trimmed().isEmpty()) {
        const QString max = p.maxTimeSeconds > 0                   ? SlurmTime::format(p.maxTimeSeconds)
                            : p.isKnown(QStringLiteral("maxTime")) ? QStringLiteral("unlimited")
                                                                   : QStringLiteral("not known");
        // A known DefaultTime says which of the two the job gets (time-default).
        const qint64 def = p.defaultTimeSeconds.value_or(-1);
        out << diag(Severity::Warning, "time-missing", "time",
                    def > 0 ? QStringLiteral("No time limit: Slurm ends the job after partition %1's DefaultTime "
                                             "(%2). Set a realistic limit.")
                                  .arg(pn, SlurmTime::format(def))
                    : def == 0 ? QStringLiteral("No time limit: Slurm uses partition %1's maximum (%2), which may "
                                                "delay the start. Set a realistic limit.")
                                     .arg(pn, max)
                               : QStringLiteral("No time limit: Slurm uses partition %1's default, which may be its "
                                                "maximum (%2) and delay the start. Set a realistic limit.")
                                     .arg(pn, max),
                    Fix{QStringLiteral("time"), QStringLiteral("01:00:00"), QStringLiteral("set time to 01:00:00")});
    } else if (auto secs = SlurmTime::parseSeconds(spec.time); !secs) {
        out << diag(Severity::Error, "time-malformed", "time",
                    QStringLiteral("\"%1\" is not a Slurm time; use HH:MM:SS or D-HH:MM:SS.")
                        .arg(InputLimits::quoted(spec.time)));
    } else if (*secs <= 0) {
        out << diag(Severity::Error, "time-malformed", "time", QStringLiteral("The time limit must be above zero."));
    } else if (p.maxTimeSeconds > 0 && *secs > p.maxTimeSeconds) {
        const QString max = SlurmTime::format(p.maxTimeSeconds);
        const Partition *longer = alternative();
        out << diag(Severity::Error, "time-exceeded", "time",
                    QStringLiteral("%1 exceeds partition %2's limit of %3.%4")
                        .arg(InputLimits::quoted(spec.time), pn, max,
                             longer ? QStringLiteral(" Shorten it to %1 or use partition %2.").arg(max, longer->name)
                                    : QStringLiteral(" Shorten it to %1.").arg(max)),
                    Fix{QStringLiteral("time"), max, QStringLiteral("set time to %1").arg(max)});
    }
    if (p.maxTimeSeconds > 0 && p.maxTimeSeconds <= 3600)
        out << diag(Severity::Info, "test-partition", "partition",
                    QStringLiteral("Partition %1 is for short tests (at most %2): use it to check the job starts, "
                                   "not for the scaling runs themselves.")
                        .arg(pn, SlurmTime::format(p.maxTimeSeconds)));
}

// CPUs and memory per node.
void checkCpusAndMemory(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g, Diagnostics &out)
{
    const Partition &p = *g.partition;
    const QString pn = p.name;
    const int cpusPerNode = g.cpusPerTask * g.tasksPerNode;
    if (p.cpusPerNode > 0 && cpusPerNode > p.cpusPerNode && g.gpusPerNode <= p.gpusPerNode) {
        const int fitting = std::max(1, p.cpusPerNode / std::max(1, g.gpusPerNode));
        out << diag(Severity::Error, "cpus-per-node-exceeded", SpecField::cpusPerGpu,
                    QStringLiteral("%1 CPUs per node requested (%2 tasks x %3 CPUs) but a %4 node has %5.")
                        .arg(cpusPerNode)
                        .arg(g.tasksPerNode)
                        .arg(g.cpusPerTask)
                        .arg(pn)
                        .arg(p.cpusPerNode),
                    Fix{QLatin1String(SpecField::cpusPerGpu), QString::number(fitting),
                        QStringLiteral("set CPUs per GPU to %1").arg(fitting)});
    }
    if (!spec.memory.isEmpty()) {
        const auto mb = slurmMemoryMB(spec.memory);
        if (!mb) {
            out << diag(
                Severity::Error, "memory-malformed", "memory",
                QStringLiteral("\"%1\" is not a Slurm memory size; use e.g. 64G or 16000M (0 = the whole node).")
                    .arg(InputLimits::quoted(spec.memory)));
        } else if (p.memoryPerNodeMB > 0 && *mb > p.memoryPerNodeMB) {
            const QString max = QStringLiteral("%1M").arg(p.memoryPerNodeMB);
            out << diag(Severity::Error, "memory-exceeded", "memory",
                        QStringLiteral("%1 per node requested but a %2 node has %3 MB usable.")
                            .arg(InputLimits::quoted(spec.memory), pn)
                            .arg(p.memoryPerNodeMB),
                        Fix{QStringLiteral("memory"), max, QStringLiteral("set memory to %1").arg(max)});
        } else if (p.exclusive && *mb > 0) {
            out << diag(Severity::Info, "memory-on-exclusive", "memory",
                        QStringLiteral("Partition %1 gives whole nodes; --mem only limits what you get.").arg(pn));
        }
    } else if (profile.memoryRequired && !p.exclusive) {
        const qint64 share = p.gpusPerNode > 0 ? p.memoryPerNodeMB / p.gpusPerNode * std::max(1, g.gpusPerNode) : 0;
        const QString value =
            share > 0 ? QStringLiteral("%1G").arg(std::max<qint64>(1, share / 1024)) : QStringLiteral("16G");
        out << diag(Severity::Error, "memory-required", "memory",
                    QStringLiteral("%1 requires a memory request (--mem). A fair share for %2 GPUs is %3.")
                        .arg(profile.name)
                        .arg(g.gpusPerNode)
                        .arg(value),
                    Fix{QStringLiteral("memory"), value, QStringLiteral("set memory to %1").arg(value)});
    }
}

void checkPartition(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g, Diagnostics &out)
{
    const Partition &p = *g.partition;
    const QString pn = p.name;
    if (!p.unknown.isEmpty()) {
        // A number nobody knows is never turned into a finding: say which
        // checks are skipped and how to learn the values.
        out << diag(Severity::Info, "limit-unknown", "partition",
                    QStringLiteral("%1 does not know partition %2's %3, so those checks are skipped. "
                                   "`scalelab discover` reads them from the cluster.")
                        .arg(profile.name, pn, p.unknown.join(QStringLiteral(", "))));
    }
    if (p.gpusPerNode <= 0 && p.isKnown(QStringLiteral("gpusPerNode"))) {
        const Partition *alt = suggestPartition(spec, profile, pn);
        out << diag(Severity::Error, "partition-no-gpus", "partition",
                    QStringLiteral("Partition %1 has no GPUs.%2").arg(pn, suggestionText(alt)), partitionFix(alt));
        return;
    }
    // The partition to suggest instead, looked for once and only when a finding needs it.
    const Partition *alt = nullptr;
    bool altComputed = false;
    const jobrules::Alternative alternative = [&]() {
        if (!altComputed) {
            alt = suggestPartition(spec, profile, pn);
            altComputed = true;
        }
        return alt;
    };
    checkGpuLimits(spec, profile, g, alternative, out);
    checkGpusPerNode(spec, g, out);
    checkNodes(g, alternative, out);
    checkTime(spec, g, alternative, out);
    checkCpusAndMemory(spec, profile, g, out);
    jobrules::checkPartitionSettings(spec, profile, g, alternative, out);
}

// A single-node framework asked for more GPUs than one node has.
void checkFrameworkSpan(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g, Diagnostics &out)
{
    const int cap = g.partition ? g.partition->gpusPerNode : 0;
    const bool multiNode = g.nodes > 1 || (cap > 0 && spec.gpus > cap);
    if (!frameworkSpansNodes(spec.framework) && multiNode) {
        // Keeping the researcher's code is the better fix when a partition
        // with bigger nodes exists; otherwise switch to the multi-node framework.
        const auto alt = multiNodeAlternative(spec.framework);
        const Partition *bigger = nullptr;
        for (const auto &p : profile.partitions)
            if (p.gpusPerNode >= spec.gpus && spec.gpus <= p.maxGpus() && (!bigger || p.isDefault))
                bigger = &p;
        QString how;
        if (bigger)
            how += QStringLiteral(" Use partition %1 (%2 GPUs per node)").arg(bigger->name).arg(bigger->gpusPerNode);
        if (alt)
            how += (how.isEmpty() ? QStringLiteral(" Use ") : QStringLiteral(" or switch to ")) + frameworkName(*alt);
        if (!how.isEmpty())
            how += QLatin1Char('.');
        out << diag(Severity::Error, "single-node-framework", "framework",
                    QStringLiteral("%1 runs one process on one node, so it cannot use %2 GPUs when a %3 node has %4.%5")
                        .arg(frameworkName(spec.framework))
                        .arg(spec.gpus)
                        .arg(g.partitionName)
                        .arg(cap)
                        .arg(how),
                    bigger ? partitionFix(bigger)
                    : alt  ? Fix{QStringLiteral("framework"), frameworkId(*alt),
                                QStringLiteral("use %1").arg(frameworkName(*alt))}
                           : Fix{});
    }
}

// The launcher: one the framework is started with, and one that can span the nodes.
void checkLauncher(const JobSpec &spec, const LaunchGeometry &g, Diagnostics &out)
{
    if (spec.launcher && !launchersFor(spec.framework).contains(*spec.launcher)) {
        const Launcher def = defaultLauncher(spec.framework);
        out << diag(Severity::Error, "launcher-mismatch", "launcher",
                    QStringLiteral("%1 is not started with %2. Use %3.")
                        .arg(frameworkName(spec.framework), launcherId(*spec.launcher), launcherId(def)),
                    Fix{QStringLiteral("launcher"), launcherId(def), QStringLiteral("use %1").arg(launcherId(def))});
    }
    if (g.nodes > 1 && !launcherTraits(g.launcher).spansNodes) {
        out << diag(Severity::Error, "launcher-single-node", "launcher",
                    QStringLiteral("The %1 launcher needs a host file and SSH between nodes to span %2 nodes; inside "
                                   "Slurm use srun, which starts one task per GPU on every node.")
                        .arg(launcherId(g.launcher))
                        .arg(g.nodes),
                    Fix{QStringLiteral("launcher"), QStringLiteral("srun"), QStringLiteral("use srun")});
    }
}

// GPUs over nodes: evenly, no node without a GPU, no more nodes than needed.
void checkNodeSpread(const JobSpec &spec, const LaunchGeometry &g, Diagnostics &out)
{
    const int cap = g.partition ? g.partition->gpusPerNode : 0;
    if (spec.gpus > 0 && g.nodes > 0 && spec.gpus % g.nodes != 0) {
        const int even = g.gpusPerNode * g.nodes;
        out << diag(Severity::Error, "gpus-uneven", "gpus",
                    QStringLiteral("%1 GPUs cannot be split evenly over %2 nodes; Slurm gives every node the same "
                                   "count. Use %3 GPUs.")
                        .arg(spec.gpus)
                        .arg(g.nodes)
                        .arg(even),
                    Fix{QStringLiteral("gpus"), QString::number(even), QStringLiteral("set GPUs to %1").arg(even)});
    }
    if (!g.nodesDerived && spec.gpus > 0 && g.nodes > spec.gpus) {
        out << diag(Severity::Error, "nodes-without-gpus", "nodes",
                    QStringLiteral("%1 nodes for %2 GPUs leaves nodes without a GPU.").arg(g.nodes).arg(spec.gpus),
                    Fix{QStringLiteral("nodes"), QString(), QStringLiteral("derive nodes from GPUs"), true});
    } else if (!g.nodesDerived && cap > 0 && frameworkSpansNodes(spec.framework)) {
        const int derived = std::max(1, (spec.gpus + cap - 1) / cap);
        if (g.nodes > derived)
            out << diag(Severity::Warning, "nodes-spread", "nodes",
                        QStringLiteral("%1 GPUs fit on %2 node(s); spreading them over %3 adds network traffic between "
                                       "nodes for no gain.")
                            .arg(spec.gpus)
                            .arg(derived)
                            .arg(g.nodes),
                        Fix{QStringLiteral("nodes"), QString(), QStringLiteral("derive nodes from GPUs"), true});
    }
}

void checkLaunch(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g, Diagnostics &out)
{
    checkFrameworkSpan(spec, profile, g, out);
    checkLauncher(spec, g, out);
    checkNodeSpread(spec, g, out);
    if (profile.cpusPerGpuBroken && spec.cpusPerGpu > 0) {
        out << diag(Severity::Info, "site-cpus-per-gpu", SpecField::cpusPerGpu,
                    QStringLiteral("%1: --cpus-per-gpu breaks direct GPU-to-GPU communication here, so CPUs are "
                                   "requested with --cpus-per-task (%2 per task) instead.")
                        .arg(profile.name)
                        .arg(g.cpusPerTask));
    }
    if (spec.framework == Framework::Jax && g.totalProcesses() > 1) {
        out << diag(Severity::Info, "jax-initialize", "framework",
                    QStringLiteral("JAX: call jax.distributed.initialize() with no arguments before the first "
                                   "computation; it reads the coordinator, the count of %1 processes and each one's "
                                   "id from Slurm's task variables.")
                        .arg(g.totalProcesses()));
    }
    if (spec.gpus > 1 && spec.framework != Framework::DataParallel && spec.framework != Framework::TfMirrored) {
        out << diag(Severity::Info, "global-batch-grows", "gpus",
                    QStringLiteral("With %1 processes the global batch size is %1 x the per-GPU batch size; scale the "
                                   "learning rate or keep the global batch fixed when comparing runs.")
                        .arg(g.totalProcesses()));
    }
    const int threads = std::max(1, g.cpusPerTask / std::max(1, g.processesPerNode / g.tasksPerNode));
    out << diag(Severity::Info, "omp-threads", SpecField::cpusPerGpu,
                QStringLiteral("OMP_NUM_THREADS is set to %1 per process so data loading and BLAS threads do not "
                               "oversubscribe the %2 CPUs of each task.")
                    .arg(threads)
                    .arg(g.cpusPerTask));
}

void checkFields(const JobSpec &spec, const ClusterProfile &profile, Diagnostics &out)
{
    const QString account = spec.account.trimmed();
    if (account.isEmpty()) {
        if (profile.accountRequired)
            out << diag(Severity::Error, "account-missing", "account",
                        QStringLiteral("%1 needs a billing account (project)%2.")
                            .arg(profile.name, profile.accountExample.isEmpty()
                                                   ? QString()
                                                   : QStringLiteral(", e.g. %1").arg(profile.accountExample)));
    } else if (account.contains(QLatin1Char('<')) || account.contains(QLatin1Char('>'))) {
        out << diag(
            Severity::Error, "placeholder-value", "account",
            QStringLiteral("\"%1\" is a placeholder; put your project's account.").arg(InputLimits::quoted(account)));
    } else if (!profile.accountPattern.isEmpty() && !cachedRegex(profile.accountPattern).match(account).hasMatch()) {
        out << diag(Severity::Error, "account-malformed", "account",
                    QStringLiteral("\"%1\" does not look like a %2 account%3.")
                        .arg(InputLimits::quoted(account), profile.name,
                             profile.accountExample.isEmpty()
                                 ? QString()
                                 : QStringLiteral(" (e.g. %1)").arg(profile.accountExample)));
    }
    static const QRegularExpression programVar(
        QStringLiteral("^\\$(\\{[A-Za-z_][A-Za-z0-9_]*\\}|[A-Za-z_][A-Za-z0-9_]*)"));
    if (spec.program.trimmed().startsWith(QLatin1Char('$')) && !programVar.match(spec.program.trimmed()).hasMatch())
        out << diag(Severity::Error, "program-invalid", "program",
                    QStringLiteral("A program starting with '$' must start with a variable name ($DIR/train.py or "
                                   "${DIR}/train.py); other shell syntax is not run."));
    if (spec.program.trimmed().isEmpty())
        out << diag(Severity::Error, "program-missing", "program",
                    QStringLiteral("No program to run: give the training script's path on the cluster."));
    static const QRegularExpression varName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    for (const auto &[name, value] : spec.environment.variables) {
        if (!varName.match(name).hasMatch())
            out << diag(
                Severity::Error, "variable-name-invalid", "environment.variables",
                QStringLiteral("\"%1\" is not a valid environment variable name (letters, digits, _).").arg(name));
        if (value.contains(QLatin1Char('\n')))
            out << diag(Severity::Error, "variable-value-newline", "environment.variables",
                        QStringLiteral("The value of %1 contains a line break.").arg(name));
    }
    static const QRegularExpression moduleName(QStringLiteral("^[A-Za-z0-9_.+/@:-]+$"));
    for (const auto &m : spec.environment.modules)
        if (!moduleName.match(m).hasMatch())
            out << diag(Severity::Error, "module-name-invalid", "environment.modules",
                        QStringLiteral("\"%1\" is not a module name (no spaces or shell characters).").arg(m));
    out << SoftwareCatalog::check(spec, profile);
    if (spec.jobName.contains(QLatin1Char('\n')) || spec.jobName.size() > 200)
        out << diag(Severity::Error, "job-name-invalid", "jobName",
                    QStringLiteral("The job name must be one line of at most 200 characters."));
    for (const auto &a : spec.args)
        if (a.contains(QLatin1Char('\n')))
            out << diag(Severity::Error, "argument-newline", "args",
                        QStringLiteral("An argument contains a line break; split it into separate arguments."));
    if (spec.gpuSampleSeconds < 0)
        out << diag(Severity::Error, "sample-interval-invalid", "monitoring.gpuSampleSeconds",
                    QStringLiteral("The GPU sampling interval must be 0 (off) or a number of seconds."));
    out << MetricFileLocations::check(spec);
    if (!spec.profile.isEmpty() && spec.profile != profile.id)
        out << diag(
            Severity::Warning, "profile-mismatch", "profile",
            QStringLiteral("The spec names profile %1 but is checked against %2.").arg(spec.profile, profile.id));
}

}   // namespace

Diagnostics validateJob(const JobSpec &asked, const ClusterProfile &profile)
{
    Diagnostics out;
    // Absurd counts are reported once and bounded, so no rule overflows.
    JobSpec spec = asked;
    if (spec.gpus > 100000 || spec.nodes > 100000 || spec.cpusPerGpu > 10000) {
        out << diag(Severity::Error, "count-out-of-range",
                    spec.gpus > 100000    ? "gpus"
                    : spec.nodes > 100000 ? "nodes"
                                          : SpecField::cpusPerGpu,
                    QStringLiteral("GPU and node counts above 100000 (or 10000 CPUs per GPU) are not real requests."));
        spec.gpus = std::min(spec.gpus, 100000);
        spec.nodes = std::min(spec.nodes, 100000);
        spec.cpusPerGpu = std::min(spec.cpusPerGpu, 10000);
    }
    if (spec.gpus < 1) {
        out << diag(Severity::Error, "gpus-missing", "gpus", QStringLiteral("Request at least one GPU."),
                    Fix{QStringLiteral("gpus"), QStringLiteral("1"), QStringLiteral("set GPUs to 1")});
    }
    const LaunchGeometry g = computeGeometry(spec, profile);
    if (!g.partition) {
        const Partition *def = profile.defaultPartition();
        out << diag(Severity::Error, "unknown-partition", "partition",
                    QStringLiteral("%1 has no partition \"%2\".%3")
                        .arg(profile.name, InputLimits::quoted(spec.partition), suggestionText(def)),
                    partitionFix(def));
    } else if (spec.gpus >= 1) {
        checkPartition(spec, profile, g, out);
        checkLaunch(spec, profile, g, out);
    }
    checkFields(spec, profile, out);
    SegmentRules::check(spec, g.partition, out);
    return out;
}

Diagnostics notesConsistentWithErrors(const Diagnostics &diagnostics)
{
    if (!hasErrors(diagnostics))
        return diagnostics;
    Diagnostics out;
    for (const Diagnostic &d : diagnostics)
        if (d.severity != Severity::Info)
            out << d;
    return out;
}

}   // namespace scalelab
