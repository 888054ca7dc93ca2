// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/ProfileLoader.h"

#include "core/base/InputLimits.h"
#include "core/base/JsonSupport.h"
#include "core/slurm/SlurmTime.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace scalelab {

namespace {

using Json = JsonSupport::Json;

// null or "unknown": the profile says honestly that it does not know.
bool isUnknown(const Json &v)
{
    return v.is_null() || (v.is_string() && v.get<std::string>() == "unknown");
}

// Walks one profile document, collecting every problem with its key path so
// a researcher editing a profile sees all mistakes at once.
class ProfileReader {
public:
    ProfileReader(const QString &file) : m_file(file) {}

    Diagnostics problems;
    // Looked up once per partition: sets, not the profile's lists, so a
    // profile with thousands of partitions stays linear.
    QSet<QString> gpuTypeIds;
    QSet<QString> partitionNames;

    void error(const QString &key, const QString &msg)
    {
        problems << Diagnostic{Severity::Error, QStringLiteral("profile-invalid"), key, 0, 0,
                               QStringLiteral("%1: %2: %3").arg(m_file, key, msg), {}};
    }
    void warning(const QString &key, const QString &msg)
    {
        problems << Diagnostic{Severity::Warning, QStringLiteral("profile-warning"), key, 0, 0,
                               QStringLiteral("%1: %2: %3").arg(m_file, key, msg), {}};
    }

    // A setting is either a bare value (source taken from `fallbackSource`) or
    // {"value": ..., "source": "..."}. Returns the value node, or null.
    const Json *setting(const Json &obj, const char *key, const QString &path, const QString &fallbackSource,
                        QString *sourceOut)
    {
        auto it = obj.find(key);
        if (it == obj.end())
            return nullptr;
        const Json *value = &*it;
        QString source = fallbackSource;
        if (it->is_object() && it->contains("value")) {
            value = &(*it)["value"];
            if (auto s = it->find("source"); s != it->end() && s->is_string())
                source = JsonSupport::str(*s);
        }
        if (source.trimmed().isEmpty())
            error(path, QStringLiteral("has no source: give the public page it was taken from as \"source\""));
        if (sourceOut)
            *sourceOut = source;
        return value;
    }

    // Most limits end up in an int: larger values are refused here rather
    // than wrapped around later.
    bool readInt(const Json *v, const QString &path, qint64 *out, qint64 min = 0, qint64 max = 1000000000)
    {
        if (!v)
            return false;
        if (!v->is_number_integer()) {
            error(path, QStringLiteral("must be a whole number, found %1").arg(JsonSupport::typeName(*v)));
            return false;
        }
        if (v->is_number_unsigned() && v->get<quint64>() > quint64(max)) {
            error(path, QStringLiteral("must be at most %1, found %2").arg(max).arg(v->get<quint64>()));
            return false;
        }
        const qint64 n = v->get<qint64>();
        if (n < min) {
            error(path, QStringLiteral("must be at least %1, found %2").arg(min).arg(n));
            return false;
        }
        if (n > max) {
            error(path, QStringLiteral("must be at most %1, found %2").arg(max).arg(n));
            return false;
        }
        *out = n;
        return true;
    }

    bool readBool(const Json *v, const QString &path, bool *out)
    {
        if (!v)
            return false;
        if (!v->is_boolean()) {
            error(path, QStringLiteral("must be true or false, found %1").arg(JsonSupport::typeName(*v)));
            return false;
        }
        *out = v->get<bool>();
        return true;
    }

    bool readString(const Json *v, const QString &path, QString *out)
    {
        if (!v)
            return false;
        if (!v->is_string()) {
            error(path, QStringLiteral("must be a string, found %1").arg(JsonSupport::typeName(*v)));
            return false;
        }
        *out = JsonSupport::str(*v);
        return true;
    }

