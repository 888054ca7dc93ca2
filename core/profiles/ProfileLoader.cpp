// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/ProfileLoader.h"

#include "core/profiles/ProfileReader.h"

#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"
#include "core/slurm/SlurmTime.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <optional>

namespace scalelab {

using namespace profileread;

namespace {

QString idFromFileName(const QString &filePath)
{
    return filePath.isEmpty() ? QString() : QFileInfo(filePath).completeBaseName();
}

// Every key the file may have: anything else is an error (a misspelt key would be ignored silently).
void checkKnownKeys(ProfileReader &r, const Json &j)
{
    static const QStringList known = {QStringLiteral("id"),
                                      QStringLiteral("name"),
                                      QStringLiteral("site"),
                                      QStringLiteral("description"),
                                      QStringLiteral("docsUrl"),
                                      QStringLiteral("slurmVersion"),
                                      QStringLiteral("loginHosts"),
                                      QStringLiteral("account"),
                                      QStringLiteral("gpuRequest"),
                                      QStringLiteral("memoryRequired"),
                                      QStringLiteral("cpusPerGpuBroken"),
                                      QStringLiteral("containerRuntime"),
                                      QStringLiteral("defaultModules"),
                                      QStringLiteral("containerDirs"),
                                      QStringLiteral("availableModules"),
                                      QStringLiteral("containerImages"),
                                      QStringLiteral("defaultVariables"),
                                      QStringLiteral("gpuTypes"),
                                      QStringLiteral("partitions"),
                                      QStringLiteral("notes"),
                                      QStringLiteral("qos"),
                                      QStringLiteral("associations"),
                                      QStringLiteral("discovered"),
                                      QStringLiteral("template"),
                                      QStringLiteral("sitePlugins"),
                                      QStringLiteral("remoteProjectFolder"),
                                      QStringLiteral("torchrunArgs"),
                                      QStringLiteral("cpuBind"),
                                      QStringLiteral("$schema"),
                                      QStringLiteral("comment")};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.contains(QString::fromStdString(it.key())))
            r.error(QString::fromStdString(it.key()), QStringLiteral("unknown key"));
}

// id, name and the describing strings; a valid id is what the file claims to be.
void readIdentity(ProfileReader &r, const Json &j, ClusterProfile &p, QString *claimedId)
{
    p.id = r.plainString(j, "id", QStringLiteral("id"), true);
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9][a-z0-9_-]*$"));
    if (!p.id.isEmpty() && !idRe.match(p.id).hasMatch())
        r.error(QStringLiteral("id"),
                QStringLiteral("\"%1\" must be lower-case letters, digits, - or _").arg(InputLimits::quoted(p.id)));
    else if (!p.id.isEmpty())
        *claimedId = p.id;
    p.name = r.plainString(j, "name", QStringLiteral("name"), true);
    p.site = r.plainString(j, "site", QStringLiteral("site"), false);
    p.description = r.plainString(j, "description", QStringLiteral("description"), false);
    p.docsUrl = r.plainString(j, "docsUrl", QStringLiteral("docsUrl"), false);
    p.slurmVersion = r.plainString(j, "slurmVersion", QStringLiteral("slurmVersion"), false);
}

// loginHosts: one SSH destination each.
void readLoginHosts(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("loginHosts"); it != j.end()) {
        if (!it->is_array())
            r.error(QStringLiteral("loginHosts"), QStringLiteral("must be an array"));
        else
            for (std::size_t i = 0; i < it->size(); ++i) {
                const Json &h = (*it)[i];
                const QString path = QStringLiteral("loginHosts[%1]").arg(i);
                if (!h.is_object()) {
                    r.error(path, QStringLiteral("must be an object"));
                    continue;
                }
                LoginHost lh;
                lh.alias = r.plainString(h, "alias", path + QStringLiteral(".alias"), true);
                lh.hostName = r.plainString(h, "hostName", path + QStringLiteral(".hostName"), true);
                lh.user = r.plainString(h, "user", path + QStringLiteral(".user"), false);
                lh.proxyJump = r.plainString(h, "proxyJump", path + QStringLiteral(".proxyJump"), false);
                lh.auth = r.plainString(h, "auth", path + QStringLiteral(".auth"), false);
                qint64 port = 22;
                if (auto pt = h.find("port"); pt != h.end())
                    r.readInt(&*pt, path + QStringLiteral(".port"), &port, 1, 65535);
                lh.port = int(port);
                for (const QString &v : {lh.alias, lh.hostName, lh.user, lh.proxyJump})
                    if (v.startsWith(QLatin1Char('-')))
                        r.error(path, QStringLiteral("\"%1\" must not start with '-'").arg(InputLimits::quoted(v)));
                p.loginHosts << lh;
            }
    }
}

