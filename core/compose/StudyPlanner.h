// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QList>
#include <QString>

namespace scalelab {

// How the batch size follows the GPU count across a scaling study.
enum class BatchScalingMode {
    None,   // arguments and variables stay as in the base spec
    KeepPerGpu,   // every process gets `baseValue` (the global batch grows with GPUs)
    KeepGlobal,   // the global batch stays `baseValue`: each process gets baseValue / gpus
};

struct BatchScaling {
    BatchScalingMode mode = BatchScalingMode::None;
    // "--batch-size" (starts with '-': a program argument, written as
    // "--batch-size N" or replaced where "--batch-size=N" is used) or
    // "BATCH_SIZE" (an environment variable of the job).
    QString name;
    int baseValue = 0;
};

// How a study's runs meet the cluster. One at a time: each job waits for the
// previous one (SlurmClient::submit's afterJobId: sbatch
// --dependency=afterany:<job id>), so runs never share
// nodes or the file system and their timings do not disturb each other.
enum class StudyOrder { OneAtATime, AllAtOnce };

// `wanted`, or "wanted (2)", "wanted (3)"... the first not in `existing`.
QString uniqueStudyName(const QString &wanted, const QStringList &existing);

// One run of a study: the spec and what validating it found.
struct StudyVariant {
    JobSpec spec;
    int repeat = 1;   // 1..repeats: which measurement of this GPU count
    Diagnostics diagnostics;   // validator findings plus the planner's own
    int batchValue = 0;   // per-process batch written into the spec, 0 = untouched
    bool partitionChanged = false;
};

// A spec template swept over GPU counts. Each variant derives its node count,
// gets a job name suffix "-<N>g", and moves to the partition the validator
// suggests when the base partition cannot hold it. Pure: no I/O.
// `repeats` > 1 runs every GPU count that many times, in rounds (1, 2, 4, 1,
// 2, 4, ...) so a slow hour of the cluster does not land on one GPU count;
// the job names get "-r<k>".
QList<StudyVariant> planStudyVariants(const JobSpec &base, const QList<int> &gpuCounts, const BatchScaling &scaling,
                                      const ClusterProfile &profile, int repeats = 1);
QList<JobSpec> planStudy(const JobSpec &base, const QList<int> &gpuCounts, const BatchScaling &scaling,
                         const ClusterProfile &profile, int repeats = 1);
inline constexpr int kMaxStudyRepeats = 10;

// GPU counts a study offers: 1, 2, 4, 8, ... up to the largest job any GPU
// partition of the profile allows (plus that maximum when it is not a power of two).
QList<int> studyGpuChoices(const ClusterProfile &profile);
// The default selection: 1, 2, 4, 8 within what `partition` allows.
QList<int> defaultStudyGpuCounts(const ClusterProfile &profile, const QString &partition);

// GPUs x the time limit in hours; 0 when the time is missing or malformed.
double estimatedGpuHours(const JobSpec &spec);

}   // namespace scalelab