    QString plainString(const Json &obj, const char *key, const QString &path, bool required)
    {
        auto it = obj.find(key);
        if (it == obj.end()) {
            if (required)
                error(path, QStringLiteral("is required"));
            return {};
        }
        QString s;
        readString(&*it, path, &s);
        return s;
    }

private:
    QString m_file;
};

void readPartition(ProfileReader &r, const Json &pj, const QString &path, ClusterProfile &profile)
{
    if (!pj.is_object()) {
        r.error(path, QStringLiteral("must be an object"));
        return;
    }
    static const QStringList known = {
        QStringLiteral("name"),          QStringLiteral("description"),    QStringLiteral("default"),
        QStringLiteral("gpuType"),       QStringLiteral("source"),         QStringLiteral("sources"),
        QStringLiteral("gpusPerNode"),   QStringLiteral("cpusPerNode"),    QStringLiteral("memoryPerNodeMB"),
        QStringLiteral("minNodes"),      QStringLiteral("maxNodes"),       QStringLiteral("maxTime"),
        QStringLiteral("maxGpusPerJob"), QStringLiteral("minGpusPerJob"), QStringLiteral("exclusive"),
        QStringLiteral("notes"),         QStringLiteral("qos"),            QStringLiteral("nodeTypes")};
    Partition p;
    p.name = r.plainString(pj, "name", path + QStringLiteral(".name"), true);
    const QString base = p.name.isEmpty() ? path : QStringLiteral("partitions[%1]").arg(p.name);
    for (auto it = pj.begin(); it != pj.end(); ++it)
        if (!known.contains(QString::fromStdString(it.key())))
            r.error(base + QLatin1Char('.') + QString::fromStdString(it.key()),
                    QStringLiteral("unknown key (known: %1)").arg(known.join(QStringLiteral(", "))));

    p.description = r.plainString(pj, "description", base + QStringLiteral(".description"), false);
    const QString src = r.plainString(pj, "source", base + QStringLiteral(".source"), false);
    if (auto it = pj.find("sources"); it != pj.end()) {
        if (!it->is_object())
            r.error(base + QStringLiteral(".sources"), QStringLiteral("must be an object of key -> URL"));
        else
            for (auto s = it->begin(); s != it->end(); ++s)
                if (s->is_string())
                    p.sources.insert(QString::fromStdString(s.key()), JsonSupport::str(*s));
    }
    auto limitSource = [&](const char *key) {
        const QString k = QString::fromLatin1(key);
        return p.sources.value(k, src);
    };
    auto intLimit = [&](const char *key, qint64 *out, qint64 min, bool required) {
        QString used;
        const QString kpath = base + QLatin1Char('.') + QString::fromLatin1(key);
        const Json *v = r.setting(pj, key, kpath, limitSource(key), &used);
        if (!v) {
            if (required)
                r.error(kpath, QStringLiteral("is required"));
            return;
        }
        if (isUnknown(*v)) {   // an honest "not known": checks that need it are skipped
            p.unknown << QString::fromLatin1(key);
            p.sources.insert(QString::fromLatin1(key), used);
            return;
        }
        if (r.readInt(v, kpath, out, min))
            p.sources.insert(QString::fromLatin1(key), used);
    };
    p.isDefault = pj.value("default", false) == true;
    p.gpuType = r.plainString(pj, "gpuType", base + QStringLiteral(".gpuType"), true);
    qint64 gpusPerNode = 0, cpusPerNode = 0, minNodes = 1, maxNodes = 1, maxGpus = 0, minGpus = 0;
    intLimit("gpusPerNode", &gpusPerNode, 1, true);
    intLimit("cpusPerNode", &cpusPerNode, 1, true);
    intLimit("memoryPerNodeMB", &p.memoryPerNodeMB, 0, true);
    intLimit("minNodes", &minNodes, 1, false);
    intLimit("maxNodes", &maxNodes, 1, true);
    intLimit("maxGpusPerJob", &maxGpus, 0, false);
    intLimit("minGpusPerJob", &minGpus, 0, false);
    p.gpusPerNode = int(gpusPerNode);
    p.cpusPerNode = int(cpusPerNode);
    p.minNodes = int(minNodes);
    p.maxNodes = int(maxNodes);
    p.maxGpusPerJob = int(maxGpus);
    p.minGpusPerJob = int(minGpus);
    {
        QString used;
        const QString kpath = base + QStringLiteral(".exclusive");
        if (const Json *v = r.setting(pj, "exclusive", kpath, limitSource("exclusive"), &used))
            if (r.readBool(v, kpath, &p.exclusive))
                p.sources.insert(QStringLiteral("exclusive"), used);
    }
    {
        QString used;
        const QString kpath = base + QStringLiteral(".maxTime");
        const Json *v = r.setting(pj, "maxTime", kpath, limitSource("maxTime"), &used);
        QString text;
        if (!v)
            r.error(kpath, QStringLiteral("is required (Slurm time, e.g. \"3-00:00:00\", or \"UNLIMITED\")"));
        else if (isUnknown(*v)) {
            p.unknown << QStringLiteral("maxTime");
            p.sources.insert(QStringLiteral("maxTime"), used);
        } else if (r.readString(v, kpath, &text)) {
            if (text.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0) {
                p.maxTimeSeconds = 0;
            } else if (auto secs = SlurmTime::parseSeconds(text)) {
                p.maxTimeSeconds = *secs;
            } else {
                r.error(kpath, QStringLiteral("\"%1\" is not a Slurm time (use D-HH:MM:SS)").arg(text));
            }
            p.sources.insert(QStringLiteral("maxTime"), used);
        }
    }
    p.qos = r.plainString(pj, "qos", base + QStringLiteral(".qos"), false);
    if (auto it = pj.find("nodeTypes"); it != pj.end()) {
        if (!it->is_array())
            r.error(base + QStringLiteral(".nodeTypes"), QStringLiteral("must be an array of node kinds"));
        else
            for (std::size_t i = 0; i < it->size(); ++i) {
                const Json &nj = (*it)[i];
                const QString npath = base + QStringLiteral(".nodeTypes[%1]").arg(i);
                if (!nj.is_object()) {
                    r.error(npath, QStringLiteral("must be an object"));
                    continue;
                }
                NodeType t;
                t.gpuType = r.plainString(nj, "gpuType", npath + QStringLiteral(".gpuType"), false);
                qint64 gpus = 0, cpus = 0, count = 0;
                for (auto [key, out] : {std::pair{"gpus", &gpus}, std::pair{"cpus", &cpus}, std::pair{"count", &count},
                                        std::pair{"memoryMB", &t.memoryMB}})
                    if (auto f = nj.find(key); f != nj.end())
                        r.readInt(&*f, npath + QLatin1Char('.') + QString::fromLatin1(key), out, 0);
                t.gpus = int(gpus);
                t.cpus = int(cpus);
                t.count = int(count);
                if (auto f = nj.find("features"); f != nj.end() && f->is_array())
                    for (const auto &x : *f)
                        if (x.is_string())
                            t.features << JsonSupport::str(x);
                p.nodeTypes << t;
            }
    }
    if (p.minNodes > p.maxNodes && p.isKnown(QStringLiteral("maxNodes")))
        r.error(base + QStringLiteral(".minNodes"), QStringLiteral("is larger than maxNodes"));
    if (!p.gpuType.isEmpty() && !r.gpuTypeIds.contains(p.gpuType))
        r.error(base + QStringLiteral(".gpuType"),
                QStringLiteral("\"%1\" is not one of the profile's gpuTypes").arg(p.gpuType));
    if (r.partitionNames.contains(p.name))
        r.error(base, QStringLiteral("partition \"%1\" is listed twice").arg(p.name));
    if (!p.name.isEmpty()) {
        profile.partitions << p;
        r.partitionNames.insert(p.name);
    }
}

} // namespace

