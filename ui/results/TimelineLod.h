// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/results/QCustomPlotInclude.h"

#include <QList>
#include <QVector>

namespace scalelab {

// Level of detail for one long time series (a GPU's 48 h at 1 Hz): a
// pyramid of min/max envelopes, each level halving the previous one. A view
// asks for the points of its visible time range at about its pixel width
// and gets the original samples when they are few enough, else the min and
// max of each bucket in time order, so peaks and dips stay visible and a
// replot costs the same for 10 k or 10 M samples. Missing samples (NaN)
// stay gaps.
class TimelineLod {
public:
    TimelineLod() = default;
    // `seconds` ascending (as GpuSampleParser gives them); `offset` is added.
    TimelineLod(const QVector<double> &seconds, const QVector<double> &values, double offset = 0);

    qsizetype size() const { return m_base.size(); }
    int levels() const { return int(m_levels.size()); }
    // Points for [lower, upper], about one per pixel (plus one outside each end).
    QVector<QCPGraphData> points(double lower, double upper, int pixels) const;
    // The sample in effect at time x (the last at or before it); NaN when none.
    double valueAt(double x) const;

private:
    static QVector<QCPGraphData> slice(const QVector<QCPGraphData> &data, double lower, double upper);

    QVector<QCPGraphData> m_base;   // the samples, sorted by time
    QList<QVector<QCPGraphData>> m_levels;   // level k: buckets of 4 * 2^k samples, min/max pairs
    QList<qsizetype> m_bucketSamples;   // samples per bucket of each level
};

}   // namespace scalelab
