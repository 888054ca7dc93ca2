// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "core/analysis/QueueWaitStats.h"
#include "core/model/RunRecord.h"

#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

namespace scalelab {

class RunStore;

// The job name Slurm was given: the #SBATCH line of the script as uploaded.
QString jobNameOf(const RunRecord &r);
nlohmann::ordered_json runJson(const RunRecord &r);
// A pending run's reason in words, advice, expected start and the median past
// wait of jobs like it (PendingRunText); null when the run is not pending.
nlohmann::ordered_json pendingJson(const RunRecord &r, const QList<QueueWaitMedian> &medians);
// With --json the human lines go to stderr and the command prints one
// document at the end; a run given to it by id is read back from the store.
nlohmann::ordered_json storedRunsJson(RunStore &store, const QList<qint64> &ids);
// The run's sacct record, or null when none is stored.
nlohmann::ordered_json accountingJson(RunStore &store, qint64 runId);

}   // namespace scalelab
