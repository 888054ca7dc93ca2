// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/discovery/ProfileCheck.h"

#include "core/slurm/SlurmTime.h"

namespace scalelab {

namespace {

QString timeText(qint64 secs)
{
    return secs > 0 ? SlurmTime::format(secs) : QStringLiteral("UNLIMITED");
}

}   // namespace

QList<ProfileDifference> ProfileCheck::compare(const ClusterProfile &profile, const ClusterProfile &cluster)
{
    QList<ProfileDifference> out;
    const QString absent = QStringLiteral("(absent)");
    for (const Partition &mine : profile.partitions) {
        const Partition *live = cluster.partition(mine.name);
        if (!live) {
            out << ProfileDifference{mine.name, QStringLiteral("partition"), mine.name, absent,
                                     cluster.discovered + QStringLiteral(": scontrol show partition")};
            continue;
        }
        auto add = [&](const char *key, const QString &a, const QString &b) {
            const QString k = QString::fromLatin1(key);
            if (a == b || !mine.isKnown(k) || !live->isKnown(k))
                return;
            out << ProfileDifference{mine.name, k, a, b,
                                     live->sources.value(k, live->sources.value(QStringLiteral("partition")))};
        };
        auto num = [](qint64 n) { return QString::number(n); };
        add("maxTime", timeText(mine.maxTimeSeconds), timeText(live->maxTimeSeconds));
        add("maxNodes", num(mine.maxNodes), num(live->maxNodes));
        add("minNodes", num(mine.minNodes), num(live->minNodes));
        add("gpusPerNode", num(mine.gpusPerNode), num(live->gpusPerNode));
        add("cpusPerNode", num(mine.cpusPerNode), num(live->cpusPerNode));
        add("memoryPerNodeMB", num(mine.memoryPerNodeMB), num(live->memoryPerNodeMB));
        add("exclusive", mine.exclusive ? QStringLiteral("true") : QStringLiteral("false"),
            live->exclusive ? QStringLiteral("true") : QStringLiteral("false"));
        add("gpuType", mine.gpuType, live->gpuType);
        // A per-job GPU limit Slurm enforces (partition QOS); a documented one
        // the cluster does not state is not contradicted.
        if (live->maxGpusPerJob > 0)
            add("maxGpusPerJob", num(mine.maxGpusPerJob), num(live->maxGpusPerJob));
    }
    for (const Partition &live : cluster.partitions)
        if (!profile.partition(live.name))
            out << ProfileDifference{live.name, QStringLiteral("partition"), absent, live.name,
                                     live.sources.value(QStringLiteral("partition"))};
    return out;
}

}   // namespace scalelab
