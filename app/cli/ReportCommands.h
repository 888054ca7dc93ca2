// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

namespace scalelab {

// `scalelab report STUDY -o FILE.pdf`: the scaling report, headless.
class ReportCommands {
public:
    static int report(CliContext &ctx, const QStringList &args);
};

}   // namespace scalelab
