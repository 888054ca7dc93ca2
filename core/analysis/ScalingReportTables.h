// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/ReportTable.h"
#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/StudyChartData.h"

namespace scalelab {

// The scaling report's tables, numbers formatted per column (significant
// digits chosen from the column's values): the PDF, `--format md` and
// `--format csv` all print these.
class ScalingReportTables {
public:
    // One row per measured GPU count (medians with the range of repeats), then
    // GPU counts without a completed run and the Amdahl estimates, each said.
    static ReportTable strongScaling(const StudyChartData &data);
    // One row per run: job, GPUs, state and the three metrics the analysis read.
    static ReportTable runs(const QList<RunMetricsRow> &rows, const StudyScalingInput &input);
    // One row per run: nodes, GPU utilisation, GPU-hours, billing hours, CPU efficiency.
    static ReportTable resources(const QList<RunMetricsRow> &rows, const StudyScalingInput &input);
};

}   // namespace scalelab
