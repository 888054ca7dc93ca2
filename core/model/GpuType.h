// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

enum class GpuVendor { Nvidia, Amd };
enum class GpuMonitor { NvidiaSmi, RocmSmi };

struct GpuType {
    QString id;   // the GRES type name, e.g. "v100", "a100", "mi250"
    QString model;   // e.g. "NVIDIA V100 32 GB"
    GpuVendor vendor = GpuVendor::Nvidia;
    int memoryGB = 0;
    GpuMonitor monitor = GpuMonitor::NvidiaSmi;
    QString source;

    bool operator==(const GpuType &) const = default;
};

}   // namespace scalelab
