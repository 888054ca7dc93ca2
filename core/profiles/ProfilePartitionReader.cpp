// SPDX-License-Identifier: GPL-3.0-or-later
// One partition of a profile document: its limits, GPU type, node types,
// QOS and notes, each with its source.
#include "core/base/InputLimits.h"
#include "core/profiles/ProfileReader.h"

#include "core/slurm/SlurmTime.h"

#include <QRegularExpression>

#include <algorithm>

namespace scalelab::profileread {

namespace {

// The partition's own Slurm settings (all optional): a value, or null /
// "unknown" for one the profile says it does not know.
void readSlurmSettings(ProfileReader &r, const Json &pj, const QString &base, const QString &src, Partition &p)
{
    // Returns the value node when the key holds a known value; records the source either way.
    auto read = [&](const char *key) -> const Json * {
        const QString k = QString::fromLatin1(key);
        QString used;
        const Json *v = r.setting(pj, key, base + QLatin1Char('.') + k, p.sources.value(k, src), &used);
        if (!v)
            return nullptr;
        p.sources.insert(k, used);
        if (isUnknown(*v)) {
            p.unknown << k;
            return nullptr;
        }
        return v;
    };
    auto path = [&](const char *key) { return base + QLatin1Char('.') + QString::fromLatin1(key); };
    if (const Json *v = read("state"); v && r.readString(v, path("state"), &p.state))
        p.state = p.state.trimmed().toUpper();
    QString text;
    if (const Json *v = read("defaultTime"); v && r.readString(v, path("defaultTime"), &text)) {
        if (text.compare(QLatin1String("NONE"), Qt::CaseInsensitive) == 0
            || text.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0)
            p.defaultTimeSeconds = 0;
        else if (auto secs = SlurmTime::parseSeconds(text))
            p.defaultTimeSeconds = *secs;
        else
            r.error(path("defaultTime"), QStringLiteral("\"%1\" is not a Slurm time (use D-HH:MM:SS, or \"NONE\")")
                                             .arg(InputLimits::quoted(text)));
    }
    for (auto [key, out] : {std::pair{"allowAccounts", &p.allowAccounts}, std::pair{"allowQos", &p.allowQos}}) {
        const Json *v = read(key);
        if (!v || (v->is_string() && v->get<std::string>() == "ALL"))
            continue;
        if (!v->is_array() || std::any_of(v->begin(), v->end(), [](const Json &x) { return !x.is_string(); })) {
            r.error(path(key), QStringLiteral("must be \"ALL\" or an array of names"));
            continue;
        }
        for (const auto &x : *v)
            *out << JsonSupport::str(x);
    }
    qint64 defCpus = 0;
    for (auto [key, out] :
         {std::pair{"defMemPerCpuMB", &p.defMemPerCpuMB}, std::pair{"defMemPerGpuMB", &p.defMemPerGpuMB},
          std::pair{"maxMemPerNodeMB", &p.maxMemPerNodeMB}, std::pair{"defCpusPerGpu", &defCpus}})
        if (const Json *v = read(key))
            r.readInt(v, path(key), out, 0);
    p.defCpusPerGpu = int(defCpus);
    if (const Json *v = read("tresBillingWeights"))
        r.readString(v, path("tresBillingWeights"), &p.tresBillingWeights);
}

// A partition's keys: anything else is an error naming the known ones.
void checkPartitionKeys(ProfileReader &r, const Json &pj, const QString &base)
{
    static const QStringList known = {QStringLiteral("name"),
                                      QStringLiteral("description"),
                                      QStringLiteral("default"),
                                      QStringLiteral("gpuType"),
                                      QStringLiteral("source"),
                                      QStringLiteral("sources"),
                                      QStringLiteral("gpusPerNode"),
                                      QStringLiteral("cpusPerNode"),
                                      QStringLiteral("memoryPerNodeMB"),
                                      QStringLiteral("minNodes"),
                                      QStringLiteral("maxNodes"),
                                      QStringLiteral("maxTime"),
                                      QStringLiteral("maxGpusPerJob"),
                                      QStringLiteral("minGpusPerJob"),
                                      QStringLiteral("exclusive"),
                                      QStringLiteral("requeue"),
                                      QStringLiteral("notes"),
                                      QStringLiteral("qos"),
                                      QStringLiteral("nodeTypes"),
                                      QStringLiteral("state"),
                                      QStringLiteral("defaultTime"),
                                      QStringLiteral("allowAccounts"),
                                      QStringLiteral("allowQos"),
                                      QStringLiteral("defMemPerCpuMB"),
                                      QStringLiteral("defMemPerGpuMB"),
                                      QStringLiteral("maxMemPerNodeMB"),
                                      QStringLiteral("defCpusPerGpu"),
                                      QStringLiteral("tresBillingWeights")};
    for (auto it = pj.begin(); it != pj.end(); ++it)
        if (!known.contains(QString::fromStdString(it.key())))
            r.error(base + QLatin1Char('.') + QString::fromStdString(it.key()),
                    QStringLiteral("unknown key (known: %1)").arg(known.join(QStringLiteral(", "))));
}

// The partition's sizes and limits, each read with its source: a number, or "unknown" said honestly.
class PartitionLimitReader {
public:
    PartitionLimitReader(ProfileReader &r, const Json &pj, const QString &base, const QString &src, Partition &p)
        : r(r)
        , pj(pj)
        , base(base)
        , src(src)
        , p(p)
    {}

