// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

namespace scalelab {

// submit, study, status, cancel, fetch, runs: the commands that talk to a
// cluster over SSH or read the run store.
class SlurmCommands {
public:
    static int submit(CliContext &ctx, const QStringList &args);
    static int study(CliContext &ctx, const QStringList &args);
    static int status(CliContext &ctx, const QStringList &args);
    static int cancel(CliContext &ctx, const QStringList &args);
    static int fetch(CliContext &ctx, const QStringList &args);
    static int runs(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
