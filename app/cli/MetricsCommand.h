// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

#include <QStringList>

namespace scalelab {

// `scalelab metrics LOG [--patterns FILE] [--json]`: what ingest would read
// from a local job output file (metric, value, unit, line, rule), so a
// researcher can check a log and their own patterns before a study.
// Self-contained: it reads its own arguments and uses only ctx.out/ctx.err.
class MetricsCommand {
public:
    static int run(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