// account: whether one is required, its pattern and an example.
void readAccount(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("account"); it != j.end()) {
        if (!it->is_object()) {
            r.error(QStringLiteral("account"),
                    QStringLiteral("must be an object {required, pattern, example, source}"));
        } else {
            p.accountRequired = it->value("required", false) == true;
            p.accountPattern = r.plainString(*it, "pattern", QStringLiteral("account.pattern"), false);
            p.accountExample = r.plainString(*it, "example", QStringLiteral("account.example"), false);
            const QString src = r.plainString(*it, "source", QStringLiteral("account.source"), true);
            p.sources.insert(QStringLiteral("account"), src);
            if (!p.accountPattern.isEmpty() && !QRegularExpression(p.accountPattern).isValid())
                r.error(QStringLiteral("account.pattern"), QStringLiteral("is not a valid regular expression"));
        }
    }
}

// The settings that may come from the file or be left to defaults: GPU request style, memory,
// cpus-per-gpu, container runtime.
void readRequestSettings(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    QString used;
    if (const Json *v = r.setting(j, "gpuRequest", QStringLiteral("gpuRequest"), {}, &used)) {
        QString s;
        if (r.readString(v, QStringLiteral("gpuRequest"), &s)) {
            if (auto style = gpuRequestStyleFromId(s))
                p.gpuRequest = *style;
            else
                r.error(QStringLiteral("gpuRequest"),
                        QStringLiteral("\"%1\" is not one of gres-typed, gres, gpus-per-node, gpus-per-task")
                            .arg(InputLimits::quoted(s)));
            p.sources.insert(QStringLiteral("gpuRequest"), used);
        }
    }
    if (const Json *v = r.setting(j, "memoryRequired", QStringLiteral("memoryRequired"), {}, &used))
        if (r.readBool(v, QStringLiteral("memoryRequired"), &p.memoryRequired))
            p.sources.insert(QStringLiteral("memoryRequired"), used);
    if (const Json *v = r.setting(j, "cpusPerGpuBroken", QStringLiteral("cpusPerGpuBroken"), {}, &used))
        if (r.readBool(v, QStringLiteral("cpusPerGpuBroken"), &p.cpusPerGpuBroken))
            p.sources.insert(QStringLiteral("cpusPerGpuBroken"), used);
    if (const Json *v = r.setting(j, "containerRuntime", QStringLiteral("containerRuntime"), {}, &used)) {
        if (r.readString(v, QStringLiteral("containerRuntime"), &p.containerRuntime)
            && p.containerRuntime != QLatin1String("singularity") && p.containerRuntime != QLatin1String("apptainer"))
            r.error(QStringLiteral("containerRuntime"), QStringLiteral("must be \"singularity\" or \"apptainer\""));
    }
}

// A list of plain strings, or an error naming the key; nullopt when absent or wrong.
std::optional<QStringList> readStringList(ProfileReader &r, const Json &j, const char *key, const QString &what,
                                          QMap<QString, QString> &sources)
{
    QString used;
    const Json *v = r.setting(j, key, QString::fromLatin1(key), {}, &used);
    if (!v)
        return std::nullopt;
    if (!v->is_array() || !std::all_of(v->begin(), v->end(), [](const Json &e) { return e.is_string(); })) {
        r.error(QString::fromLatin1(key), QStringLiteral("must be an array of %1").arg(what));
        return std::nullopt;
    }
    QStringList out;
    for (const auto &e : *v)
        out << JsonSupport::str(e);
    if (!used.isEmpty())
        sources.insert(QString::fromLatin1(key), used);
    return out;
}

