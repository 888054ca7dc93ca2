// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/RemoteExecutor.h"
#include "core/client/SlurmClientResults.h"
#include "core/store/RunStore.h"

#include <QString>

namespace scalelab {

// Brings a run's files from the cluster into RunStore::runFilesDirectory
// (SlurmClient::fetch and tailOutput): the scalelab-* files the job script
// writes, the frameworks' own metric files under the run's folder, and the
// growing job output, appended from where the last tail stopped.
class RunFileFetcher {
public:
    RunFileFetcher(RemoteExecutor &executor, RunStore &store);

    // The run's scalelab-* files (whole, up to maxBytesPerFile each), then its metric files.
    FetchResult fetch(qint64 runId, qint64 maxBytesPerFile);
    // New bytes of scalelab-<jobid>.out since the last fetch, appended locally.
    TailResult tailOutput(qint64 runId, qint64 maxBytes);

private:
    // The metric files (MetricFileScanner::isMetricFileName: trainer_state.json,
    // Lightning metrics.csv/hparams.yaml, TensorBoard events, mlruns/, W&B
    // files/) under the run's folder (the job's working directory, where the
    // frameworks' default folders lie), at most kMaxMetricFiles of at most
    // 16 MB each, kept at the same relative path under <local>/metricfiles/.
    // Larger files are listed in `truncated` and not fetched.
    void fetchMetricFiles(qint64 runId, const QString &remoteDir, const QString &localDir, FetchResult &result);

    static constexpr int kMaxMetricFiles = 500;
    static constexpr int kMetricFileDepth = 6;

    static constexpr int kQueryTimeoutMs = 60000;   // each remote command

    RemoteExecutor &m_exec;
    RunStore &m_store;
};

}   // namespace scalelab
