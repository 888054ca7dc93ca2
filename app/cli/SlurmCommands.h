// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

namespace scalelab {

// submit and study: the commands that send jobs to a cluster over SSH
// (validate, store all, then send). The commands about stored runs: RunCommands.
class SlurmCommands {
public:
    static int submit(CliContext &ctx, const QStringList &args);
    static int study(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
