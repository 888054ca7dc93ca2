// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/MetricFileData.h"

#include <QByteArray>

namespace scalelab {

// Lightning's CSVLogger metrics.csv (lightning/fabric/loggers/csv_logs.py,
// ExperimentWriter): a header row naming every key logged so far (written
// again, whole, when a new key appears), then one row per logging call with
// "step" (and "epoch" when the module logs it) and the keys logged at that
// step; the others are empty. Fields follow Python's csv module: comma
// separated, double-quoted when they hold a comma or quote. Linear in the file.
class LightningCsvReader {
public:
    static MetricFileResult read(const QString &path);
    static MetricFileResult parse(const QByteArray &data, const QString &name);
};

}   // namespace scalelab
