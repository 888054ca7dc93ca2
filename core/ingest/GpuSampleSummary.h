// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QList>
#include <QString>
#include <QVector>

#include <optional>

namespace scalelab {

// One GPU's samples. Times are seconds since the run's first sample (over all
// GPUs and hosts). Where the tool printed no value ([N/A], [Not Supported],
// N/A) the sample is NaN: it stays missing and is left out of the means.
struct GpuTimeline {
    QString key;   // "host:index" / "host:task3:index"; no "host:" when unknown
    QString host;
    int index = -1;
    int task = -1;   // srun --label task when lines carry one (per-task GPU cgroups
        // show every task's GPU as device 0: tasks keep them apart)
    QVector<double> seconds;
    QVector<double> utilPercent;
    QVector<double> memUsedMiB;
    QVector<double> tempC;   // GPU (edge) temperature, °C; NaN when not sampled
    QVector<double> powerW;   // board power draw, W; NaN when not sampled
    std::optional<double> memTotalMiB;
    std::optional<double> meanUtilPercent;
    std::optional<double> peakUtilPercent;
    std::optional<double> meanMemUsedMiB;
    std::optional<double> peakMemUsedMiB;
    std::optional<double> meanTempC;
    std::optional<double> peakTempC;
    std::optional<double> meanPowerW;
    std::optional<double> peakPowerW;
};

struct GpuSampleSummary {
    enum class Tool { Unknown, NvidiaSmi, RocmSmi };
    Tool tool = Tool::Unknown;
    bool noSamples = true;   // true until a data row is read
    QString noSamplesReason;   // e.g. the sampler's "no nvidia-smi on HOST; no GPU samples"
    QList<GpuTimeline> gpus;   // sorted by host, then index
    // Over all GPUs of the run (every sample counts once).
    std::optional<double> meanUtilPercent;
    std::optional<double> peakUtilPercent;
    std::optional<double> meanMemUsedMiB;
    std::optional<double> peakMemUsedMiB;
    double durationSeconds = 0;   // last sample time
    qint64 rows = 0;   // data rows read
    qint64 skippedLines = 0;   // lines that were neither data, header nor marker
    // Absolute time (seconds since the Unix epoch, as printed, no zone) of
    // second 0; empty for rocm-smi, which prints no timestamps. Used to align
    // files from several hosts.
    std::optional<double> originEpochSeconds;
    Diagnostics diagnostics;

    const GpuTimeline *find(const QString &key) const;
    // Recomputes the per-GPU and run statistics from the timelines, sorted by
    // host, then index; `noSamples` false once a row was read.
    void summarise();
};

}   // namespace scalelab
