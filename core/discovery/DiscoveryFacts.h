// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// What Slurm itself says about a site, as parsed from its commands. Values
// Slurm did not print stay empty (std::nullopt): "not known" is never
// replaced by a guess here.

// A limit that may be unlimited: nullopt = not printed, 0 = UNLIMITED.
using SlurmLimit = std::optional<qint64>;

struct PartitionFacts {
    QString name;
    bool isDefault = false;
    QString state;   // UP, DOWN, DRAIN, INACTIVE
    SlurmLimit maxTimeSeconds;   // 0 = UNLIMITED
    SlurmLimit defaultTimeSeconds;   // 0 = NONE or UNLIMITED: a job asking no time gets MaxTime
    SlurmLimit minNodes;
    SlurmLimit maxNodes;   // 0 = UNLIMITED
    QString nodes;   // host list as printed, e.g. tb-node[1-2]
    QString overSubscribe;   // NO, YES:4, FORCE:1, EXCLUSIVE (Shared= before 16.x)
    bool exclusive = false;   // OverSubscribe=EXCLUSIVE or ExclusiveUser
    QStringList allowAccounts;   // empty = ALL
    QStringList allowQos;   // empty = ALL
    QString qos;   // partition QOS, empty for N/A
    SlurmLimit defMemPerCpuMB;
    SlurmLimit defMemPerGpuMB;
    SlurmLimit defMemPerNodeMB;
    SlurmLimit maxMemPerNodeMB;   // 0 = UNLIMITED
    SlurmLimit maxMemPerCpuMB;
    SlurmLimit defCpuPerGpu;
    SlurmLimit maxCpusPerNode;   // 0 = UNLIMITED
    QString billingWeights;   // TRESBillingWeights as printed
};

struct GresItem {
    QString name;   // "gpu"
    QString type;   // "v100", empty when untyped
    int count = 0;
};

struct NodeFacts {
    QString name;
    int cpus = 0;   // CPUEfctv (22.05+) else CPUTot
    int sockets = 0;
    int coresPerSocket = 0;
    int threadsPerCore = 0;
    qint64 realMemoryMB = 0;
    qint64 memSpecLimitMB = 0;   // reserved for the system
    QList<GresItem> gres;
    QStringList features;
    QStringList partitions;
    QString state;
    QString version;

    qint64 usableMemoryMB() const { return realMemoryMB - memSpecLimitMB; }
    int gpus() const;
    QString gpuType() const;   // first typed GPU GRES, "" if untyped/none
};

struct ConfigFacts {
    QMap<QString, QString> values;   // every `Key = Value` line
    QString value(const QString &key) const { return values.value(key); }
    QString version() const;   // SLURM_VERSION
    bool accountingCountsGpus() const;   // AccountingStorageTRES has gres/gpu
};

struct AssociationFacts {
    QString cluster;
    QString account;
    QString user;
    QString partition;   // empty = every partition
    QStringList qos;
    QString defaultQos;
};

struct QosFacts {
    QString name;
    SlurmLimit maxWallSeconds;   // MaxWall (per job)
    QString maxTresPerJob;   // as printed, e.g. gres/gpu=2
    QString maxTresPerUser;
    QString maxTresPerNode;
    SlurmLimit maxJobsPerUser;
    QString flags;

    std::optional<int> maxGpusPerJob() const;
    std::optional<int> maxNodesPerJob() const;
    std::optional<int> maxGpusPerUser() const;   // MaxTRESPerUser gres/gpu
};

}   // namespace scalelab
