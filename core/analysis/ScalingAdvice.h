// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/ScalingAnalysis.h"

namespace scalelab {

// The advice in words (which GPU count to use, what the next doubling costs,
// low utilisation, accuracy, a poor fit), apart from the numbers of the
// ScalingAnalysis it is built from.
class ScalingAdvice {
public:
    // fitA, fitB: the fitted cost model, cost(N) = a + b / N in basis units.
    ScalingAdvice(const ScalingAnalysis &analysis, double fitA, double fitB);

    QString summary() const { return m_summary; }
    QStringList warnings() const { return m_warnings; }
    int recommendedGpus() const { return m_recommendedGpus; }   // 0 when nothing usable
    bool tooSmallToScale() const { return m_tooSmall; }

private:
    void recommend();
    void warnLowUtilisation();
    void summariseTooSmall(const ScalingPoint &best, const QStringList &slower);
    QString nextDoubling(const ScalingPoint &rec) const;
    void warnAccuracyAndFit(const ScalingPoint &rec);

    const QList<ScalingPoint> m_points;
    const QList<ScalingPoint> m_predictions;
    const std::optional<AmdahlFit> m_amdahl;
    const double m_fitA, m_fitB;
    const ScalingBasis m_basis;
    const int m_baselineGpus;
    const double m_threshold;
    QString m_summary;
    QStringList m_warnings;
    int m_recommendedGpus = 0;
    bool m_tooSmall = false;
};

}   // namespace scalelab
