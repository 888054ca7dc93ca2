// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/SitePluginOptions.h"

#include <iterator>

namespace scalelab {

namespace {

// Shifter (NERSC): https://github.com/NERSC/shifter, the SPANK plugin's options.
// pyxis (NVIDIA): https://github.com/NVIDIA/pyxis, on srun and (since 0.12) sbatch.
constexpr SitePluginOption kPluginOptions[] = {
    {"image", "shifter", true},
    {"module", "shifter", true},
    {"volume", "shifter", true},
    {"ccm", "shifter", false},
    {"container-image", "pyxis", true},
    {"container-mounts", "pyxis", true},
    {"container-workdir", "pyxis", true},
    {"container-name", "pyxis", true},
    {"container-save", "pyxis", true},
    {"container-env", "pyxis", true},
    {"container-mount-home", "pyxis", false},
    {"no-container-mount-home", "pyxis", false},
    {"container-remap-root", "pyxis", false},
    {"no-container-remap-root", "pyxis", false},
    {"container-entrypoint", "pyxis", false},
    {"no-container-entrypoint", "pyxis", false},
    {"container-entrypoint-log", "pyxis", false},
    {"container-writable", "pyxis", false},
    {"container-readonly", "pyxis", false},
};

}   // namespace

const SitePluginOption *findSitePluginOption(QStringView name)
{
    for (const auto &o : kPluginOptions)
        if (name == QLatin1String(o.longName))
            return &o;
    return nullptr;
}

}   // namespace scalelab