// The cluster's software: container folders, and the modules and images discovered there.
void readSoftware(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    p.containerDirs = readStringList(r, j, "containerDirs", QStringLiteral("folders on the cluster"), p.sources)
                          .value_or(QStringList());
    p.availableModules =
        readStringList(r, j, "availableModules", QStringLiteral("module names (name/version)"), p.sources);
    p.containerImages = readStringList(r, j, "containerImages", QStringLiteral("image paths"), p.sources);
    for (std::optional<QStringList> *l : {&p.availableModules, &p.containerImages})
        if (*l) {
            std::sort((*l)->begin(), (*l)->end());
            (*l)->erase(std::unique((*l)->begin(), (*l)->end()), (*l)->end());
        }
}

// The settings that fill the script: modules, CPU binding, torchrun arguments, variables.
void readScriptSettings(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    QString used;
    if (const Json *v = r.setting(j, "defaultModules", QStringLiteral("defaultModules"), {}, &used)) {
        if (!v->is_array())
            r.error(QStringLiteral("defaultModules"), QStringLiteral("must be an array of module names"));
        else
            for (const auto &m : *v)
                if (m.is_string())
                    p.defaultModules << JsonSupport::str(m);
    }
    readSoftware(r, j, p);
    if (auto it = j.find("template"); it != j.end())
        r.readBool(&*it, QStringLiteral("template"), &p.isTemplate);
    if (const Json *v = r.setting(j, "sitePlugins", QStringLiteral("sitePlugins"), {}, &used)) {
        if (!v->is_array()) {
            r.error(QStringLiteral("sitePlugins"), QStringLiteral("must be an array of plugin names (shifter, pyxis)"));
        } else {
            p.sitePlugins = QStringList();
            for (const auto &m : *v)
                if (m.is_string())
                    *p.sitePlugins << JsonSupport::str(m);
            p.sources.insert(QStringLiteral("sitePlugins"), used);
        }
    }
    if (const Json *v = r.setting(j, "cpuBind", QStringLiteral("cpuBind"), {}, &used))
        r.readString(v, QStringLiteral("cpuBind"), &p.cpuBind);
    if (const Json *v = r.setting(j, "remoteProjectFolder", QStringLiteral("remoteProjectFolder"), {}, &used))
        r.readString(v, QStringLiteral("remoteProjectFolder"), &p.remoteProjectFolder);
    if (const Json *v = r.setting(j, "torchrunArgs", QStringLiteral("torchrunArgs"), {}, &used)) {
        if (!v->is_array())
            r.error(QStringLiteral("torchrunArgs"), QStringLiteral("must be an array of strings"));
        else
            for (const auto &m : *v)
                if (m.is_string())
                    p.torchrunArgs << JsonSupport::str(m);
    }
    if (const Json *v = r.setting(j, "defaultVariables", QStringLiteral("defaultVariables"), {}, &used)) {
        if (!v->is_object())
            r.error(QStringLiteral("defaultVariables"), QStringLiteral("must be an object NAME -> value"));
        else
            for (auto it = v->begin(); it != v->end(); ++it)
                p.defaultVariables << qMakePair(QString::fromStdString(it.key()),
                                                it->is_string() ? JsonSupport::str(*it)
                                                                : QString::fromStdString(it->dump()));
    }
}

