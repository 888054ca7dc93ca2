// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/RunColours.h"

#include <array>

namespace scalelab {

QColor RunColours::forRun(qint64 runId)
{
    // Tableau-10-like hues, dark enough for a white background.
    static const std::array<QRgb, 10> palette = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                                 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};
    // splitmix64 finaliser: neighbouring ids land on different colours.
    quint64 x = quint64(runId) + 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return QColor::fromRgb(palette[size_t(x % palette.size())]);
}

QColor RunColours::shade(const QColor &base, int index, int count)
{
    if (count <= 1)
        return base;
    // From darker to lighter around the base colour.
    const int factor = 70 + (index * 80) / (count - 1);
    return factor >= 100 ? base.lighter(factor) : base.darker(200 - factor);
}

}   // namespace scalelab
