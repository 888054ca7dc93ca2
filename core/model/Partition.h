// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// One kind of node in a partition whose nodes differ (discovered profiles):
// the partition's own numbers are then those of its largest kind, and every
// kind is listed, never averaged.
struct NodeType {
    QString gpuType;
    int gpus = 0;
    int cpus = 0;
    qint64 memoryMB = 0;
    QStringList features;
    int count = 0;   // nodes of this kind
    bool operator==(const NodeType &) const = default;
};

// A partition's limits as the site documents them. Every limit carries the URL
// it was taken from (`sources`, keyed by the JSON key of the limit).
struct Partition {
    QString name;
    QString description;
    bool isDefault = false;
    QString gpuType;   // GpuType::id, empty for CPU-only partitions
    int gpusPerNode = 0;
    int cpusPerNode = 0;
    qint64 memoryPerNodeMB = 0;
    int maxNodes = 1;
    int minNodes = 1;
    qint64 maxTimeSeconds = 0;   // 0 = unlimited
    int maxGpusPerJob = 0;   // 0 = no per-job GPU limit besides nodes
    int minGpusPerJob = 0;   // 0 = none
    bool exclusive = false;   // whole nodes are allocated
    // The site lets a job here be requeued (--requeue): false = it refuses it
    // (a job_submit plugin, the site's rule), declared in the profile with its
    // source, since Slurm's own output never says so (slurm.conf's JobRequeue
    // is a default, not a ban); nullopt = not stated.
    std::optional<bool> requeue;
    QMap<QString, QString> sources;
    QString qos;   // the partition QOS (Slurm QOS=), "" = none
    QList<NodeType> nodeTypes;   // only when its nodes differ
    QStringList unknown;   // limit keys whose value is not known: checks on them are skipped

    // Slurm's own settings of the partition (`scontrol show partition`), as
    // discovered; optional in hand-written profiles. A setting is described
    // when it has a source (sources[key]); one that is not is never checked.
    QString state;   // UP, DOWN, DRAIN, INACTIVE; "" = not described
    std::optional<qint64> defaultTimeSeconds;   // DefaultTime; 0 = none of its own, so maxTime applies
    QStringList allowAccounts;   // AllowAccounts; empty = ALL
    QStringList allowQos;   // AllowQos; empty = ALL
    qint64 defMemPerCpuMB = 0;   // DefMemPerCPU; 0 = none
    qint64 defMemPerGpuMB = 0;   // DefMemPerGPU; 0 = none
    qint64 maxMemPerNodeMB = 0;   // MaxMemPerNode; 0 = UNLIMITED
    int defCpusPerGpu = 0;   // DefCpuPerGPU; 0 = none
    QString tresBillingWeights;   // TRESBillingWeights as Slurm prints it; "" = none

    bool isKnown(const QString &limitKey) const { return !unknown.contains(limitKey); }
    int maxGpus() const
    {
        const int byNodes = gpusPerNode * maxNodes;
        return maxGpusPerJob > 0 ? std::min(maxGpusPerJob, byNodes) : byNodes;
    }
    bool operator==(const Partition &) const = default;
};

}   // namespace scalelab
