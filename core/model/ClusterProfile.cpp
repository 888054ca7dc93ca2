// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/ClusterProfile.h"

namespace scalelab {

QString gpuRequestStyleId(GpuRequestStyle s)
{
    switch (s) {
    case GpuRequestStyle::GresTyped:
        return QStringLiteral("gres-typed");
    case GpuRequestStyle::Gres:
        return QStringLiteral("gres");
    case GpuRequestStyle::GpusPerNode:
        return QStringLiteral("gpus-per-node");
    case GpuRequestStyle::GpusPerTask:
        return QStringLiteral("gpus-per-task");
    }
    return {};
}

std::optional<GpuRequestStyle> gpuRequestStyleFromId(const QString &id)
{
    for (auto s : {GpuRequestStyle::GresTyped, GpuRequestStyle::Gres, GpuRequestStyle::GpusPerNode,
                   GpuRequestStyle::GpusPerTask})
        if (gpuRequestStyleId(s) == id)
            return s;
    return std::nullopt;
}

const Partition *ClusterProfile::partition(const QString &name) const
{
    for (const auto &p : partitions)
        if (p.name == name)
            return &p;
    return nullptr;
}

const Partition *ClusterProfile::defaultPartition() const
{
    for (const auto &p : partitions)
        if (p.isDefault)
            return &p;
    return partitions.isEmpty() ? nullptr : &partitions.front();
}

const GpuType *ClusterProfile::gpuType(const QString &id) const
{
    for (const auto &g : gpuTypes)
        if (g.id == id)
            return &g;
    return nullptr;
}

const QosLimits *ClusterProfile::qosNamed(const QString &name) const
{
    for (const auto &q : qos)
        if (q.name == name)
            return &q;
    return nullptr;
}

}   // namespace scalelab
