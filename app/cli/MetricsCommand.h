// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

#include <QStringList>

namespace scalelab {

// `scalelab metrics LOG [--patterns FILE] [--json]`: what ingest would read
// from a local job output file (metric, value, unit, line, rule), so a
// researcher can check a log and their own patterns before a study. LOG may
// be - (stdin). Options through CliParser, as every command; --json prints
// the "scalelab.metrics.v1" document.
class MetricsCommand {
public:
    static int run(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
