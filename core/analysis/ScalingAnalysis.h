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
    QString label;   // e.g. the job id, used in messages
    int gpus = 0;
    std::optional<double> runtimeSeconds;   // e.g. train time from the log, or sacct Elapsed
    std::optional<double> throughput;   // samples/s
    std::optional<double> gpuHours;   // from accounting; else gpus * runtime
    std::optional<double> meanGpuUtilPercent;
    std::optional<double> accuracy;
    bool failed = false;   // did not complete (FAILED, TIMEOUT, CANCELLED...)
    QString state;   // shown when failed
    // When and where it ran (sacct Start/End, NodeList expanded): runs that
    // shared a node at the same time disturbed each other's timings.
    QString start, end;   // ISO, "" = unknown
    QStringList nodes;
};

// Two runs that ran on a shared node at the same time.
struct RunOverlap {
    QString first, second;   // ScalingRun labels
    QStringList nodes;   // the nodes both used
    qint64 seconds = 0;   // how long they ran together
};

// One GPU count, measured (the median of its completed runs) or predicted.
struct ScalingPoint {
    int gpus = 0;
    int runs = 0;   // completed runs used; 0 for a prediction
    bool predicted = false;
    std::optional<double> runtimeSeconds;   // median
    std::optional<double> throughput;   // median
    // The range of the repeats (min..max); equal to the median for one run.
    std::optional<double> runtimeMin, runtimeMax, throughputMin, throughputMax;
    double spread = 0;   // (max - min) / median of the basis metric; 0 for one run
    double speedup = 1.0;   // vs the baseline (smallest GPU count)
    double speedupMin = 1.0, speedupMax = 1.0;   // from the range, against the baseline median
    double efficiency = 1.0;   // speedup / (gpus / baseline gpus)
    std::optional<double> gpuHours;
    std::optional<double> meanGpuUtilPercent;
    std::optional<double> accuracy;
};

// runtime(N) = T1 * (s + (1 - s) / N), fitted by least squares.
struct AmdahlFit {
    double serialFraction = 0;   // s, 0..1
    std::optional<double> t1Seconds;   // only when runtimes were fitted
    double r2 = 0;
    int points = 0;   // distinct GPU counts used (at least kMinFitPoints)
};

// A curve with two parameters through two points always fits exactly (R² 1):
// no fit, R² or prediction below this many distinct GPU counts.
inline constexpr int kMinFitPoints = 3;
// Repeats whose range exceeds this share of their median are flagged as noisy.
inline constexpr double kNoisySpread = 0.10;

enum class ScalingBasis { Runtime, Throughput };

// Speedup, efficiency, an Amdahl fit and a recommendation for a set of runs
// of one job at different GPU counts. Speedup uses runtimes when every usable
// run has one, else throughputs.
class ScalingAnalysis {
public:
    static ScalingAnalysis analyze(const QList<ScalingRun> &runs, double efficiencyThreshold = 0.7);

    const QList<ScalingPoint> &points() const { return m_points; }   // measured, by GPU count
    const QList<ScalingPoint> &predictions() const { return m_predictions; }   // 2x and 4x the largest
    const std::optional<AmdahlFit> &amdahl() const { return m_amdahl; }
    ScalingBasis basis() const { return m_basis; }
    int baselineGpus() const { return m_baselineGpus; }   // 0 when nothing usable
    int recommendedGpus() const { return m_recommendedGpus; }   // 0 when nothing usable
    double efficiencyThreshold() const { return m_threshold; }
    bool tooSmallToScale() const { return m_tooSmall; }
    const Diagnostics &diagnostics() const { return m_diagnostics; }   // warnings about runs
    const QList<RunOverlap> &overlaps() const { return m_overlaps; }   // runs that disturbed each other
    // Why there is no fit ("" when there is one, or nothing to fit).
    QString noFitReason() const { return m_noFitReason; }
    // Completed runs used / runs given.
    int usedRuns() const { return m_usedRuns; }
    int givenRuns() const { return m_givenRuns; }

    // One sentence: which GPU count to use and what the next doubling costs.
    QString summary() const { return m_summary; }
    // Further sentences: low GPU utilisation, accuracy changes, left-out runs.
    QStringList warnings() const { return m_warnings; }
    // summary() followed by warnings(), for display.
    QString advice() const;

private:
    QList<ScalingRun> usableRuns(const QList<ScalingRun> &runs, QStringList &leftOut);
    QList<ScalingRun> keepTimedRuns(const QList<ScalingRun> &usable, QStringList &leftOut);
    void addPoints(const QList<ScalingRun> &usable);
    void addSpeedups();
    void addWarnings(const QStringList &leftOut);
    void fit();
    void predict();

    QList<ScalingPoint> m_points;
    QList<ScalingPoint> m_predictions;
    std::optional<AmdahlFit> m_amdahl;
    double m_fitA = 0, m_fitB = 0;   // cost(N) = a + b / N in basis units
    ScalingBasis m_basis = ScalingBasis::Runtime;
    int m_baselineGpus = 0;
    int m_recommendedGpus = 0;
    double m_threshold = 0.7;
    bool m_tooSmall = false;
    Diagnostics m_diagnostics;
    QList<RunOverlap> m_overlaps;
    QString m_noFitReason;
    int m_usedRuns = 0;
    int m_givenRuns = 0;
    QString m_summary;
    QStringList m_warnings;
};

}   // namespace scalelab
