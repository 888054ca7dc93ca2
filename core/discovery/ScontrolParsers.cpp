// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/ScontrolParsers.h"

#include "core/discovery/SlurmRecords.h"
#include "core/base/Saturating.h"
#include "core/slurm/SlurmTime.h"
#include "core/slurm/TresString.h"

namespace scalelab {

namespace {

SlurmLimit count(const QString &v)
{
    if (v.trimmed().compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0
        || v.trimmed().compare(QLatin1String("INFINITE"), Qt::CaseInsensitive) == 0)
        return 0;
    bool ok = false;
    const qint64 n = v.trimmed().toLongLong(&ok);
    return ok && n >= 0 ? SlurmLimit(n) : std::nullopt;
}

SlurmLimit time(const QString &v)
{
    const QString t = v.trimmed();
    if (t.compare(QLatin1String("UNLIMITED"), Qt::CaseInsensitive) == 0
        || t.compare(QLatin1String("INFINITE"), Qt::CaseInsensitive) == 0)
        return 0;
    if (SlurmRecords::isNone(t))
        return std::nullopt;
    if (auto s = SlurmTime::parseSeconds(t))
        return *s;
    return std::nullopt;
}

QStringList list(const QString &v)
{
    if (SlurmRecords::isNone(v) || v == QLatin1String("ALL"))
        return {};
    return v.split(QLatin1Char(','), Qt::SkipEmptyParts);
}

Diagnostic unreadable(const QString &what, int index, const QString &why)
{
    return finding(Severity::Warning, QStringLiteral("discovery-record-unreadable"), what, index + 1,
                   QStringLiteral("%1 record %2: %3; it is left out.").arg(what).arg(index + 1).arg(why));
}

}   // namespace

int NodeFacts::gpus() const
{
    int n = 0;
    for (const auto &g : gres)
        if (g.name == QLatin1String("gpu"))
            n = saturatingAdd(n, g.count);
    return n;
}

QString NodeFacts::gpuType() const
{
    for (const auto &g : gres)
        if (g.name == QLatin1String("gpu") && !g.type.isEmpty())
            return g.type;
    return {};
}

QString ConfigFacts::version() const
{
    return values.value(QStringLiteral("SLURM_VERSION"));
}

bool ConfigFacts::accountingCountsGpus() const
{
    for (const QString &t : values.value(QStringLiteral("AccountingStorageTRES")).split(QLatin1Char(',')))
        if (t.trimmed() == QLatin1String("gres/gpu"))
            return true;
    return false;
}

QList<GresItem> ScontrolParsers::gres(const QString &text)
{
    QList<GresItem> out;
    if (SlurmRecords::isNone(text))
        return out;
    for (QString item : SlurmRecords::splitTopLevel(text)) {
        if (const qsizetype paren = item.indexOf(QLatin1Char('(')); paren >= 0)
            item.truncate(paren);   // (S:0-3), (IDX:0-3)
        QStringList parts = item.split(QLatin1Char(':'));
        parts.removeAll(QStringLiteral("no_consume"));
        if (parts.isEmpty() || parts.front().isEmpty())
            continue;
        GresItem g;
        g.name = parts.front();
        bool ok = false;
        const int n = parts.size() >= 2 ? parts.back().toInt(&ok) : 1;
        g.count = ok || parts.size() < 2 ? n : 1;
        if (parts.size() >= 3 || (parts.size() == 2 && !ok))
            g.type = parts.at(1);
        out << g;
    }
    return out;
}

QList<GresItem> ScontrolParsers::gresFromTres(const QString &tres)
{
    QList<GresItem> out;
    int untyped = 0;
    const TresParseResult r = TresString::parse(tres);
    for (auto it = r.values.begin(); it != r.values.end(); ++it) {
        if (!it.key().startsWith(QLatin1String("gres/gpu")))
            continue;
        const int n = roundedToInt(it->number.value_or(0)).value_or(0);
        if (it.key() == QLatin1String("gres/gpu"))
            untyped = n;
        else if (it.key().startsWith(QLatin1String("gres/gpu:")))
            out << GresItem{QStringLiteral("gpu"), it.key().mid(9), n};
    }
    if (out.isEmpty() && untyped > 0)
        out << GresItem{QStringLiteral("gpu"), {}, untyped};
    return out;
}

ParsedList<PartitionFacts> ScontrolParsers::partitions(const QString &text)
{
    ParsedList<PartitionFacts> result;
    const auto records = SlurmRecords::split(text, QStringLiteral("PartitionName"));
    for (int i = 0; i < records.size(); ++i) {
        const SlurmRecord &r = records[i];
        PartitionFacts p;
        p.name = r.value("PartitionName").trimmed();
        if (p.name.isEmpty()) {
            result.diagnostics << unreadable(QStringLiteral("partition"), i, QStringLiteral("no PartitionName"));
            continue;
        }
        p.isDefault = r.value("Default") == QLatin1String("YES");
        p.state = r.value("State");
        p.maxTimeSeconds = time(r.value("MaxTime"));
        // DefaultTime=NONE is a fact (MaxTime applies), not a missing value.
        if (const QString v = r.value("DefaultTime"); r.has("DefaultTime"))
            p.defaultTimeSeconds = SlurmRecords::isNone(v) ? SlurmLimit(0) : time(v);
        p.minNodes = count(r.value("MinNodes"));
        p.maxNodes = count(r.value("MaxNodes"));
        p.nodes = r.value("Nodes");
        p.overSubscribe = r.value({"OverSubscribe", "Shared"});
        p.exclusive = p.overSubscribe.startsWith(QLatin1String("EXCLUSIVE"));
        p.allowAccounts = list(r.value("AllowAccounts"));
        p.allowQos = list(r.value("AllowQos"));
        const QString qos = r.value({"QoS", "QOS"});
        p.qos = SlurmRecords::isNone(qos) ? QString() : qos;
        p.maxMemPerNodeMB = count(r.value("MaxMemPerNode"));
        p.maxMemPerCpuMB = count(r.value("MaxMemPerCPU"));
        p.maxCpusPerNode = count(r.value("MaxCPUsPerNode"));
        p.billingWeights =
            SlurmRecords::isNone(r.value("TRESBillingWeights")) ? QString() : r.value("TRESBillingWeights");
        // DefMemPerCPU=UNLIMITED means "no default" here, not "everything".
        auto mem = [&](const char *key) -> SlurmLimit {
            const QString v = r.value(key);
            return SlurmRecords::isNone(v) ? std::nullopt : count(v);
        };
        p.defMemPerCpuMB = mem("DefMemPerCPU");
        p.defMemPerNodeMB = mem("DefMemPerNode");
        p.defMemPerGpuMB = mem("DefMemPerGPU");
        p.defCpuPerGpu = mem("DefCpuPerGPU");
        // 19.05+: JobDefaults=DefCpuPerGPU=2,DefMemPerGPU=1024
        for (const QString &kv : r.value("JobDefaults").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString k = kv.section(QLatin1Char('='), 0, 0);
            const QString v = kv.section(QLatin1Char('='), 1);
            if (k.compare(QLatin1String("DefCpuPerGPU"), Qt::CaseInsensitive) == 0)
                p.defCpuPerGpu = count(v);
            else if (k.compare(QLatin1String("DefMemPerGPU"), Qt::CaseInsensitive) == 0)
                p.defMemPerGpuMB = count(v);
        }
        result.items << p;
    }
    return result;
}

ParsedList<NodeFacts> ScontrolParsers::nodes(const QString &text)
{
    ParsedList<NodeFacts> result;
    const auto records = SlurmRecords::split(text, QStringLiteral("NodeName"));
    result.items.reserve(records.size());
    for (int i = 0; i < records.size(); ++i) {
        const SlurmRecord &r = records[i];
        NodeFacts n;
        n.name = r.value("NodeName").trimmed();
        if (n.name.isEmpty()) {
            result.diagnostics << unreadable(QStringLiteral("node"), i, QStringLiteral("no NodeName"));
            continue;
        }
        bool found = false;
        QString cpus = r.value({"CPUEfctv", "CPUTot"}, &found);
        n.cpus = cpus.toInt();
        n.sockets = r.value("Sockets").toInt();
        n.coresPerSocket = r.value("CoresPerSocket").toInt();
        n.threadsPerCore = r.value("ThreadsPerCore").toInt();
        n.realMemoryMB = r.value("RealMemory").toLongLong();
        n.memSpecLimitMB = r.value("MemSpecLimit").toLongLong();
        const TresParseResult cfg = TresString::parse(r.value("CfgTRES"));
        if (n.cpus == 0)
            n.cpus = roundedToInt(cfg.count(QStringLiteral("cpu")).value_or(0)).value_or(0);
        if (n.realMemoryMB == 0)
            n.realMemoryMB =
                roundedToInt64(cfg.bytes(QStringLiteral("mem")).value_or(0) / (1024.0 * 1024.0)).value_or(0);
        bool hasGres = false;
        const QString gres = r.value({"Gres"}, &hasGres);
        n.gres = hasGres ? ScontrolParsers::gres(gres) : ScontrolParsers::gresFromTres(r.value("CfgTRES"));
        if (n.gres.isEmpty() && hasGres)
            n.gres = ScontrolParsers::gresFromTres(r.value("CfgTRES"));
        n.features = list(r.value({"AvailableFeatures", "Features"}));
        n.partitions = list(r.value("Partitions"));
        n.state = r.value("State");
        n.version = r.value("Version");
        result.items << n;
    }
    return result;
}

ConfigFacts ScontrolParsers::config(const QString &text)
{
    ConfigFacts c;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const qsizetype eq = line.indexOf(QLatin1String(" = "));
        if (eq <= 0)
            continue;
        const QString key = line.left(eq).trimmed();
        if (key.contains(QLatin1Char(' ')))
            continue;   // headings such as "Configuration data as of ..."
        c.values.insert(key, line.mid(eq + 3).trimmed());
    }
    return c;
}

}   // namespace scalelab
