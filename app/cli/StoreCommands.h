// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

#include <QStringList>

namespace scalelab {

// `scalelab store check|backup|list|restore [BACKUP] [--json]`: the run
// store as a file (core/store/StoreFile): is it sound, copy it, list the
// copies, put one back. Works on a store the other commands refuse.
// --json prints the "scalelab.store.v1" document.
class StoreCommands {
public:
    static int run(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
