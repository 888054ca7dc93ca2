// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QVector>

#include <optional>

namespace scalelab {

// What Jobs draws of one running run (LiveRunState::view): per GPU its latest
// use, memory and recent use, and the throughput the log last printed. A
// value copy, handed from the cluster's worker to the GUI thread.
struct LiveGpuView {
    QString key;   // "host:index"
    double utilPercent = 0;   // latest; NaN when the tool printed none
    double memUsedMiB = 0;   // latest; NaN when unknown
    std::optional<double> memTotalMiB;
    QVector<double> recentUtil;   // oldest first, at most LiveRunState::view's `recent`
};

struct LiveRunView {
    qint64 runId = 0;   // 0: nothing known
    QList<LiveGpuView> gpus;
    std::optional<double> throughput;   // the latest value the log printed
    QString throughputName;   // "samples_per_s"
    QString throughputUnit;   // "samples/s"
};

}   // namespace scalelab
