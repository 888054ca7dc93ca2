// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

#include <QString>

namespace scalelab {

// `scalelab metrics DIR_OR_FILE` when the argument is a folder or a
// framework's own metric file (MetricFileScanner): one row per metric with
// its value, the points of its curve, its source format, file and rule; the
// run parameters; the findings on stderr. --json prints the same in the
// "metrics" document with "source" per metric and "parameters".
class MetricFilesOutput {
public:
    static int run(CliContext &ctx, const QString &path, bool json);
};

}   // namespace scalelab
