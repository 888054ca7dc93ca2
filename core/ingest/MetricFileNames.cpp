// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/MetricFileNames.h"

#include <QHash>

namespace scalelab {

namespace {

struct Row {
    const char *key;   // normalised
    const char *name;
    const char *unit;
    bool series;
};

// Keys seen in each format's own writers: Hugging Face Trainer log_history
// and its TensorBoard callback ("train/loss"), Lightning's self.log names,
// the PyTorch examples' add_scalar tags, MLflow autolog and W&B summaries.
// Accuracies stay as written (fractions in every one of these writers).
const Row kTable[] = {
    {"loss", "train_loss", "", true},
    {"train_loss", "train_loss", "", true},
    {"train_loss_step", "train_loss", "", true},
    {"train_loss_epoch", "train_loss_epoch", "", true},
    {"loss_train", "train_loss", "", true},
    {"training_loss", "train_loss", "", true},
    {"eval_loss", "eval_loss", "", true},
    {"val_loss", "eval_loss", "", true},
    {"valid_loss", "eval_loss", "", true},
    {"validation_loss", "eval_loss", "", true},
    {"loss_val", "eval_loss", "", true},
    {"loss_validation", "eval_loss", "", true},
    {"eval_accuracy", "eval_accuracy", "", true},
    {"val_acc", "val_accuracy", "", true},
    {"val_accuracy", "val_accuracy", "", true},
    {"valid_acc", "val_accuracy", "", true},
    {"validation_accuracy", "val_accuracy", "", true},
    {"accuracy_val", "val_accuracy", "", true},
    {"test_acc", "test_accuracy", "", true},
    {"test_accuracy", "test_accuracy", "", true},
    {"accuracy_test", "test_accuracy", "", true},
    {"test_loss", "test_loss", "", true},
    // Keras' TensorBoard callback: train/ and validation/ folders, "epoch_*" tags.
    {"train_epoch_loss", "train_loss", "", true},
    {"validation_epoch_loss", "eval_loss", "", true},
    {"train_epoch_accuracy", "train_accuracy", "", true},
    {"validation_epoch_accuracy", "val_accuracy", "", true},
    {"train_accuracy", "train_accuracy", "", true},
    {"learning_rate", "learning_rate", "", true},
    {"lr", "learning_rate", "", true},
    {"lr_adam", "learning_rate", "", true},
    {"grad_norm", "grad_norm", "", true},
    {"train_runtime", "train_time_s", "s", false},
    {"train_samples_per_second", "samples_per_s", "samples/s", false},
    {"train_steps_per_second", "steps_per_s", "steps/s", false},
    {"eval_runtime", "eval_runtime_s", "s", false},
    {"eval_samples_per_second", "eval_samples_per_s", "samples/s", false},
    {"eval_steps_per_second", "eval_steps_per_s", "steps/s", false},
    {"total_flos", "total_flos", "FLOP", false},
};

// Keys that are the step or the epoch of a row, not a metric.
const char *const kStepKeys[] = {"step", "epoch", "global_step", "_step", "_timestamp", "_runtime", "train_epoch"};

}   // namespace

QString MetricFileNames::normalised(const QString &key)
{
    QString k = key.trimmed().toLower();
    for (QChar &c : k)
        if (c == u'/' || c == u'-' || c == u'.' || c == u' ')
            c = u'_';
    return k;
}

MetricFileName MetricFileNames::lookup(const QString &key)
{
    static const QHash<QString, const Row *> table = [] {
        QHash<QString, const Row *> t;
        for (const Row &r : kTable)
            t.insert(QString::fromLatin1(r.key), &r);
        return t;
    }();
    const QString k = normalised(key);
    for (const char *s : kStepKeys)
        if (k == QLatin1String(s))
            return {k, QString(), false, true, true};
    if (const Row *r = table.value(k))
        return {QString::fromLatin1(r->name), QString::fromLatin1(r->unit), r->series, false, true};
    return {k, QString(), true, false, false};
}

}   // namespace scalelab
