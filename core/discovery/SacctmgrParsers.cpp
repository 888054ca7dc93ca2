// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/SacctmgrParsers.h"

#include "core/discovery/SlurmRecords.h"
#include "core/base/Saturating.h"
#include "core/slurm/SlurmTime.h"
#include "core/slurm/TresString.h"

#include <QMap>

namespace scalelab {

namespace {

SlurmLimit limit(const QString &v)
{
    const QString t = v.trimmed();
    if (t.isEmpty())
        return std::nullopt;   // sacctmgr prints an empty cell for "no limit set"
    if (auto s = SlurmTime::parseSeconds(t))
        return *s;
    return std::nullopt;
}

std::optional<int> tresCount(const QString &tres, const QString &key)
{
    if (tres.trimmed().isEmpty())
        return std::nullopt;
    const TresParseResult r = TresString::parse(tres);
    if (key == QLatin1String("gres/gpu"))
        if (auto n = r.gpuCount())
            return roundedToInt(*n);
    if (auto n = r.number(key))
        return roundedToInt(*n);
    return std::nullopt;
}

}   // namespace

std::optional<int> QosFacts::maxGpusPerJob() const
{
    return tresCount(maxTresPerJob, QStringLiteral("gres/gpu"));
}

std::optional<int> QosFacts::maxNodesPerJob() const
{
    return tresCount(maxTresPerJob, QStringLiteral("node"));
}

std::optional<int> QosFacts::maxGpusPerUser() const
{
    return tresCount(maxTresPerUser, QStringLiteral("gres/gpu"));
}

ParsedList<AssociationFacts> SacctmgrParsers::associations(const QString &text)
{
    ParsedList<AssociationFacts> result;
    for (const SlurmRecord &r : SlurmRecords::splitParsable(text)) {
        AssociationFacts a;
        a.cluster = r.value("Cluster");
        a.account = r.value("Account");
        a.user = r.value("User");
        a.partition = r.value({"Partition", "Part"});
        a.qos = r.value({"QOS", "QOS_Name"}).split(QLatin1Char(','), Qt::SkipEmptyParts);
        a.defaultQos = r.value({"Def QOS", "DefaultQOS", "Def_QOS"});
        if (a.account.isEmpty())
            continue;
        result.items << a;
    }
    return result;
}

QList<AccountPartitions> SacctmgrParsers::byAccount(const QList<AssociationFacts> &associations)
{
    QMap<QString, QStringList> partitions;
    for (const AssociationFacts &a : associations) {
        QStringList &parts = partitions[a.account];
        const QString partition = a.partition.trimmed();
        if (!partition.isEmpty() && !parts.contains(partition))
            parts << partition;
    }
    QList<AccountPartitions> out;
    for (auto it = partitions.cbegin(); it != partitions.cend(); ++it)
        out << AccountPartitions{it.key(), it.value()};
    return out;
}

ParsedList<QosFacts> SacctmgrParsers::qos(const QString &text)
{
    ParsedList<QosFacts> result;
    for (const SlurmRecord &r : SlurmRecords::splitParsable(text)) {
        QosFacts q;
        q.name = r.value("Name");
        if (q.name.isEmpty())
            continue;
        q.maxWallSeconds = limit(r.value({"MaxWall", "MaxWallDurationPerJob", "MaxWallDuration"}));
        q.maxTresPerJob = r.value({"MaxTRES", "MaxTRESPerJob", "MaxTRESPJ"});
        q.maxTresPerUser = r.value({"MaxTRESPU", "MaxTRESPerUser"});
        q.maxTresPerNode = r.value({"MaxTRESPerNode", "MaxTRESPN"});
        const QString jobs = r.value({"MaxJobsPU", "MaxJobsPerUser", "MaxJobs"}).trimmed();
        if (!jobs.isEmpty())
            q.maxJobsPerUser = jobs.toLongLong();
        q.flags = r.value("Flags");
        result.items << q;
    }
    return result;
}

ParsedList<SinfoRow> SinfoParser::parse(const QString &text, const QStringList &givenColumns)
{
    ParsedList<SinfoRow> result;
    QStringList columns = givenColumns;
    int lineNo = 0;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        ++lineNo;
        const QStringList cells = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (cells.isEmpty())
            continue;
        if (columns.isEmpty()) {
            for (const QString &c : cells)
                columns << c.toLower();
            continue;
        }
        if (cells.size() < columns.size()) {
            result.diagnostics << finding(Severity::Warning, QStringLiteral("discovery-record-unreadable"),
                                          QStringLiteral("sinfo"), lineNo,
                                          QStringLiteral("sinfo line %1 has %2 columns, %3 expected; it is left out.")
                                              .arg(lineNo)
                                              .arg(cells.size())
                                              .arg(columns.size()));
            continue;
        }
        SinfoRow row;
        for (int i = 0; i < columns.size(); ++i) {
            const QString &c = columns[i];
            // The last column takes what is left (NODELIST never has blanks, a
            // doc capture may end with "...").
            const QString v = cells[i];
            if (c == QLatin1String("partition")) {
                row.defaultPartition = v.endsWith(QLatin1Char('*'));
                row.partition = row.defaultPartition ? v.chopped(1) : v;
            } else if (c == QLatin1String("nodehost") || c == QLatin1String("nodename")) {
                row.node = v;
            } else if (c == QLatin1String("avail")) {
                row.avail = v;
            } else if (c == QLatin1String("timelimit")) {
                row.timeLimitSeconds =
                    v.compare(QLatin1String("infinite"), Qt::CaseInsensitive) == 0 ? SlurmLimit(0) : limit(v);
            } else if (c == QLatin1String("nodes")) {
                row.nodes = v.toInt();
            } else if (c == QLatin1String("cpus")) {
                row.cpus = v.toInt();
            } else if (c == QLatin1String("memory")) {
                row.memoryMB = v.toLongLong();
            } else if (c == QLatin1String("gres")) {
                row.gres = ScontrolParsers::gres(v);
            } else if (c == QLatin1String("gresused")) {
                row.gresUsed = ScontrolParsers::gres(v);
            } else if (c == QLatin1String("state") || c == QLatin1String("statelong")) {
                row.state = v;
            } else if (c == QLatin1String("features") || c == QLatin1String("available_features")) {
                row.features = SlurmRecords::isNone(v) ? QStringList() : v.split(QLatin1Char(','));
            } else if (c == QLatin1String("nodelist")) {
                row.nodeList = v;
            }
        }
        result.items << row;
    }
    return result;
}

}   // namespace scalelab
