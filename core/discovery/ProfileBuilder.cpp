// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/ProfileBuilder.h"

#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <tuple>

namespace scalelab {

namespace {

const QString kNotKnown = QStringLiteral("not known: Slurm does not say; default used, check with your site");

QString from(const DiscoveryInput &in, const QString &command)
{
    return QStringLiteral("%1 (on %2, %3)").arg(command, in.alias, in.date);
}

NodeType nodeTypeOf(const NodeFacts &n, qint64 maxMem, qint64 maxCpus)
{
    NodeType t;
    t.gpuType = n.gpuType().isEmpty() && n.gpus() > 0 ? QStringLiteral("gpu") : n.gpuType();
    t.gpus = n.gpus();
    t.cpus = maxCpus > 0 ? int(std::min<qint64>(n.cpus, maxCpus)) : n.cpus;
    t.memoryMB = maxMem > 0 ? std::min(n.usableMemoryMB(), maxMem) : n.usableMemoryMB();
    t.features = n.features;
    t.features.sort();
    t.count = 1;
    return t;
}

bool sameKind(const NodeType &a, const NodeType &b)
{
    return a.gpuType == b.gpuType && a.gpus == b.gpus && a.cpus == b.cpus && a.memoryMB == b.memoryMB
           && a.features == b.features;
}

QosLimits limitsOf(const QosFacts &q, const QString &source)
{
    QosLimits l;
    l.name = q.name;
    l.maxGpusPerJob = q.maxGpusPerJob().value_or(0);
    l.maxNodesPerJob = q.maxNodesPerJob().value_or(0);
    l.maxWallSeconds = q.maxWallSeconds.value_or(0);
    l.maxGpusPerUser = q.maxGpusPerUser().value_or(0);
    l.maxJobsPerUser = int(q.maxJobsPerUser.value_or(0));
    l.source = source;
    return l;
}

// The partition's own Slurm settings, each with the partition's command as
// its source; one Slurm did not print is marked not known, never guessed.
void copySettings(const PartitionFacts &pf, const QString &source, Partition &part)
{
    auto described = [&](const char *key, bool known) {
        const QString k = QString::fromLatin1(key);
        part.sources.insert(k, source);
        if (!known)
            part.unknown << k;
    };
    part.state = pf.state.trimmed().toUpper();
    described("state", !part.state.isEmpty());
    part.defaultTimeSeconds = pf.defaultTimeSeconds;
    described("defaultTime", pf.defaultTimeSeconds.has_value());
    part.allowAccounts = pf.allowAccounts;
    described("allowAccounts", true);
    part.allowQos = pf.allowQos;
    described("allowQos", true);
    part.defMemPerCpuMB = pf.defMemPerCpuMB.value_or(0);
    described("defMemPerCpuMB", true);
    part.defMemPerGpuMB = pf.defMemPerGpuMB.value_or(0);
    described("defMemPerGpuMB", true);
    part.defCpusPerGpu = int(pf.defCpuPerGpu.value_or(0));
    described("defCpusPerGpu", true);
    // MaxMemPerCPU printed instead of MaxMemPerNode: no per-node limit of its own.
    part.maxMemPerNodeMB = pf.maxMemPerNodeMB.value_or(0);
    described("maxMemPerNodeMB", pf.maxMemPerNodeMB || pf.maxMemPerCpuMB);
    part.tresBillingWeights = pf.billingWeights;
    if (!pf.billingWeights.isEmpty())
        described("tresBillingWeights", true);
}

}   // namespace

QString ProfileBuilder::idFrom(const QString &name)
{
    QString id;
    for (QChar c : name.toLower())
        id += (c.isLetterOrNumber() && c.unicode() < 128) || c == QLatin1Char('-') || c == QLatin1Char('_')
                  ? c
                  : QLatin1Char('-');
    while (id.startsWith(QLatin1Char('-')) || id.startsWith(QLatin1Char('_')))
        id.remove(0, 1);
    id.truncate(64);
    return id.isEmpty() ? QStringLiteral("discovered") : id;
}

std::optional<GpuVendor> ProfileBuilder::guessVendor(const QString &gresType)
{
    static const QRegularExpression amd(QStringLiteral("^(mi[0-9]|instinct|radeon|gcd)"),
                                        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression nvidia(
        QStringLiteral("^(tesla|[kpvagbhlt][0-9]|rtx|gtx|titan|quadro|gh[0-9]|gb[0-9]|nvidia|a[0-9]{2,3})"),
        QRegularExpression::CaseInsensitiveOption);
    if (amd.match(gresType).hasMatch())
        return GpuVendor::Amd;
    if (nvidia.match(gresType).hasMatch())
        return GpuVendor::Nvidia;
    return std::nullopt;
}

const ClusterProfile *ProfileBuilder::matchSite(const DiscoveryInput &in, const QList<ClusterProfile> &profiles)
{
    const QString cluster = idFrom(in.config.value(QStringLiteral("ClusterName")));
    for (const auto &p : profiles)
        if (p.discovered.isEmpty() && !cluster.isEmpty() && p.id == cluster)
            return &p;
    for (const auto &p : profiles)
        for (const auto &h : p.loginHosts)
            if (p.discovered.isEmpty() && !in.login.hostName.isEmpty() && h.hostName == in.login.hostName
                && h.port == in.login.port)
                return &p;
    return nullptr;
}

namespace {

// The profile's name, versions and login host: from the site's profile where one matches.
void describeCluster(const DiscoveryInput &in, const ClusterProfile *site, ClusterProfile &p)
{
    const QString clusterName = in.config.value(QStringLiteral("ClusterName"));
    p.id = ProfileBuilder::idFrom(clusterName.isEmpty() ? in.alias : clusterName);
    p.name = site ? site->name : QStringLiteral("%1 (discovered)").arg(clusterName.isEmpty() ? in.alias : clusterName);
    p.site = site ? site->site : kNotKnown;
    p.docsUrl = site ? site->docsUrl : QString();
    p.slurmVersion = in.config.version().isEmpty() ? in.versionText.section(QLatin1Char(' '), 1) : in.config.version();
    p.discovered = QStringLiteral("%1 %2").arg(in.alias, in.date);
    LoginHost login = in.login;
    if (login.alias.isEmpty())
        login.alias = in.alias;
    if (site && !site->loginHosts.isEmpty() && login.auth.isEmpty())
        login.auth = site->loginHosts.front().auth;
    p.loginHosts << login;
}

// The kinds of node in a partition, largest first: its numbers are what a job
// can get on one node of this partition; the others are listed, never averaged.
QList<NodeType> nodeKindsOf(const QList<const NodeFacts *> &nodes, const PartitionFacts &pf)
{
    QList<NodeType> kinds;
    for (const NodeFacts *n : nodes) {
        const NodeType t = nodeTypeOf(*n, pf.maxMemPerNodeMB.value_or(0), pf.maxCpusPerNode.value_or(0));
        auto it = std::find_if(kinds.begin(), kinds.end(), [&](const NodeType &k) { return sameKind(k, t); });
        if (it == kinds.end())
            kinds << t;
        else
            ++it->count;
    }
    std::stable_sort(kinds.begin(), kinds.end(), [](const NodeType &a, const NodeType &b) {
        return std::tie(a.gpus, a.cpus, a.memoryMB) > std::tie(b.gpus, b.cpus, b.memoryMB);
    });
    return kinds;
}

const QosFacts *qosOf(const DiscoveryInput &in, const PartitionFacts &pf)
{
    const QosFacts *qos = nullptr;
    for (const auto &q : in.qos)
        if (!pf.qos.isEmpty() && q.name == pf.qos)
            qos = &q;
    return qos;
}

// The sizes and limits of one GPU partition, each with its source.
Partition partitionOf(const DiscoveryInput &in, const PartitionFacts &pf, const QList<NodeType> &kinds, int nodeCount,
                      const QosFacts *qos)
{
    const NodeType &top = kinds.front();
    Partition part;
    part.name = pf.name;
    part.isDefault = pf.isDefault;
    part.gpuType = top.gpuType;
    part.gpusPerNode = top.gpus;
    part.cpusPerNode = top.cpus;
    part.memoryPerNodeMB = top.memoryMB;
    part.minNodes = int(std::max<qint64>(1, pf.minNodes.value_or(1)));
    part.maxNodes = pf.maxNodes && *pf.maxNodes > 0 ? int(*pf.maxNodes) : std::max(1, nodeCount);
    part.maxTimeSeconds = pf.maxTimeSeconds.value_or(0);
    part.exclusive = pf.exclusive;
    part.qos = pf.qos;
    if (kinds.size() > 1)
        part.nodeTypes = kinds;
    const QString partSource = from(in, QStringLiteral("scontrol show partition %1").arg(pf.name));
    part.sources.insert(QStringLiteral("partition"), partSource);
    copySettings(pf, partSource, part);
    const QString nodeSource = from(in, QStringLiteral("scontrol show node"));
    for (const char *k : {"gpusPerNode", "cpusPerNode", "memoryPerNodeMB"})
        part.sources.insert(QString::fromLatin1(k), nodeSource);
    if (!pf.maxNodes || *pf.maxNodes == 0)
        part.sources.insert(QStringLiteral("maxNodes"),
                            partSource + QStringLiteral(": MaxNodes=UNLIMITED, so the partition's node count"));
    if (!pf.maxTimeSeconds)
        part.unknown << QStringLiteral("maxTime");
    if (qos && qos->maxGpusPerJob()) {
        part.maxGpusPerJob = *qos->maxGpusPerJob();
        part.sources.insert(QStringLiteral("maxGpusPerJob"),
                            from(in, QStringLiteral("sacctmgr show qos")) + QStringLiteral(": QOS ") + qos->name);
    }
    return part;
}

// What the site's profile says of a partition that Slurm cannot: its description, its smallest job.
void adoptSitePartition(const Partition *known, const QList<NodeType> &kinds, int nodeCount, Partition &part)
{
    const NodeType &top = kinds.front();
    part.description =
        known
            ? known->description
            : QStringLiteral("%1 node(s), %2 GPU(s) %3 each%4.")
                  .arg(nodeCount)
                  .arg(top.gpus)
                  .arg(top.gpuType)
                  .arg(kinds.size() > 1 ? QStringLiteral(" (largest of %1 node kinds)").arg(kinds.size()) : QString());
    if (known && known->minGpusPerJob > 0) {
        part.minGpusPerJob = known->minGpusPerJob;   // site advice, not a Slurm limit
        part.sources.insert(QStringLiteral("minGpusPerJob"), known->sources.value(QStringLiteral("minGpusPerJob")));
    }
}

// A GPU type not seen before: the site's description of it, or a vendor guessed from its name.
GpuType gpuTypeOf(const DiscoveryInput &in, const NodeType &k, const ClusterProfile *site, Diagnostics &diagnostics)
{
    GpuType g;
    g.id = k.gpuType;
    if (const GpuType *s = site ? site->gpuType(k.gpuType) : nullptr)
        return *s;
    const auto vendor = ProfileBuilder::guessVendor(k.gpuType);
    g.vendor = vendor.value_or(GpuVendor::Nvidia);
    g.monitor = g.vendor == GpuVendor::Amd ? GpuMonitor::RocmSmi : GpuMonitor::NvidiaSmi;
    g.model = vendor ? QStringLiteral("%1 (vendor guessed from the GRES type name)").arg(k.gpuType)
                     : QStringLiteral("%1 (vendor not known)").arg(k.gpuType);
    g.source = from(in, QStringLiteral("scontrol show node"))
               + (vendor ? QStringLiteral("; vendor is a guess from the name") : QStringLiteral("; vendor not known"));
    diagnostics << finding(
        Severity::Info, QStringLiteral("discovery-gpu-vendor-guess"), k.gpuType, 0,
        vendor ? QStringLiteral("GPU type %1: vendor %2 is a guess from the name.")
                     .arg(k.gpuType, *vendor == GpuVendor::Amd ? QStringLiteral("AMD") : QStringLiteral("NVIDIA"))
               : QStringLiteral("GPU type %1: vendor not known; set it in the profile.").arg(k.gpuType));
    return g;
}

// The GPU partitions, their GPU types and QOS; partitions without GPUs are only named.
void addPartitions(const DiscoveryInput &in, const ClusterProfile *site, BuiltProfile &out,
                   QMap<QString, GpuType> &gpuTypes, QStringList &cpuOnly)
{
    ClusterProfile &p = out.profile;
    QMap<QString, QList<const NodeFacts *>> nodesOf;
    for (const auto &n : in.nodes)
        for (const auto &part : n.partitions)
            nodesOf[part] << &n;
    for (const PartitionFacts &pf : in.partitions) {
        const auto nodes = nodesOf.value(pf.name);
        const QList<NodeType> kinds = nodeKindsOf(nodes, pf);
        if (std::none_of(kinds.begin(), kinds.end(), [](const NodeType &k) { return k.gpus > 0; })) {
            cpuOnly << pf.name;
            continue;
        }
        const QosFacts *qos = qosOf(in, pf);
        Partition part = partitionOf(in, pf, kinds, int(nodes.size()), qos);
        adoptSitePartition(site ? site->partition(pf.name) : nullptr, kinds, int(nodes.size()), part);
        if (kinds.size() > 1)
            out.diagnostics << finding(Severity::Info, QStringLiteral("discovery-heterogeneous"), pf.name, 0,
                                       QStringLiteral("Partition %1 has %2 kinds of node; each is listed in nodeTypes "
                                                      "and the partition's numbers are those of the largest.")
                                           .arg(pf.name)
                                           .arg(kinds.size()));
        for (const NodeType &k : kinds)
            if (k.gpus > 0 && !gpuTypes.contains(k.gpuType)) {
                const GpuType g = gpuTypeOf(in, k, site, out.diagnostics);
                gpuTypes.insert(g.id, g);
            }
        p.partitions << part;
        if (qos && !p.qosNamed(qos->name))
            p.qos << limitsOf(*qos, from(in, QStringLiteral("sacctmgr show qos")));
    }
}

// The QOS a job gets through the researcher's association limits it like
// a partition's QOS: carry each association and its QOS's limits.
void addAssociations(const DiscoveryInput &in, ClusterProfile &p)
{
    const QString assocSource = from(in, QStringLiteral("sacctmgr show assoc"));
    const QString qosSource = from(in, QStringLiteral("sacctmgr show qos"));
    QHash<QString, const QosFacts *> qosByName;
    for (const auto &q : in.qos)
        qosByName.insert(q.name, &q);
    QSet<QString> carried;
    for (const auto &q : p.qos)
        carried.insert(q.name);
    QSet<QString> seen;
    for (const AssociationFacts &a : in.associations) {
        const UserAssociation u{a.account, a.partition, a.defaultQos, a.qos, assocSource};
        const QString key =
            QStringList{u.account, u.partition, u.defaultQos, u.qos.join(QLatin1Char(','))}.join(QChar(0x1f));
        if (seen.contains(key))
            continue;
        seen.insert(key);
        p.associations << u;
        const QString name = u.effectiveQos();
        const QosFacts *q = qosByName.value(name);
        if (!q || carried.contains(name))
            continue;
        // A QOS that sets none of these limits constrains nothing: not listed.
        const QosLimits l = limitsOf(*q, qosSource);
        if (l.maxGpusPerJob > 0 || l.maxNodesPerJob > 0 || l.maxWallSeconds > 0 || l.maxGpusPerUser > 0
            || l.maxJobsPerUser > 0) {
            p.qos << l;
            carried.insert(name);
        }
    }
}

// The site's advice (modules, runtime, account rules, notes) copied from its profile.
void adoptSiteAdvice(const ClusterProfile &site, ClusterProfile &p)
{
    p.description = site.description;
    p.accountRequired = site.accountRequired;
    p.accountPattern = site.accountPattern;
    p.accountExample = site.accountExample;
    p.gpuRequest = site.gpuRequest;
    p.memoryRequired = site.memoryRequired;
    p.cpusPerGpuBroken = site.cpusPerGpuBroken;
    p.containerRuntime = site.containerRuntime;
    p.defaultModules = site.defaultModules;
    p.torchrunArgs = site.torchrunArgs;
    p.cpuBind = site.cpuBind;
    p.defaultVariables = site.defaultVariables;
    p.notes = site.notes;
    p.sources = site.sources;
    // Site advice the loader keeps no source for: it comes from that profile.
    for (const char *k : {"gpuRequest", "memoryRequired", "cpusPerGpuBroken", "containerRuntime", "defaultModules",
                          "defaultVariables", "torchrunArgs", "cpuBind", "account"})
        if (p.sources.value(QString::fromLatin1(k)).isEmpty())
            p.sources.insert(QString::fromLatin1(k),
                             QStringLiteral("site advice from the %1 profile (%2)")
                                 .arg(site.id, site.origin.isEmpty() ? QStringLiteral("shipped") : site.origin));
}

// No site profile: defaults, each marked not known; how GPUs are requested from the GRES types.
void describeWithoutSite(const DiscoveryInput &in, const QMap<QString, GpuType> &gpuTypes, ClusterProfile &p)
{
    // Typed GRES when every GPU node has a type.
    const bool typed =
        std::all_of(gpuTypes.begin(), gpuTypes.end(), [](const GpuType &g) { return g.id != QLatin1String("gpu"); });
    p.description = QStringLiteral("Discovered from Slurm on %1 (%2). Site advice (modules, container runtime, "
                                   "pitfalls) is not known.")
                        .arg(in.alias, in.date);
    p.gpuRequest = typed ? GpuRequestStyle::GresTyped : GpuRequestStyle::Gres;
    p.sources.insert(QStringLiteral("gpuRequest"),
                     from(in, QStringLiteral("scontrol show node")) + QStringLiteral(": GRES types"));
    p.containerRuntime = QStringLiteral("apptainer");
    for (const char *k :
         {"memoryRequired", "cpusPerGpuBroken", "containerRuntime", "defaultModules", "defaultVariables", "cpuBind"})
        p.sources.insert(QString::fromLatin1(k), kNotKnown);
    QStringList accounts;
    for (const auto &a : in.associations)
        if (!accounts.contains(a.account))
            accounts << a.account;
    p.accountExample = accounts.value(0);
    p.sources.insert(QStringLiteral("account"),
                     from(in, QStringLiteral("sacctmgr show assoc")) + QStringLiteral(": accounts ")
                         + (accounts.isEmpty() ? QStringLiteral("none") : accounts.join(QStringLiteral(", "))));
}

// The modules and container images the cluster has, each list with its command and date.
void addSoftware(const DiscoveryInput &in, const ClusterProfile *site, ClusterProfile &p)
{
    if (site) {
        p.containerDirs = site->containerDirs;
        if (site->sources.contains(QStringLiteral("containerDirs")))
            p.sources.insert(QStringLiteral("containerDirs"), site->sources.value(QStringLiteral("containerDirs")));
    }
    if (in.modules) {
        p.availableModules = *in.modules;
        p.sources.insert(QStringLiteral("availableModules"), from(in, in.modulesCommand));
    } else {
        p.sources.remove(QStringLiteral("availableModules"));
    }
    if (in.containerImages) {
        p.containerImages = *in.containerImages;
        p.sources.insert(QStringLiteral("containerImages"),
                         from(in, QStringLiteral("ls of %1").arg(p.containerDirs.join(QStringLiteral(", ")))));
    } else {
        p.sources.remove(QStringLiteral("containerImages"));
    }
}

// Config facts that change how jobs must be written, as one note (replacing the site's).
void noteSlurmConfig(const DiscoveryInput &in, ClusterProfile &p)
{
    const QString configSource = from(in, QStringLiteral("scontrol show config"));
    QStringList facts;
    for (const char *k : {"SelectType", "SelectTypeParameters", "GresTypes", "MaxArraySize", "DefMemPerCPU",
                          "DefMemPerNode", "EnforcePartLimits"})
        if (const QString v = in.config.value(QString::fromLatin1(k)); !v.isEmpty())
            facts << QStringLiteral("%1=%2").arg(QString::fromLatin1(k), v);
    facts << (in.config.accountingCountsGpus()
                  ? QStringLiteral("accounting counts gres/gpu")
                  : QStringLiteral("accounting does NOT count gres/gpu (sacct shows no GPUs)"));
    p.notes.erase(std::remove_if(p.notes.begin(), p.notes.end(),
                                 [](const ProfileNote &n) { return n.rule == QLatin1String("site-slurm-config"); }),
                  p.notes.end());
    p.notes << ProfileNote{QStringLiteral("site-slurm-config"), facts.join(QStringLiteral("; ")), configSource};
}

}   // namespace

BuiltProfile ProfileBuilder::build(const DiscoveryInput &in, const ClusterProfile *site)
{
    BuiltProfile out;
    ClusterProfile &p = out.profile;
    describeCluster(in, site, p);
    QMap<QString, GpuType> gpuTypes;
    QStringList cpuOnly;
    addPartitions(in, site, out, gpuTypes, cpuOnly);
    addAssociations(in, p);
    p.gpuTypes = gpuTypes.values();
    if (p.partitions.isEmpty())
        out.diagnostics << finding(Severity::Error, QStringLiteral("discovery-no-gpu-partition"), {}, 0,
                                   QStringLiteral("No partition of %1 has nodes with GPU GRES; ScaleLab profiles "
                                                  "describe GPU partitions.")
                                       .arg(in.alias));
    else if (std::none_of(p.partitions.begin(), p.partitions.end(), [](const Partition &x) { return x.isDefault; }))
        p.partitions.front().isDefault = true;   // the Slurm default has no GPUs: the first GPU partition
    if (!cpuOnly.isEmpty())
        out.diagnostics << finding(Severity::Info, QStringLiteral("discovery-cpu-partitions"), {}, 0,
                                   QStringLiteral("Left out (no GPUs): %1.").arg(cpuOnly.join(QStringLiteral(", "))));
    if (site)
        adoptSiteAdvice(*site, p);
    else
        describeWithoutSite(in, gpuTypes, p);
    noteSlurmConfig(in, p);
    addSoftware(in, site, p);
    return out;
}

}   // namespace scalelab