ProfileLoadResult loadProfile(const QByteArray &data, const QString &filePath)
{
    ProfileLoadResult result;
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
    static const QStringList known = {
        QStringLiteral("id"),          QStringLiteral("name"),           QStringLiteral("site"),
        QStringLiteral("description"), QStringLiteral("docsUrl"),        QStringLiteral("slurmVersion"),
        QStringLiteral("loginHosts"),  QStringLiteral("account"),        QStringLiteral("gpuRequest"),
        QStringLiteral("memoryRequired"), QStringLiteral("cpusPerGpuBroken"), QStringLiteral("containerRuntime"),
        QStringLiteral("defaultModules"), QStringLiteral("defaultVariables"), QStringLiteral("gpuTypes"),
        QStringLiteral("partitions"),  QStringLiteral("notes"), QStringLiteral("qos"), QStringLiteral("discovered"), QStringLiteral("torchrunArgs"), QStringLiteral("cpuBind"),          QStringLiteral("$schema"),
        QStringLiteral("comment")};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.contains(QString::fromStdString(it.key())))
            r.error(QString::fromStdString(it.key()), QStringLiteral("unknown key"));

    ClusterProfile p;
    p.filePath = filePath;
    p.id = r.plainString(j, "id", QStringLiteral("id"), true);
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9][a-z0-9_-]*$"));
    if (!p.id.isEmpty() && !idRe.match(p.id).hasMatch())
        r.error(QStringLiteral("id"), QStringLiteral("\"%1\" must be lower-case letters, digits, - or _").arg(p.id));
    p.name = r.plainString(j, "name", QStringLiteral("name"), true);
    p.site = r.plainString(j, "site", QStringLiteral("site"), false);
    p.description = r.plainString(j, "description", QStringLiteral("description"), false);
    p.docsUrl = r.plainString(j, "docsUrl", QStringLiteral("docsUrl"), false);
    p.slurmVersion = r.plainString(j, "slurmVersion", QStringLiteral("slurmVersion"), false);

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
                        r.error(path, QStringLiteral("\"%1\" must not start with '-'").arg(v));
                p.loginHosts << lh;
            }
    }

    if (auto it = j.find("account"); it != j.end()) {
        if (!it->is_object()) {
            r.error(QStringLiteral("account"), QStringLiteral("must be an object {required, pattern, example, source}"));
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

    QString used;
    if (const Json *v = r.setting(j, "gpuRequest", QStringLiteral("gpuRequest"), {}, &used)) {
        QString s;
        if (r.readString(v, QStringLiteral("gpuRequest"), &s)) {
            if (auto style = gpuRequestStyleFromId(s))
                p.gpuRequest = *style;
            else
                r.error(QStringLiteral("gpuRequest"),
                        QStringLiteral("\"%1\" is not one of gres-typed, gres, gpus-per-node, gpus-per-task").arg(s));
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
    if (const Json *v = r.setting(j, "defaultModules", QStringLiteral("defaultModules"), {}, &used)) {
        if (!v->is_array())
            r.error(QStringLiteral("defaultModules"), QStringLiteral("must be an array of module names"));
        else
            for (const auto &m : *v)
                if (m.is_string())
                    p.defaultModules << JsonSupport::str(m);
    }
    if (const Json *v = r.setting(j, "cpuBind", QStringLiteral("cpuBind"), {}, &used))
        r.readString(v, QStringLiteral("cpuBind"), &p.cpuBind);
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

    p.discovered = r.plainString(j, "discovered", QStringLiteral("discovered"), false);
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
                qint64 gpus = 0, nodes = 0, jobs = 0;
                for (auto [key, out] : {std::pair{"maxGpusPerJob", &gpus}, std::pair{"maxNodesPerJob", &nodes},
                                        std::pair{"maxJobsPerUser", &jobs}})
                    if (auto f = q.find(key); f != q.end())
                        r.readInt(&*f, path + QLatin1Char('.') + QString::fromLatin1(key), out, 0);
                l.maxGpusPerJob = int(gpus);
                l.maxNodesPerJob = int(nodes);
                l.maxJobsPerUser = int(jobs);
                const QString wall = r.plainString(q, "maxWall", path + QStringLiteral(".maxWall"), false);
                if (!wall.isEmpty() && wall.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) != 0) {
                    if (auto secs = SlurmTime::parseSeconds(wall))
                        l.maxWallSeconds = *secs;
                    else
                        r.error(path + QStringLiteral(".maxWall"), QStringLiteral("\"%1\" is not a Slurm time (use D-HH:MM:SS)").arg(wall));
                }
                p.qos << l;
            }
    }

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
        Diagnostic d = read.problem;
        if (d.rule == QLatin1String("file-unreadable"))
            d.rule = QStringLiteral("profile-unreadable");
        r.problems << d;
        return r;
    }
    return loadProfile(read.data, filePath);
}

} // namespace scalelab
