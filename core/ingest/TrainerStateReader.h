// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QByteArray>

namespace scalelab {

// Hugging Face Trainer's trainer_state.json (TrainerState.save_to_json in
// transformers/trainer_callback.py): "log_history" is an array of objects,
// one per logging, evaluation or closing call, each with "step" (the global
// step) and "epoch" (fractional) beside the logged values ("loss",
// "learning_rate", "grad_norm", "eval_loss", ...). The closing entry holds
// the run totals ("train_runtime", "train_samples_per_second",
// "train_loss" as the run's average): those are values, not curve points.
// The state's own fields ("global_step", "num_train_epochs",
// "train_batch_size", "best_metric", ...) become run parameters. Values that
// are not numbers (strings, nested objects) are not read.
class TrainerStateReader {
public:
    static MetricFileResult read(const QString &path);
    static MetricFileResult parse(const QByteArray &data, const QString &name);
};

}   // namespace scalelab
