// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/RemoteExecutor.h"
#include "core/client/StartEstimates.h"

#include <QString>
#include <QStringList>

namespace scalelab {

// Asks slurmctld when a job would start, without submitting it: the script is
// uploaded once and one shell command runs `sbatch --test-only
// --partition=P` for every partition, prints the cluster's clock first and
// sshare's allocation last, then removes the upload. One remote command,
// however many partitions. Synchronous: runs on the connection's worker.
class StartEstimator {
public:
    explicit StartEstimator(RemoteExecutor &executor);

    StartEstimates estimate(const QString &script, const QStringList &partitions);

    // Public for tests: the shell body and the reading of its output.
    static QString shellBody(const QString &dir, const QStringList &partitions);
    static StartEstimates parseOutput(const QString &out);
    static constexpr int kMaxPartitions = 16;

private:
    RemoteExecutor &m_exec;
};

}   // namespace scalelab
