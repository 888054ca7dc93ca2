// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the fuzz harnesses: the input as Qt types, and a cluster profile
// built in code so a harness never reads files of its own.
#include "core/model/ClusterProfile.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

namespace scalelab::fuzz {

inline QByteArray bytes(const uint8_t *data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

inline QString text(const uint8_t *data, std::size_t size)
{
    return QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
}

// A LUMI-like profile: GPU-per-node requests, --cpus-per-gpu marked broken,
// exclusive and shared partitions, so every site rule can fire.
inline const ClusterProfile &profile()
{
    static const ClusterProfile p = [] {
        ClusterProfile c;
        c.id = QStringLiteral("fuzz");
        c.name = QStringLiteral("Fuzz site");
        c.accountRequired = true;
        c.accountPattern = QStringLiteral("^project_[0-9]{7}$");
        c.cpusPerGpuBroken = true;
        c.gpuRequest = GpuRequestStyle::GpusPerNode;
        GpuType g;
        g.id = QStringLiteral("mi250");
        g.vendor = GpuVendor::Amd;
        c.gpuTypes = {g};
        Partition small;
        small.name = QStringLiteral("small-g");
        small.gpuType = g.id;
        small.gpusPerNode = 8;
        small.cpusPerNode = 56;
        small.memoryPerNodeMB = 480 * 1024;
        small.maxNodes = 4;
        small.maxTimeSeconds = 72 * 3600;
        small.isDefault = true;
        Partition standard = small;
        standard.name = QStringLiteral("standard-g");
        standard.isDefault = false;
        standard.exclusive = true;
        standard.maxNodes = 1024;
        standard.maxGpusPerJob = 0;
        c.partitions = {small, standard};
        return c;
    }();
    return p;
}

}   // namespace scalelab::fuzz
