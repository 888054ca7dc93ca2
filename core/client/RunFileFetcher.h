// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/RemoteExecutor.h"
#include "core/client/SlurmClientResults.h"
#include "core/store/RunStore.h"

#include <QString>

namespace scalelab {

// Brings a run's files from the cluster into RunStore::runFilesDirectory
// (SlurmClient::fetch and tailOutput): the scalelab-* files the job script
// writes, the frameworks' own metric files (MetricFileFetch), and the
// growing job output, appended from where the last tail stopped.
class RunFileFetcher {
public:
    RunFileFetcher(RemoteExecutor &executor, RunStore &store);

    // The run's scalelab-* files (whole, up to maxBytesPerFile each), then its metric files.
    FetchResult fetch(qint64 runId, qint64 maxBytesPerFile);
    // New bytes of scalelab-<jobid>.out since the last fetch, appended locally.
    TailResult tailOutput(qint64 runId, qint64 maxBytes);
    // Appends `data` to the local copy `local`, which holds `offset` bytes;
    // a refused write cuts it back (the one appending writer of run files).
    static Result<void> appendChunk(const QString &local, qint64 offset, const QByteArray &data);

private:
    static constexpr int kQueryTimeoutMs = 60000;   // each remote command

    RemoteExecutor &m_exec;
    RunStore &m_store;
};

}   // namespace scalelab
