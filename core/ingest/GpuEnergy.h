// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/GpuSampleSummary.h"

#include <QtGlobal>

#include <optional>

namespace scalelab {

// What the GPUs of a run drew, from their power samples (nvidia-smi
// power.draw, rocm-smi's package power).
struct GpuEnergyResult {
    std::optional<double> joules;   // empty when no GPU has two power samples in a row
    int gpusWithPower = 0;   // GPUs that gave at least one interval
    qint64 intervals = 0;   // sample pairs integrated
    qint64 gaps = 0;   // pairs further apart than kGapPeriods sample periods, not integrated
    double coveredSeconds = 0;   // summed over GPUs
};

// The energy of a run as the integral of each GPU's power over time
// (trapezoids between consecutive samples), summed over its GPUs. A pair of
// samples with a missing power ([N/A], the second GCD of an MI250X whose
// package reports for both) is left out, and so is a pair further apart than
// kGapPeriods times the GPU's median sample period (a sampler that stalled or
// a node that was down): nothing is guessed across a gap.
class GpuEnergy {
public:
    static constexpr double kGapPeriods = 3.0;

    static GpuEnergyResult integrate(const GpuSampleSummary &samples);
    // One GPU's samples: adds to `out`.
    static void integrate(const GpuTimeline &gpu, GpuEnergyResult &out);
};

}   // namespace scalelab
