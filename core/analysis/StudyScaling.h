// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/ScalingAnalysis.h"

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// Which stored metric each chart of a study reads, chosen once per study so
// every GPU count is measured the same way.
struct StudyScalingInput {
    QList<ScalingRun> runs;
    QList<qint64> runIds;          // parallel to runs
    QString runtimeMetric;         // train_time_s when every run has it, else elapsed_s; "" = none
    QString throughputMetric;      // samples_per_s or throughput; "" = none
    QString accuracyMetric;        // test_accuracy or val_accuracy; "" = none
    QString utilMetric;            // gpu_util_mean_pct or sacct_gpu_util_pct; "" = none
};

class StudyScaling {
public:
    // Runs of `rows` that have a job (others were never submitted).
    static StudyScalingInput input(const QList<RunMetricsRow> &rows);
    static ScalingAnalysis analyze(const StudyScalingInput &in, double threshold = 0.7);
    // Runs count as failed unless accounting or the run state says COMPLETED.
    static bool completed(const RunMetricsRow &row);
    static int gpusOf(const RunMetricsRow &row);   // allocated (sacct) else requested
};

} // namespace scalelab
