// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/QueueWaitStats.h"
#include "core/model/RunRecord.h"

#include <QString>

#include <optional>

namespace scalelab {

// Why a pending run waits and what to do, in words (PendingReason's table),
// with Slurm's expected start and the median past wait of the researcher's
// jobs like it. Read by Jobs and `scalelab status`.
struct PendingRunInfo {
    bool pending = false;
    QString reason;   // Slurm's word
    QString words;   // what it means
    QString advice;   // what to do
    bool blocked = false;   // waiting alone does not start it
    QString expectedStart;   // "2026-11-27T08:24:58" (cluster time), "" unknown
    std::optional<QueueWaitMedian> pastWait;

    // "Waits: <words> (Resources). <advice> Expected start 2026-11-27 08:24:58 (cluster time); median past wait ..."
    QString text() const;
};

class PendingRunText {
public:
    static PendingRunInfo of(const RunRecord &run, const QList<QueueWaitMedian> &medians);
};

}   // namespace scalelab
