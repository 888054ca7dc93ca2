// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

namespace scalelab {

// A run keeps its colour in every chart and session: a hash of its id picks
// one of a fixed palette of distinguishable colours.
class RunColours {
public:
    static QColor forRun(qint64 runId);
    // Shade `index` of `count` of a run's colour, for its GPUs.
    static QColor shade(const QColor &base, int index, int count);
};

}   // namespace scalelab
