// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/analysis: the words and the cost of a point that the
// analysis (ScalingAnalysis.cpp) and its advice (ScalingAdvice.cpp)
// both use.

#include "core/analysis/ScalingAnalysis.h"

#include <QString>

#include <cmath>

namespace scalelab::scaling {

inline QString gpuWord(int n)
{
    return n == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(n);
}

inline QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(qint64(std::round(fraction * 100.0)));
}

// Time-like cost of a point in basis units: runtime, or 1/throughput.
inline double cost(const ScalingPoint &p, ScalingBasis basis)
{
    return basis == ScalingBasis::Runtime ? p.runtimeSeconds.value_or(NAN) : 1.0 / p.throughput.value_or(NAN);
}

}   // namespace scalelab::scaling
