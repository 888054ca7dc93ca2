// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QStringList>

namespace scalelab {

// Finds the frameworks' own metric files in a folder (or takes one file) and
// reads each with its reader: Hugging Face trainer_state.json
// (TrainerStateReader), Lightning metrics.csv + hparams.yaml
// (LightningCsvReader, HparamsYamlReader), TensorBoard events.out.tfevents.*
// (TensorBoardEventReader), MLflow runs (a folder with meta.yaml and
// metrics/: MlflowRunReader) and W&B runs (files/wandb-summary.json or
// files/wandb-history.jsonl: WandbRunReader). When a format has several
// runs in the folder (checkpoint-*/trainer_state.json, version_0, version_1,
// several mlruns runs), the most recently written one is read and the others
// are named in a note: values of different runs are never merged.
// TensorBoard files of one folder (a job restarted) are one run, read in name
// order; Keras' train/ and validation/ folders are one run whose tags get the
// folder's name in front ("validation/epoch_loss").
// The walk follows no symbolic link and stops after kMaxEntries entries.
class MetricFileScanner {
public:
    static MetricFileResult scan(const QString &path);
    // The metric files among `paths` (e.g. a run's fetched files), read as above.
    static MetricFileResult readFiles(const QStringList &paths);
    // Whether the file's name is one of the formats' (a quick test on the name).
    static bool isMetricFile(const QString &path);
    // The same test on a path's text alone (no disk): what fetch brings back
    // from the cluster. MLflow: meta.yaml, metrics/* and params/* under an
    // mlruns/ folder.
    static bool isMetricFileName(const QString &path);
    // What scan() looks for, for "nothing found" messages.
    static QString lookedFor();

    static constexpr int kMaxEntries = 20000;
};

}   // namespace scalelab