// gpuTypes (required): vendor, monitor and memory of each GPU type.
void readGpuTypes(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("gpuTypes"); it == j.end() || !it->is_array() || it->empty()) {
        r.error(QStringLiteral("gpuTypes"), QStringLiteral("is required: a non-empty array of GPU types"));
    } else {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json &g = (*it)[i];
            const QString path = QStringLiteral("gpuTypes[%1]").arg(i);
            if (!g.is_object()) {
                r.error(path, QStringLiteral("must be an object"));
                continue;
            }
            GpuType t;
            t.id = r.plainString(g, "id", path + QStringLiteral(".id"), true);
            t.model = r.plainString(g, "model", path + QStringLiteral(".model"), false);
            t.source = r.plainString(g, "source", path + QStringLiteral(".source"), true);
            const QString vendor = r.plainString(g, "vendor", path + QStringLiteral(".vendor"), true);
            if (vendor == QLatin1String("amd"))
                t.vendor = GpuVendor::Amd;
            else if (vendor != QLatin1String("nvidia") && !vendor.isEmpty())
                r.error(path + QStringLiteral(".vendor"), QStringLiteral("must be \"nvidia\" or \"amd\""));
            const QString monitor = r.plainString(g, "monitor", path + QStringLiteral(".monitor"), false);
            t.monitor = monitor == QLatin1String("rocm-smi") || (monitor.isEmpty() && t.vendor == GpuVendor::Amd)
                            ? GpuMonitor::RocmSmi
                            : GpuMonitor::NvidiaSmi;
            if (!monitor.isEmpty() && monitor != QLatin1String("rocm-smi") && monitor != QLatin1String("nvidia-smi"))
                r.error(path + QStringLiteral(".monitor"), QStringLiteral("must be \"nvidia-smi\" or \"rocm-smi\""));
            qint64 mem = 0;
            if (auto m = g.find("memoryGB"); m != g.end())
                r.readInt(&*m, path + QStringLiteral(".memoryGB"), &mem, 0);
            t.memoryGB = int(mem);
            p.gpuTypes << t;
            r.gpuTypeIds.insert(t.id);
        }
    }
}

// qos: the limits of each QOS.
void readQos(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("qos"); it != j.end()) {
        if (!it->is_array())
            r.error(QStringLiteral("qos"), QStringLiteral("must be an array of QOS limits"));
        else
            for (std::size_t i = 0; i < it->size(); ++i) {
                const Json &q = (*it)[i];
                const QString path = QStringLiteral("qos[%1]").arg(i);
                if (!q.is_object()) {
                    r.error(path, QStringLiteral("must be an object {name, maxGpusPerJob, maxWall, ..., source}"));
                    continue;
                }
                QosLimits l;
                l.name = r.plainString(q, "name", path + QStringLiteral(".name"), true);
                l.source = r.plainString(q, "source", path + QStringLiteral(".source"), true);
                qint64 gpus = 0, nodes = 0, userGpus = 0, jobs = 0;
                for (auto [key, out] : {std::pair{"maxGpusPerJob", &gpus}, std::pair{"maxNodesPerJob", &nodes},
                                        std::pair{"maxGpusPerUser", &userGpus}, std::pair{"maxJobsPerUser", &jobs}})
                    if (auto f = q.find(key); f != q.end())
                        r.readInt(&*f, path + QLatin1Char('.') + QString::fromLatin1(key), out, 0);
                l.maxGpusPerJob = int(gpus);
                l.maxNodesPerJob = int(nodes);
                l.maxGpusPerUser = int(userGpus);
                l.maxJobsPerUser = int(jobs);
                const QString wall = r.plainString(q, "maxWall", path + QStringLiteral(".maxWall"), false);
                if (!wall.isEmpty() && wall.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) != 0) {
                    if (auto secs = SlurmTime::parseSeconds(wall))
                        l.maxWallSeconds = *secs;
                    else
                        r.error(path + QStringLiteral(".maxWall"),
                                QStringLiteral("\"%1\" is not a Slurm time (use D-HH:MM:SS)")
                                    .arg(InputLimits::quoted(wall)));
                }
                p.qos << l;
            }
    }
}

