// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

namespace scalelab {

// One metric read from a framework's own metric file (trainer_state.json,
// Lightning metrics.csv, TensorBoard events, MLflow, W&B), under the
// project's name (MetricFileNames) with the name the file gave it.
struct FileMetric {
    QString name;   // project name, e.g. "eval_loss"
    QString key;   // as written in the file, e.g. "eval/loss"
    QString unit;
    QString source;   // metric::Source* of the format, e.g. "trainer_state.json"
    QString file;   // the file the last value came from
    qint64 line = 0;   // 1-based line (text) or record (TensorBoard) of the last value
    QString rule;   // "<format>.<key>", e.g. "hf.trainer_state.eval_loss"
    double value = 0;   // the last value written (the file order)
    int count = 0;   // values read
    QVector<double> steps;   // per-step series (NaN = no step); only keys that are curves
    QVector<double> values;
};

// A run parameter (Lightning hparams.yaml, MLflow params/, W&B config).
struct RunParameter {
    QString key;
    QString value;
    QString file;
    int line = 0;
};

struct MetricFileResult {
    QList<FileMetric> metrics;   // in the order their first value was read
    QList<RunParameter> parameters;
    Diagnostics diagnostics;   // each message names the file; line and field set where known
    QStringList files;   // the files read

    const FileMetric *find(const QString &name) const;
    void append(const MetricFileResult &other);
};

}   // namespace scalelab
