// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>

namespace scalelab {

// An option that no Slurm release defines but a common SPANK plugin adds to
// sbatch and srun (Shifter's --image, pyxis's --container-image ...).
struct SitePluginOption {
    const char *longName;
    const char *plugin;   // "shifter", "pyxis"
    bool takesValue;
};

// The plugin option of that exact name (no prefixes: plugins register full names), or null.
const SitePluginOption *findSitePluginOption(QStringView name);

}   // namespace scalelab