    void readAll()
    {
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
        readExclusive();
        readRequeue();
        readMaxTime();
    }

private:
    QString limitSource(const char *key) const { return p.sources.value(QString::fromLatin1(key), src); }

    void intLimit(const char *key, qint64 *out, qint64 min, bool required)
    {
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
    }

    void readExclusive()
    {
        QString used;
        const QString kpath = base + QStringLiteral(".exclusive");
        if (const Json *v = r.setting(pj, "exclusive", kpath, limitSource("exclusive"), &used))
            if (r.readBool(v, kpath, &p.exclusive))
                p.sources.insert(QStringLiteral("exclusive"), used);
    }

    // A declared fact (Slurm's output never says it): whether the site lets a job be requeued here.
    void readRequeue()
    {
        QString used;
        const QString kpath = base + QStringLiteral(".requeue");
        bool allowed = true;
        if (const Json *v = r.setting(pj, "requeue", kpath, limitSource("requeue"), &used))
            if (r.readBool(v, kpath, &allowed)) {
                p.requeue = allowed;
                p.sources.insert(QStringLiteral("requeue"), used);
            }
    }

    void readMaxTime()
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
                r.error(kpath,
                        QStringLiteral("\"%1\" is not a Slurm time (use D-HH:MM:SS)").arg(InputLimits::quoted(text)));
            }
            p.sources.insert(QStringLiteral("maxTime"), used);
        }
    }

    ProfileReader &r;
    const Json &pj;
    const QString &base;
    const QString &src;
    Partition &p;
};

// nodeTypes: the kinds of node of a partition whose nodes differ.
void readNodeTypes(ProfileReader &r, const Json &pj, const QString &base, Partition &p)
{
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
}

}   // namespace

void readPartition(ProfileReader &r, const Json &pj, const QString &path, ClusterProfile &profile)
{
    if (!pj.is_object()) {
        r.error(path, QStringLiteral("must be an object"));
        return;
    }
    Partition p;
    p.name = r.plainString(pj, "name", path + QStringLiteral(".name"), true);
    const QString base = p.name.isEmpty() ? path : QStringLiteral("partitions[%1]").arg(InputLimits::quoted(p.name));
    checkPartitionKeys(r, pj, base);
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
    p.isDefault = pj.value("default", false) == true;
    p.gpuType = r.plainString(pj, "gpuType", base + QStringLiteral(".gpuType"), true);
    PartitionLimitReader(r, pj, base, src, p).readAll();
    readSlurmSettings(r, pj, base, src, p);
    p.qos = r.plainString(pj, "qos", base + QStringLiteral(".qos"), false);
    readNodeTypes(r, pj, base, p);
    if (p.minNodes > p.maxNodes && p.isKnown(QStringLiteral("maxNodes")))
        r.error(base + QStringLiteral(".minNodes"), QStringLiteral("is larger than maxNodes"));
    if (!p.gpuType.isEmpty() && !r.gpuTypeIds.contains(p.gpuType))
        r.error(base + QStringLiteral(".gpuType"),
                QStringLiteral("\"%1\" is not one of the profile's gpuTypes").arg(InputLimits::quoted(p.gpuType)));
    if (r.partitionNames.contains(p.name))
        r.error(base, QStringLiteral("partition \"%1\" is listed twice").arg(InputLimits::quoted(p.name)));
    if (!p.name.isEmpty()) {
        profile.partitions << p;
        r.partitionNames.insert(p.name);
    }
}

}   // namespace scalelab::profileread
