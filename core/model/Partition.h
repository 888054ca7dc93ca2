#pragma once

#include <QMap>
#include <QString>

namespace scalelab {

// A partition's limits as the site documents them. Every limit carries the URL
// it was taken from (`sources`, keyed by the JSON key of the limit).
struct Partition {
    QString name;
    QString description;
    bool isDefault = false;
    QString gpuType;          // GpuType::id, empty for CPU-only partitions
    int gpusPerNode = 0;
    int cpusPerNode = 0;
    qint64 memoryPerNodeMB = 0;
    int maxNodes = 1;
    int minNodes = 1;
    qint64 maxTimeSeconds = 0;    // 0 = unlimited
    int maxGpusPerJob = 0;        // 0 = no per-job GPU limit besides nodes
    int minGpusPerJob = 0;        // 0 = none
    bool exclusive = false;       // whole nodes are allocated
    QMap<QString, QString> sources;

    int maxGpus() const
    {
        const int byNodes = gpusPerNode * maxNodes;
        return maxGpusPerJob > 0 ? std::min(maxGpusPerJob, byNodes) : byNodes;
    }
    bool operator==(const Partition &) const = default;
};

} // namespace scalelab
