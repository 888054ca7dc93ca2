// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QVector>

namespace scalelab {

// One number for the result explorer (throughput, accuracy, GPU utilisation...).
struct MetricRecord {
    qint64 runId = 0;
    QString name;
    double value = 0;
    QString unit;
    QString source;   // "sacct", "stdout", "gpu-samples", ...
    // Where a value read from a file came from (tooltips, `scalelab runs --json`).
    QString file;   // local path of the log or sample file; "" for accounting
    qint64 line = 0;   // 1-based line of the value (0 = none)
    QString rule;   // reader rule, e.g. "hf.dict.eval_loss"
    QString formula;   // derived values: how the number was computed ("mean of 20 values")

    bool operator==(const MetricRecord &) const = default;
};

// A metric's values over a run, in log order, for the per-epoch curves.
// step is the step or epoch the log printed with the value (NaN = none).
struct MetricSeries {
    qint64 runId = 0;
    QString name;
    QString unit;
    QVector<double> steps;
    QVector<double> values;

    bool operator==(const MetricSeries &) const = default;
};

}   // namespace scalelab
