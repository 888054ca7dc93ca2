// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QByteArray>

namespace scalelab {

class MetricFileCollector;

// One run of MLflow's file store (mlflow/store/tracking/file_store.py):
// mlruns/<experiment id>/<run id>/ holds metrics/<name>, one line per logged
// value "<timestamp ms> <value> <step>" (MLflow before 1.0 wrote no step),
// and params/<name>, the parameter's value as the whole file. A name with '/'
// is a sub-folder (metrics/train/loss is "train/loss"). Files are read in
// name order; each through InputLimits (16 MB); at most kMaxFiles of them.
class MlflowRunReader {
public:
    static MetricFileResult read(const QString &runDir);
    // One metric file's lines; `name` is the metric's name, `path` the file.
    static void parseMetric(const QByteArray &data, const QString &name, const QString &path, MetricFileCollector &out);

    static constexpr int kMaxFiles = 10000;
};

}   // namespace scalelab
