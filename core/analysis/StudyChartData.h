// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/ScalingAnalysis.h"
#include "core/analysis/StudyScaling.h"

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

enum class StudyChart { Runtime, Speedup, Efficiency, Throughput, Accuracy, Cost, Energy };

// One point of a chart. Measured points are medians of the completed runs at
// one GPU count, `low`..`high` the range of their repeats (equal to `value`
// for one run); points of a line (ideal, Amdahl, threshold) only have gpus
// and value.
struct ChartPoint {
    double gpus = 0;
    double value = 0;
    double low = 0, high = 0;
    int runs = 0;   // completed runs behind the point; 0 for a line, a prediction or an incomplete run
    QList<qint64> runIds;   // measured: the runs, by value; incomplete: the one run
    QString jobId;   // incomplete only
    QString state;   // incomplete only: "CANCELLED by 1001", "FAILED"...
};

// What one axis shows: the range, and for the GPU axis a tick at every count used.
struct ChartAxis {
    double lower = 0, upper = 1;
    QList<int> ticks;
};

// Everything one study chart draws against the GPU count, in data units.
// Empty lists are not drawn.
struct StudyChartPanel {
    StudyChart chart = StudyChart::Runtime;
    QString metric;   // the stored metric drawn; speedup and efficiency: the basis metric
    QList<ChartPoint> measured;   // one per GPU count, by GPU count
    QList<ChartPoint> incomplete;   // runs that did not complete but left a value
    QList<ChartPoint> ideal;   // runtime 1/N, speedup N/base, throughput linear: from the baseline median
    QList<ChartPoint> amdahl;   // speedup and efficiency, only with a fit (3 or more GPU counts)
    std::optional<double> serialFraction;   // of that fit
    QList<ChartPoint> predicted;   // speedup and efficiency at 2x and 4x the largest count
    QList<ChartPoint> threshold;   // efficiency: the threshold across the chart
    QList<ChartPoint> billing;   // cost: billing × hours on the second value axis
    int baselineGpus = 0;   // what speedup is measured against; 0 = none
    bool empty = false;   // nothing measured: the chart shows a note instead
    bool overlapNote = false;   // timing charts of studies whose runs overlapped
    ChartAxis x, y;
    std::optional<ChartAxis> y2;   // cost with billing
    // Some GPU count was repeated: the measured points carry a min–max range.
    bool repeats() const;
};

// The numbers of a study's seven charts, computed once per study from its runs:
// the window's charts, the PDF report and `scalelab report --json` all read them.
class StudyChartData {
public:
    static StudyChartData build(const QList<RunMetricsRow> &rows, double threshold = 0.7);

    static QList<StudyChart> all();
    static QString id(StudyChart c);   // "runtime", "speedup", ...

    const StudyChartPanel &panel(StudyChart c) const;
    const QList<StudyChartPanel> &panels() const { return m_panels; }   // in all() order
    const StudyScalingInput &input() const { return m_input; }
    const ScalingAnalysis &analysis() const { return m_analysis; }
    double threshold() const { return m_threshold; }

private:
    StudyScalingInput m_input;
    ScalingAnalysis m_analysis;
    double m_threshold = 0.7;
    QList<StudyChartPanel> m_panels;
};

}   // namespace scalelab
