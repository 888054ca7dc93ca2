// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/LiveRunState.h"
#include "core/model/Alerts.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace scalelab {

// One alert rule: its id, what it means, what to do, and the test that
// gives its evidence (nullopt: not raised) from a run's live state.
struct AlertRule {
    QString id;   // stable: settings, the store and `status --json` name rules by it
    QString title;
    QString action;
    std::function<std::optional<QString>(const LiveRunState &, const AlertThresholds &, double now)> evidence;
};

// The live alerts of a running run, as one table (table()):
//   gpu-idle         a GPU under idlePercent for idleSeconds after warm-up while another works, or all of them
//   likely-hang      the output silent for silentSeconds while every GPU is idle that long
//   nccl-error       an NCCL/RCCL watchdog or ncclSystemError line in the output
//   gpu-oom          a CUDA/HIP out-of-memory line
//   node-idle        every GPU of one node idle for idleSeconds while another node works
//   throughput-drop  the latest throughput under (1 - throughputDrop) x the run's own median
// Pure: `now` is the caller's clock (epoch seconds), used only for the output's silence.
class AlertRules {
public:
    static const QList<AlertRule> &table();
    static const AlertRule *find(const QString &id);
    // The rules that hold now and are switched on, as records of `runId` (raisedAt = now).
    static QList<AlertRecord> evaluate(qint64 runId, const LiveRunState &state, const AlertThresholds &thresholds,
                                       double now);
    // How long a GPU has been under `percent` at its last sample, counted from
    // `notBefore` at the earliest (warm-up); 0 when its last sample works.
    static double idleSeconds(const LiveGpu &gpu, double percent, double notBefore);
};

}   // namespace scalelab
