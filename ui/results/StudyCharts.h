// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/StudyChartData.h"
#include "ui/results/StudyChartBuilder.h"

#include <QList>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace scalelab {

// One study against the GPU count: the scaling advisor's sentence and
// warnings on top, then six charts (runtime with the ideal 1/N line, speedup
// with ideal and Amdahl fit, efficiency with the threshold, throughput,
// accuracy, GPU-hours/billing). Completed runs are drawn at the median of
// their repeats with min–max bars; runs that did not complete are hollow and
// labelled. Hover shows the values; the export button (or right-click) saves one.
class StudyCharts : public QWidget {
    Q_OBJECT
public:
    explicit StudyCharts(QWidget *parent = nullptr);

    // The charts fill the scroll area's viewport (down to their minimum
    // size): a height-for-width taken from the plots' size hints would make
    // the grid taller than the window and cut the bottom row's legends.
    bool hasHeightForWidth() const override { return false; }

    // The runs of one study (others are ignored by the caller). Rows that
    // draw the same as last time (same runs, states and metric values) are
    // not redrawn: every Results reload calls this.
    void setRows(const QList<RunMetricsRow> &rows, const QString &studyName);
    int buildCount() const { return m_builds; }   // how often the charts were really redrawn
    static QByteArray contentKey(const QList<RunMetricsRow> &rows, const QString &studyName);

    QCustomPlot *chart(StudyChart c) const;
    // The numbers drawn, computed once per setRows (the PDF report reads them too).
    const StudyChartData &data() const { return m_data; }
    const ScalingAnalysis &analysis() const { return m_data.analysis(); }
    const StudyScalingInput &input() const { return m_data.input(); }
    QString adviceText() const;   // the summary sentence as shown
    QStringList warningTexts() const;
    double threshold() const { return m_threshold; }

private:
    void showTooltip(QCustomPlot *plot, QMouseEvent *event);

    QLabel *m_advice = nullptr;
    QLabel *m_warnings = nullptr;
    QList<QCustomPlot *> m_plots;   // in StudyChartBuilder::all() order
    StudyChartData m_data;
    QString m_studyName;
    double m_threshold = 0.7;
    QByteArray m_key;
    bool m_built = false;
    int m_builds = 0;
};

}   // namespace scalelab
