// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

namespace scalelab {

// profiles, render, lint, import: everything that needs no cluster.
class ComposeCommands {
public:
    static int profiles(CliContext &ctx, const QStringList &args);
    static int render(CliContext &ctx, const QStringList &args);
    static int lint(CliContext &ctx, const QStringList &args);
    // `scalelab import`: a script to a spec, through ScriptFile as the window's File > Import.
    static int importScript(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
