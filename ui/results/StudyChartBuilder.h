// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/StudyChartData.h"

#include <QList>
#include <QString>

class QCustomPlot;

namespace scalelab {

// Draws one study chart of StudyChartData into a QCustomPlot: it computes no
// number, only puts the panel's points, lines and axis ranges on the plot.
// Graph object names are stable ("measured", "ideal", "amdahl", "threshold",
// "predicted", "billing", "incomplete", "range"), so tests and exports can
// find them. "measured" holds one point per GPU count (the median of the
// completed runs), with min–max bars ("range") when a count was repeated.
// Runs that did not complete are the hollow "incomplete" points, labelled
// with their state; an overlap of runs on shared nodes is noted on the
// timing charts.
class StudyChartBuilder {
public:
    static QList<StudyChart> all() { return StudyChartData::all(); }
    static QString id(StudyChart c) { return StudyChartData::id(c); }   // "runtime", "speedup", ...
    static QString title(StudyChart c);

    static void build(QCustomPlot *plot, const StudyChartPanel &panel);
};

}   // namespace scalelab
