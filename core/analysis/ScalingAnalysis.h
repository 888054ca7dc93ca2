// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// One run of the same job at some GPU count, as measured.
struct ScalingRun {
    QString label;                          // e.g. the job id, used in messages
    int gpus = 0;
    std::optional<double> runtimeSeconds;   // e.g. train time from the log, or sacct Elapsed
    std::optional<double> throughput;       // samples/s
    std::optional<double> gpuHours;         // from accounting; else gpus * runtime
    std::optional<double> meanGpuUtilPercent;
    std::optional<double> accuracy;
    bool failed = false;                    // did not complete (FAILED, TIMEOUT, CANCELLED...)
    QString state;                          // shown when failed
};

// One GPU count, measured (runs averaged) or predicted.
struct ScalingPoint {
    int gpus = 0;
    int runs = 0;                           // 0 for a prediction
    bool predicted = false;
    std::optional<double> runtimeSeconds;
    std::optional<double> throughput;
    double speedup = 1.0;                   // vs the baseline (smallest GPU count)
    double efficiency = 1.0;                // speedup / (gpus / baseline gpus)
    std::optional<double> gpuHours;
    std::optional<double> meanGpuUtilPercent;
    std::optional<double> accuracy;
};

// runtime(N) = T1 * (s + (1 - s) / N), fitted by least squares.
struct AmdahlFit {
    double serialFraction = 0;              // s, 0..1
    std::optional<double> t1Seconds;        // only when runtimes were fitted
    double r2 = 0;
    int points = 0;                         // distinct GPU counts used; 2 fits exactly
};

enum class ScalingBasis { Runtime, Throughput };

// Speedup, efficiency, an Amdahl fit and a recommendation for a set of runs
// of one job at different GPU counts. Speedup uses runtimes when every usable
// run has one, else throughputs.
class ScalingAnalysis {
public:
    static ScalingAnalysis analyze(const QList<ScalingRun> &runs, double efficiencyThreshold = 0.7);

    const QList<ScalingPoint> &points() const { return m_points; }           // measured, by GPU count
    const QList<ScalingPoint> &predictions() const { return m_predictions; } // 2x and 4x the largest
    const std::optional<AmdahlFit> &amdahl() const { return m_amdahl; }
    ScalingBasis basis() const { return m_basis; }
    int baselineGpus() const { return m_baselineGpus; }                      // 0 when nothing usable
    int recommendedGpus() const { return m_recommendedGpus; }                // 0 when nothing usable
    double efficiencyThreshold() const { return m_threshold; }
    bool tooSmallToScale() const { return m_tooSmall; }
    const Diagnostics &diagnostics() const { return m_diagnostics; }         // warnings about runs

    // One sentence: which GPU count to use and what the next doubling costs.
    QString summary() const { return m_summary; }
    // Further sentences: low GPU utilisation, accuracy changes, left-out runs.
    QStringList warnings() const { return m_warnings; }
    // summary() followed by warnings(), for display.
    QString advice() const;

private:
    void fit();
    void predict();
    void recommend();

    QList<ScalingPoint> m_points;
    QList<ScalingPoint> m_predictions;
    std::optional<AmdahlFit> m_amdahl;
    double m_fitA = 0, m_fitB = 0;          // cost(N) = a + b / N in basis units
    ScalingBasis m_basis = ScalingBasis::Runtime;
    int m_baselineGpus = 0;
    int m_recommendedGpus = 0;
    double m_threshold = 0.7;
    bool m_tooSmall = false;
    Diagnostics m_diagnostics;
    QString m_summary;
    QStringList m_warnings;
};

} // namespace scalelab
