// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

namespace scalelab {

// `scalelab discover ALIAS` and `scalelab profiles check ID --connection ALIAS`:
// read the cluster's own Slurm facts over SSH (one round trip, read-only).
class DiscoverCommands {
public:
    static int discover(CliContext &ctx, const QStringList &args);
    static int profilesCheck(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
