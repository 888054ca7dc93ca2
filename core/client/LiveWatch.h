// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/LiveFetch.h"
#include "core/client/RemoteExecutor.h"
#include "core/ingest/LiveRunState.h"
#include "core/model/Alerts.h"
#include "core/model/RunRecord.h"

#include <QHash>
#include <QList>
#include <QStringList>

namespace scalelab {

class RunStore;

struct LiveCycleReport {
    int remoteCommands = 0;   // 0 (nothing running) or 1, whatever the number of runs
    qint64 bytes = 0;   // file bytes fetched in this cycle
    qint64 maxBytesPerFile = 0;   // the cap this cycle used
    QList<qint64> runs;   // running runs watched in this cycle (their live state may have changed)
    QList<qint64> outputGrew;   // runs whose output grew
    QList<LiveRunView> views;   // of every run watched in this cycle, for Jobs
    QList<AlertRecord> newAlerts;   // raised in this cycle (stored)
    QStringList errors;
};

// The live part of a poll cycle: for every running run of a cluster, the new
// bytes of its GPU sample files and output in one remote command (LiveFetch),
// appended to the local copies (offsets in the store's file records, as the
// output tail keeps them), fed into each run's LiveRunState, and the alert
// rules (AlertRules) evaluated; a new alert is stored (RunStore::recordAlert).
// Lives as long as its caller polls (a cluster's worker, one CLI command); a
// run it has not seen yet starts from what its local copies hold. Not
// thread-safe: one worker thread.
class LiveWatch {
public:
    static constexpr qint64 kMaxBytesPerFile = 1024 * 1024;
    static constexpr qint64 kMaxBytesPerCycle = 8 * 1024 * 1024;

    // `now`: epoch seconds (the output's silence is measured on it).
    LiveCycleReport cycle(RemoteExecutor &exec, RunStore &store, const QList<RunRecord> &running,
                          const AlertThresholds &thresholds, double now);
    const LiveRunState *state(qint64 runId) const;
    // Caps per file and per cycle (a cycle's files share the latter).
    void setCaps(qint64 perFile, qint64 perCycle);

private:
    LiveRunState &stateFor(RunStore &store, const RunRecord &run, double now);
    void keep(RunStore &store, const RunRecord &run, const LiveChunk &c, LiveCycleReport &rep, double now);

    QHash<qint64, LiveRunState> m_states;
    qint64 m_perFile = kMaxBytesPerFile;
    qint64 m_perCycle = kMaxBytesPerCycle;
};

}   // namespace scalelab
