// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// How a key a framework writes ("eval_loss", "val_acc", "Loss/train",
// "train/learning_rate") becomes the project's metric name (core/model/
// MetricNames.h, the names the log readers store): one table for every
// metric file reader. Keys are compared after normalisation (lower case,
// '/', '-', '.' and ' ' as '_'). A key the table does not know keeps its
// normalised form as its name, so nothing read is dropped.
struct MetricFileName {
    QString name;   // project name
    QString unit;
    bool series = true;   // per-step values form a curve; false: a run total (HF "train_runtime")
    bool stepKey = false;   // the key is the step or epoch itself, not a metric
    bool known = false;   // found in the table
};

class MetricFileNames {
public:
    static QString normalised(const QString &key);
    static MetricFileName lookup(const QString &key);
};

}   // namespace scalelab
