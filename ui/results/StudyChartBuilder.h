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
// object names are stable ("measured", "ideal", "amdahl", "threshold",
// "predicted", "billing", "incomplete", "range"), so tests and exports can
// find them. "measured" holds one point per GPU count: the median of the
// completed runs' stored values (StudyScaling::summarize; speedup and
// efficiency from ScalingAnalysis), with min–max bars ("range") when a count
// was repeated. Runs that did not complete are the hollow "incomplete" points,
// labelled with their state; an overlap of runs on shared nodes is noted on
// the timing charts.
class StudyChartBuilder {
public:
    static QList<StudyChart> all();
    static QString id(StudyChart c);   // "runtime", "speedup", ...
    static QString title(StudyChart c);

    static void build(QCustomPlot *plot, StudyChart chart, const QList<RunMetricsRow> &rows,
                      const StudyScalingInput &input, const ScalingAnalysis &analysis, double threshold);
};

}   // namespace scalelab