// associations: the researcher's accounts, partitions and QOS.
void readAssociations(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("associations"); it != j.end()) {
        if (!it->is_array())
            r.error(QStringLiteral("associations"), QStringLiteral("must be an array of associations"));
        else
            for (std::size_t i = 0; i < it->size(); ++i) {
                const Json &a = (*it)[i];
                const QString path = QStringLiteral("associations[%1]").arg(i);
                if (!a.is_object()) {
                    r.error(path, QStringLiteral("must be an object {account, partition, defaultQos, qos, source}"));
                    continue;
                }
                UserAssociation u;
                u.account = r.plainString(a, "account", path + QStringLiteral(".account"), true);
                u.partition = r.plainString(a, "partition", path + QStringLiteral(".partition"), false);
                u.defaultQos = r.plainString(a, "defaultQos", path + QStringLiteral(".defaultQos"), false);
                u.source = r.plainString(a, "source", path + QStringLiteral(".source"), true);
                if (auto q = a.find("qos"); q != a.end()) {
                    if (!q->is_array())
                        r.error(path + QStringLiteral(".qos"), QStringLiteral("must be an array of QOS names"));
                    else
                        for (const auto &x : *q)
                            if (x.is_string())
                                u.qos << JsonSupport::str(x);
                }
                p.associations << u;
            }
    }
}

// partitions (required), at most one of them the default.
void readPartitions(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("partitions"); it == j.end() || !it->is_array() || it->empty()) {
        r.error(QStringLiteral("partitions"), QStringLiteral("is required: a non-empty array of partitions"));
    } else {
        for (std::size_t i = 0; i < it->size(); ++i)
            readPartition(r, (*it)[i], QStringLiteral("partitions[%1]").arg(i), p);
        int defaults = 0;
        for (const auto &part : p.partitions)
            defaults += part.isDefault ? 1 : 0;
        if (defaults > 1)
            r.error(QStringLiteral("partitions"), QStringLiteral("more than one partition has \"default\": true"));
    }
}

// notes: free-text advice, each with its source.
void readNotes(ProfileReader &r, const Json &j, ClusterProfile &p)
{
    if (auto it = j.find("notes"); it != j.end() && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json &n = (*it)[i];
            const QString path = QStringLiteral("notes[%1]").arg(i);
            if (!n.is_object())
                continue;
            ProfileNote note;
            note.rule = r.plainString(n, "rule", path + QStringLiteral(".rule"), false);
            note.text = r.plainString(n, "text", path + QStringLiteral(".text"), true);
            note.source = r.plainString(n, "source", path + QStringLiteral(".source"), true);
            p.notes << note;
        }
    }
}

}   // namespace

ProfileLoadResult loadProfile(const QByteArray &data, const QString &filePath)
{
    ProfileLoadResult result;
    result.claimedId = idFromFileName(filePath);
    const QString file = filePath.isEmpty() ? QStringLiteral("<profile>") : filePath;
    Diagnostic parseError;
    auto doc = JsonSupport::parse(data, file, &parseError);
    if (!doc) {
        parseError.rule = QStringLiteral("profile-malformed");
        result.problems << parseError;
        return result;
    }
    ProfileReader r(file);
    const Json &j = *doc;
    if (!j.is_object()) {
        r.error(QStringLiteral("(top level)"), QStringLiteral("must be a JSON object"));
        result.problems = r.problems;
        return result;
    }
    checkKnownKeys(r, j);
    ClusterProfile p;
    p.filePath = filePath;
    readIdentity(r, j, p, &result.claimedId);
    readLoginHosts(r, j, p);
    readAccount(r, j, p);
    readRequestSettings(r, j, p);
    readScriptSettings(r, j, p);
    readGpuTypes(r, j, p);
    p.discovered = r.plainString(j, "discovered", QStringLiteral("discovered"), false);
    readQos(r, j, p);
    readAssociations(r, j, p);
    readPartitions(r, j, p);
    readNotes(r, j, p);
    result.problems = InputLimits::capDiagnostics(r.problems, file);
    if (!hasErrors(r.problems))
        result.profile = p;
    return result;
}

ProfileLoadResult loadProfileFile(const QString &filePath)
{
    const auto read = InputLimits::readFile(filePath, QStringLiteral("profile"));
    if (!read.ok) {
        ProfileLoadResult r;
        r.claimedId = idFromFileName(filePath);
        Diagnostic d = read.problem;
        if (d.rule == QLatin1String("file-unreadable"))
            d.rule = QStringLiteral("profile-unreadable");
        r.problems << d;
        return r;
    }
    return loadProfile(read.data, filePath);
}

}   // namespace scalelab
