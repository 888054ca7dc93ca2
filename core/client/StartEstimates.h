// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/discovery/SshareAllocationParser.h"
#include "core/slurm/SbatchTestOnlyParser.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// sbatch --test-only's answer for one partition.
struct PartitionStart {
    QString partition;
    int exitCode = -1;
    TestOnlyReply reply;
    std::optional<qint64> waitSeconds;   // reply start - the cluster's clock when asked, >= 0
    // "now", "in about 2 h", "refused (QOSMaxGRESPerJob)", "no answer".
    QString words() const;
};

// When a job would start in each partition that fits it, and what is left
// of the allocation, from one remote command (StartEstimator).
struct StartEstimates {
    std::optional<qint64> clusterNow;   // the cluster's clock (local time read as UTC, as SlurmTime)
    QList<PartitionStart> partitions;
    RemainingAllocation allocation;
    QString error;   // transport or upload failure: nothing else is set
    Diagnostics diagnostics;

    bool ok() const { return error.isEmpty(); }
    // "gputest: now, gpu: in about 2 h".
    QString summary() const;
    // The summary with each partition's past wait in words beside it
    // ("median past wait about 20 min (5 jobs)", QueueWaitMedian::text, when
    // the store has any), then the remaining allocation.
    QString describe(const QHash<QString, QString> &pastWaitByPartition = {}) const;
};

}   // namespace scalelab
