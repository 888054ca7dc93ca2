// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/SlurmClientResults.h"
#include "core/model/MetricFileLocations.h"
#include "core/model/RunRecord.h"

#include <QList>
#include <QSet>
#include <QString>

#include <optional>

namespace scalelab {

class RemoteExecutor;
class RunStore;

// Brings back the metric files a finished job's frameworks wrote
// (MetricFileScanner::isMetricFileName: trainer_state.json, Lightning
// metrics.csv/hparams.yaml, TensorBoard events, mlruns/, W&B files/) from
// every folder MetricFileLocations names for the run's spec: the run folder
// first (kept at the same relative path under <local>/metricfiles/), then
// each other folder under <local>/metricfiles/location-N/. At most kMaxFiles
// files of at most 16 MB each over all folders, kDepth levels deep; a file
// reached twice (a folder inside another) is fetched once. Larger files are
// listed in `truncated`, not fetched. Names only come from the cluster; which
// of them are fetched is decided here, not by the shell.
class MetricFileFetch {
public:
    MetricFileFetch(RemoteExecutor &exec, RunStore &store);
    void run(const RunRecord &run, const QString &localDir, FetchResult &result);

    static constexpr int kMaxFiles = 500;
    static constexpr int kDepth = 6;

    struct Entry {
        qint64 size = 0;
        QString relative;
    };
    struct Listing {
        QString base;   // the folder's absolute path on the cluster
        QList<Entry> entries;
    };

private:
    std::optional<Listing> listRunFolder(const QString &remoteDir);
    std::optional<Listing> listLocation(const QString &remoteDir, const MetricFileLocation &where);
    void take(qint64 runId, const Listing &listing, const QString &localFolder, FetchResult &result);
    void takeOne(qint64 runId, const QString &remote, const QString &local, FetchResult &result);

    RemoteExecutor &m_exec;
    RunStore &m_store;
    QSet<QString> m_seen;   // remote paths listed so far
    int m_taken = 0;
};

}   // namespace scalelab
