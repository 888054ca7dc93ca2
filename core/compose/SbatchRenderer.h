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

// The comment lines before the parts of a rendered script that come from
// the spec. Everything else in a script ScaleLab composed ("# Composed by
// ScaleLab" on its second line) is ScaleLab's own, so an import of it reads
// back the spec and nothing ScaleLab added (tst_import_roundtrip).
inline constexpr char kComposedHeader[] = "# Composed by ScaleLab";
inline constexpr char kModuleSetupMarker[] = "# Module setup lines from the job spec.";
inline constexpr char kModulesMarker[] = "# Modules from the job spec.";
inline constexpr char kDefaultModulesMarker[] = "# The profile's default modules.";
inline constexpr char kVariablesMarker[] = "# Variables from the job spec.";
inline constexpr char kSetupMarker[] = "# Setup lines from the job spec.";
inline constexpr char kNodesDerivedMarker[] = "# Nodes: as many as the GPUs need.";
inline constexpr char kCpusDerivedMarker[] = "# CPUs: the node's share for each GPU.";

// File names the rendered script writes (job id substituted by Slurm's %j or
// $SLURM_JOB_ID); the fetcher and the ingest use the same names.
QString outputFilePattern();   // "scalelab-%j.out"
QString gpuSamplesFilePrefix();   // "scalelab-gpu-" + jobid + "-" + host + ".csv"

}   // namespace scalelab
