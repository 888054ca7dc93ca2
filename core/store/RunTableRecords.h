// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/MetricRecord.h"
#include "core/model/RunRecord.h"
#include "core/model/StudyRecord.h"
#include "core/slurm/SacctRecord.h"

#include <QHash>
#include <QList>

namespace scalelab {

// Everything the runs table shows, read in a fixed number of queries
// (RunStore::tableRecords) instead of two per run: with 100,000 runs the
// per-run form took minutes, this takes about as long as sqlite3 itself.
struct RunTableRecords {
    QList<StudyRecord> studies;
    QList<RunRecord> runs;   // by id; `script` only when one study was read
    QHash<qint64, QList<MetricRecord>> metrics;   // run id -> its metrics
    QHash<qint64, SacctRecord> accounting;   // run id -> its accounting, where stored
};

}   // namespace scalelab
