// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

namespace scalelab {

// status, cancel, fetch and runs: the commands about stored runs (polling
// their cluster, cancelling, fetching their files, listing them).
class RunCommands {
public:
    static int status(CliContext &ctx, const QStringList &args);
    static int cancel(CliContext &ctx, const QStringList &args);
    static int fetch(CliContext &ctx, const QStringList &args);
    static int runs(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
