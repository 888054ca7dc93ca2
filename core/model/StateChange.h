// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SlurmJobState.h"

#include <QDateTime>
#include <QString>

namespace scalelab {

// One entry of a run's state history (what the poller saw, and when).
struct StateChange {
    qint64 runId = 0;
    JobState state = JobState::Unknown;
    QString reason;
    QDateTime at;   // UTC

    bool operator==(const StateChange &) const = default;
};

}   // namespace scalelab
