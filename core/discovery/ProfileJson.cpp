// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/ProfileJson.h"

#include "core/slurm/SlurmTime.h"

#include <nlohmann/json.hpp>

namespace scalelab {

namespace {

using Json = nlohmann::ordered_json;

std::string s(const QString &q)
{
    return q.toStdString();
}

Json setting(Json value, const QString &source)
{
    return Json{{"value", std::move(value)}, {"source", s(source)}};
}

Json stringList(const QStringList &l)
{
    Json a = Json::array();
    for (const auto &x : l)
        a.push_back(s(x));
    return a;
}

Json partitionJson(const Partition &p)
{
    Json j;
    j["name"] = s(p.name);
    j["description"] = s(p.description);
    j["default"] = p.isDefault;
    j["gpuType"] = s(p.gpuType);
    j["source"] = s(p.sources.value(QStringLiteral("partition")));
    auto limit = [&](const char *key, Json value) {
        const QString k = QString::fromLatin1(key);
        if (!p.isKnown(k))
            value = nullptr;
        j[key] = setting(std::move(value), p.sources.value(k, p.sources.value(QStringLiteral("partition"))));
    };
    limit("gpusPerNode", p.gpusPerNode);
    limit("cpusPerNode", p.cpusPerNode);
    limit("memoryPerNodeMB", p.memoryPerNodeMB);
    limit("minNodes", p.minNodes);
    limit("maxNodes", p.maxNodes);
    limit("maxTime", p.maxTimeSeconds > 0 ? s(SlurmTime::format(p.maxTimeSeconds)) : std::string("UNLIMITED"));
    limit("maxGpusPerJob", p.maxGpusPerJob);
    limit("minGpusPerJob", p.minGpusPerJob);
    limit("exclusive", p.exclusive);
    // Slurm's own settings: written when the partition describes them (has
    // a source for them), as null when it says they are not known.
    auto described = [&](const char *key, bool has, Json value) {
        const QString k = QString::fromLatin1(key);
        if (!p.isKnown(k))
            value = nullptr;
        else if (!has || !p.sources.contains(k))
            return;
        j[key] = setting(std::move(value), p.sources.value(k, p.sources.value(QStringLiteral("partition"))));
    };
    auto allOr = [](const QStringList &l) { return l.isEmpty() ? Json("ALL") : stringList(l); };
    described("state", !p.state.isEmpty(), s(p.state));
    described("defaultTime", p.defaultTimeSeconds.has_value(),
              p.defaultTimeSeconds.value_or(0) > 0 ? s(SlurmTime::format(*p.defaultTimeSeconds)) : std::string("NONE"));
    described("allowAccounts", true, allOr(p.allowAccounts));
    described("allowQos", true, allOr(p.allowQos));
    described("requeue", p.requeue.has_value(), p.requeue.value_or(true));
    described("defMemPerCpuMB", true, p.defMemPerCpuMB);
    described("defMemPerGpuMB", true, p.defMemPerGpuMB);
    described("maxMemPerNodeMB", true, p.maxMemPerNodeMB);
    described("defCpusPerGpu", true, p.defCpusPerGpu);
    described("tresBillingWeights", !p.tresBillingWeights.isEmpty(), s(p.tresBillingWeights));
    if (!p.qos.isEmpty())
        j["qos"] = s(p.qos);
    if (!p.nodeTypes.isEmpty()) {
        Json types = Json::array();
        for (const auto &t : p.nodeTypes)
            types.push_back(Json{{"gpuType", s(t.gpuType)},
                                 {"gpus", t.gpus},
                                 {"cpus", t.cpus},
                                 {"memoryMB", t.memoryMB},
                                 {"features", stringList(t.features)},
                                 {"count", t.count}});
        j["nodeTypes"] = types;
    }
    return j;
}

}   // namespace

namespace {

Json loginHostsJson(const QList<LoginHost> &loginHosts)
{
    Json hosts = Json::array();
    for (const auto &h : loginHosts)
        hosts.push_back(Json{{"alias", s(h.alias)},
                             {"hostName", s(h.hostName)},
                             {"port", h.port},
                             {"user", s(h.user)},
                             {"proxyJump", s(h.proxyJump)},
                             {"auth", s(h.auth)}});
    return hosts;
}

Json gpuTypesJson(const QList<GpuType> &gpuTypes)
{
    Json gpus = Json::array();
    for (const auto &g : gpuTypes)
        gpus.push_back(Json{{"id", s(g.id)},
                            {"model", s(g.model)},
                            {"vendor", g.vendor == GpuVendor::Amd ? "amd" : "nvidia"},
                            {"memoryGB", g.memoryGB},
                            {"monitor", g.monitor == GpuMonitor::RocmSmi ? "rocm-smi" : "nvidia-smi"},
                            {"source", s(g.source)}});
    return gpus;
}

// Each QOS with the limits it sets (a limit of 0 is not set).
Json qosJson(const QList<QosLimits> &limits)
{
    Json qos = Json::array();
    for (const auto &q : limits) {
        Json o{{"name", s(q.name)}};
        if (q.maxGpusPerJob > 0)
            o["maxGpusPerJob"] = q.maxGpusPerJob;
        if (q.maxNodesPerJob > 0)
            o["maxNodesPerJob"] = q.maxNodesPerJob;
        if (q.maxWallSeconds > 0)
            o["maxWall"] = s(SlurmTime::format(q.maxWallSeconds));
        if (q.maxGpusPerUser > 0)
            o["maxGpusPerUser"] = q.maxGpusPerUser;
        if (q.maxJobsPerUser > 0)
            o["maxJobsPerUser"] = q.maxJobsPerUser;
        o["source"] = s(q.source);
        qos.push_back(o);
    }
    return qos;
}

Json associationsJson(const QList<UserAssociation> &associations)
{
    Json assoc = Json::array();
    for (const auto &a : associations)
        assoc.push_back(Json{{"account", s(a.account)},
                             {"partition", s(a.partition)},
                             {"defaultQos", s(a.defaultQos)},
                             {"qos", stringList(a.qos)},
                             {"source", s(a.source)}});
    return assoc;
}

}   // namespace

QByteArray ProfileJson::write(const ClusterProfile &p)
{
    Json j;
    j["id"] = s(p.id);
    j["name"] = s(p.name);
    j["site"] = s(p.site);
    j["description"] = s(p.description);
    j["docsUrl"] = s(p.docsUrl);
    if (!p.slurmVersion.isEmpty())
        j["slurmVersion"] = s(p.slurmVersion);
    if (!p.discovered.isEmpty())
        j["discovered"] = s(p.discovered);
    if (p.isTemplate)
        j["template"] = true;
    j["loginHosts"] = loginHostsJson(p.loginHosts);
    j["account"] = Json{{"required", p.accountRequired},
                        {"pattern", s(p.accountPattern)},
                        {"example", s(p.accountExample)},
                        {"source", s(p.sources.value(QStringLiteral("account")))}};
    auto src = [&](const char *key) { return p.sources.value(QString::fromLatin1(key)); };
    j["gpuRequest"] = setting(s(gpuRequestStyleId(p.gpuRequest)), src("gpuRequest"));
    j["memoryRequired"] = setting(p.memoryRequired, src("memoryRequired"));
    j["cpusPerGpuBroken"] = setting(p.cpusPerGpuBroken, src("cpusPerGpuBroken"));
    j["containerRuntime"] = setting(s(p.containerRuntime), src("containerRuntime"));
    j["defaultModules"] = setting(stringList(p.defaultModules), src("defaultModules"));
    if (!p.containerDirs.isEmpty())
        j["containerDirs"] = setting(stringList(p.containerDirs), src("containerDirs"));
    if (p.availableModules)
        j["availableModules"] = setting(stringList(*p.availableModules), src("availableModules"));
    if (p.containerImages)
        j["containerImages"] = setting(stringList(*p.containerImages), src("containerImages"));
    Json vars = Json::object();
    for (const auto &[k, v] : p.defaultVariables)
        vars[s(k)] = s(v);
    j["defaultVariables"] = setting(vars, src("defaultVariables"));
    if (!p.torchrunArgs.isEmpty())
        j["torchrunArgs"] = setting(stringList(p.torchrunArgs), src("torchrunArgs"));
    j["cpuBind"] = setting(s(p.cpuBind), src("cpuBind"));
    if (p.remoteProjectFolder != ClusterProfile{}.remoteProjectFolder)
        j["remoteProjectFolder"] = setting(s(p.remoteProjectFolder), src("remoteProjectFolder"));
    if (p.sitePlugins)
        j["sitePlugins"] = setting(stringList(*p.sitePlugins), src("sitePlugins"));
    j["gpuTypes"] = gpuTypesJson(p.gpuTypes);
    if (!p.qos.isEmpty())
        j["qos"] = qosJson(p.qos);
    if (!p.associations.isEmpty())
        j["associations"] = associationsJson(p.associations);
    Json parts = Json::array();
    for (const auto &part : p.partitions)
        parts.push_back(partitionJson(part));
    j["partitions"] = parts;
    Json notes = Json::array();
    for (const auto &n : p.notes)
        notes.push_back(Json{{"rule", s(n.rule)}, {"text", s(n.text)}, {"source", s(n.source)}});
    j["notes"] = notes;
    // error_handler replace: a lone surrogate can never make dump() throw.
    return QByteArray::fromStdString(j.dump(2, ' ', false, Json::error_handler_t::replace)) + '\n';
}

}   // namespace scalelab
