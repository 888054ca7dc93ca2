// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCustomPlot;
class QFontMetrics;

namespace scalelab {

// A vertical axis is only as tall as its chart: in the small study charts of a
// 1100×680 window a label such as "efficiency (speedup / GPUs)" was cut at both
// ends. After each layout of the plot every axis label is fitted to the length
// of its axis: the label as set, else the label without its bracketed parts,
// else the unit alone, else cut at the end with an ellipsis. The label as set
// is kept (the axis's property "fullLabel") and comes back when the chart grows.
class AxisLabelFit {
public:
    // Connects to plot's afterLayout; call once per plot.
    static void install(QCustomPlot *plot);
    // The text shown for full in room pixels (pure).
    static QString fitted(const QString &full, const QFontMetrics &metrics, int room);
};

}   // namespace scalelab
