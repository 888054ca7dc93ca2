// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

namespace scalelab {

struct RenderResult {
    QString script;
    Diagnostics diagnostics;   // validation findings for the same spec
};

// JobSpec + profile -> a complete, commented sbatch script. Renders even when
// the spec has errors (the preview shows what would be sent).
QString renderSbatch(const JobSpec &spec, const ClusterProfile &profile);
RenderResult renderAndValidate(const JobSpec &spec, const ClusterProfile &profile);

// File names the rendered script writes (job id substituted by Slurm's %j or
// $SLURM_JOB_ID); the fetcher and the ingest use the same names.
QString outputFilePattern();   // "scalelab-%j.out"
QString gpuSamplesFilePrefix();   // "scalelab-gpu-" + jobid + "-" + host + ".csv"

}   // namespace scalelab
