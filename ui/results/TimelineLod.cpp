// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/TimelineLod.h"

#include <algorithm>
#include <cmath>

namespace scalelab {

namespace {

constexpr qsizetype kSmall = 4096;   // no pyramid below this many samples

bool keyLess(const QCPGraphData &a, double k)
{
    return a.key < k;
}

// Min and max of one bucket in time order; a bucket with only NaN keeps a gap.
void appendEnvelope(QVector<QCPGraphData> &out, const QCPGraphData *begin, const QCPGraphData *end)
{
    const QCPGraphData *lo = nullptr, *hi = nullptr;
    for (const QCPGraphData *p = begin; p != end; ++p) {
        if (std::isnan(p->value))
            continue;
        if (!lo || p->value < lo->value)
            lo = p;
        if (!hi || p->value > hi->value)
            hi = p;
    }
    if (!lo) {
        out.append(QCPGraphData(begin->key, qQNaN()));
        return;
    }
    if (lo == hi) {
        out.append(*lo);
    } else if (lo->key <= hi->key) {
        out.append(*lo);
        out.append(*hi);
    } else {
        out.append(*hi);
        out.append(*lo);
    }
}

}   // namespace

TimelineLod::TimelineLod(const QVector<double> &seconds, const QVector<double> &values, double offset)
{
    const qsizetype n = std::min(seconds.size(), values.size());
    m_base.resize(n);
    for (qsizetype i = 0; i < n; ++i)
        m_base[i] = QCPGraphData(seconds[i] + offset, values[i]);
    if (!std::is_sorted(m_base.cbegin(), m_base.cend(), qcpLessThanSortKey<QCPGraphData>))
        std::stable_sort(m_base.begin(), m_base.end(), qcpLessThanSortKey<QCPGraphData>);
    if (n <= kSmall)
        return;
    // Level 0: buckets of 4 samples from the base; each next level merges two
    // buckets by taking the envelope of their (at most 4) envelope points.
    qsizetype bucket = 4;
    QVector<QCPGraphData> level;
    level.reserve(n / 2 + 2);
    for (qsizetype i = 0; i < n; i += bucket)
        appendEnvelope(level, m_base.constData() + i, m_base.constData() + std::min(n, i + bucket));
    m_levels << level;
    m_bucketSamples << bucket;
    while (m_levels.last().size() > 512) {
        const QVector<QCPGraphData> &prev = m_levels.last();
        const double span = m_base.last().key - m_base.first().key;
        bucket *= 2;
        // Bucket boundaries in time, so points from both halves merge correctly.
        const double width = span * double(bucket) / double(n);
        QVector<QCPGraphData> next;
        next.reserve(prev.size() / 2 + 2);
        qsizetype i = 0;
        const double origin = m_base.first().key;
        while (i < prev.size()) {
            const double end = origin + (std::floor((prev[i].key - origin) / width) + 1) * width;
            qsizetype j = i;
            while (j < prev.size() && prev[j].key < end)
                ++j;
            appendEnvelope(next, prev.constData() + i, prev.constData() + j);
            i = j;
        }
        if (next.size() >= prev.size())
            break;   // no further reduction (very uneven times)
        m_levels << next;
        m_bucketSamples << bucket;
    }
}

QVector<QCPGraphData> TimelineLod::slice(const QVector<QCPGraphData> &data, double lower, double upper)
{
    auto first = std::lower_bound(data.cbegin(), data.cend(), lower, keyLess);
    auto last = std::lower_bound(first, data.cend(), upper, keyLess);
    if (first != data.cbegin())
        --first;   // one point before, so the line enters the view
    if (last != data.cend())
        ++last;   // and one after
    return QVector<QCPGraphData>(first, last);
}

QVector<QCPGraphData> TimelineLod::points(double lower, double upper, int pixels) const
{
    if (m_levels.isEmpty())
        return slice(m_base, lower, upper);
    auto first = std::lower_bound(m_base.cbegin(), m_base.cend(), lower, keyLess);
    auto last = std::lower_bound(first, m_base.cend(), upper, keyLess);
    const qsizetype visible = last - first;
    const qsizetype budget = std::max(pixels / 2, 64);   // buckets
    if (visible <= 2 * budget)
        return slice(m_base, lower, upper);
    // The finest level with at most one bucket (its min and max) per two
    // pixels: about one point per pixel, like the raw samples of a short run.
    int k = 0;
    while (k + 1 < m_levels.size() && visible / m_bucketSamples[k] > budget)
        ++k;
    return slice(m_levels[k], lower, upper);
}

double TimelineLod::valueAt(double x) const
{
    auto it =
        std::upper_bound(m_base.cbegin(), m_base.cend(), x, [](double k, const QCPGraphData &d) { return k < d.key; });
    if (it == m_base.cbegin())
        return qQNaN();
    return (it - 1)->value;
}

}   // namespace scalelab
