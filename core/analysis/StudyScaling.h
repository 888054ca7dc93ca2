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
    QList<qint64> runIds;   // parallel to runs
    QString runtimeMetric;   // train_time_s when every run has it, else elapsed_s; "" = none
    QString throughputMetric;   // samples_per_s or throughput; "" = none
    QString accuracyMetric;   // test_accuracy or val_accuracy; "" = none
    QString utilMetric;   // gpu_util_mean_pct or sacct_gpu_util_pct; "" = none
};

// One metric at one GPU count over the completed runs: what a chart draws
// (the median, with the min–max range of the repeats).
struct MetricAtGpus {
    int gpus = 0;
    int runs = 0;
    double median = 0, min = 0, max = 0;
    QList<qint64> runIds;
};

// A run that did not complete, with the value it left (drawn hollow, labelled).
struct IncompleteValue {
    qint64 runId = 0;
    QString jobId;
    int gpus = 0;
    double value = 0;
    QString state;   // "CANCELLED by 1001", "FAILED", "TIMEOUT"...
};

class StudyScaling {
public:
    // Runs of `rows` that have a job (others were never submitted).
    static StudyScalingInput input(const QList<RunMetricsRow> &rows);
    static ScalingAnalysis analyze(const StudyScalingInput &in, double threshold = 0.7);
    // Runs count as failed unless accounting or the run state says COMPLETED.
    static bool completed(const RunMetricsRow &row);
    static int gpusOf(const RunMetricsRow &row);   // allocated (sacct) else requested
    // Completed runs with a job and a value of `metric`, by GPU count.
    static QList<MetricAtGpus> summarize(const QList<RunMetricsRow> &rows, const QString &metric);
    // Runs with a job that did not complete but have a value of `metric`.
    static QList<IncompleteValue> incomplete(const QList<RunMetricsRow> &rows, const QString &metric);
};

}   // namespace scalelab
