// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace scalelab {

// The thresholds of the live alerts (core/ingest/AlertRules) and which rules
// are on. Defaults are the ones a researcher meets; tests shorten the windows
// to seconds. Settings keep them under "alerts/" (AlertSettings).
struct AlertThresholds {
    double idlePercent = 5;   // a GPU under this utilisation is idle
    double idleSeconds = 300;   // ... for this long (after warm-up) raises gpu-idle
    double warmupSeconds = 120;   // from the run's first GPU sample: loading, compiling
    double silentSeconds = 300;   // output unchanged this long while every GPU is idle: likely-hang
    double throughputDrop = 1.0 / 3.0;   // latest below (1 - this) x the run's own median
    int throughputMinValues = 5;   // values needed before the median counts
    QStringList disabled;   // rule ids switched off

    bool enabled(const QString &ruleId) const { return !disabled.contains(ruleId); }
    bool operator==(const AlertThresholds &) const = default;
};

// One alert raised on a run: which rule, what it saw, what to do. A rule is
// raised once per run (the store keeps the first).
struct AlertRecord {
    qint64 id = 0;   // store row, 0 before it is stored
    qint64 runId = 0;
    QString rule;   // AlertRules id: "gpu-idle", "likely-hang", ...
    QString title;   // "GPUs idle"
    QString evidence;   // "GPU node1:2 under 5 % for 312 s while node1:0 works"
    QString action;   // what the researcher can do
    QDateTime raisedAt;   // UTC
    bool notified = false;   // the window has shown it (desktop notification or summary)

    bool operator==(const AlertRecord &) const = default;
};

}   // namespace scalelab
