// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/StudyScaling.h"

#include <QList>
#include <QString>

class QCustomPlot;

namespace scalelab {

enum class StudyChart { Runtime, Speedup, Efficiency, Throughput, Accuracy, Cost };

// Fills one QCustomPlot with one study chart against the GPU count. Graph
// names are stable ("measured", "ideal", "Amdahl fit", "threshold",
// "predicted", "billing"), so tests and exports can find them; "measured"
// holds exactly the stored metric values (one point per run for runtime,
// throughput, accuracy and cost; one per GPU count for speedup and
// efficiency, which ScalingAnalysis averages).
class StudyChartBuilder {
public:
    static QList<StudyChart> all();
    static QString id(StudyChart c);      // "runtime", "speedup", ...
    static QString title(StudyChart c);

    static void build(QCustomPlot *plot, StudyChart chart, const QList<RunMetricsRow> &rows,
                      const StudyScalingInput &input, const ScalingAnalysis &analysis, double threshold);
};

} // namespace scalelab
