// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/ReportTable.h"
#include "core/analysis/RunMetricsTable.h"
#include "core/analysis/ScriptVariants.h"
#include "core/analysis/StudyChartData.h"

#include <QDateTime>

#include <functional>

namespace scalelab {

// What the profile a run was composed with documents, for what the run's own
// records do not say (its Slurm version before any run reached sbatch, its
// partition's GPU type). Given by the caller, who can read profiles.
struct DocumentedFacts {
    QString slurmVersion;   // "" = not documented
    QString gpuType;   // "NVIDIA V100 32 GB (v100)"; "" = not documented
};
using DocumentedFactsOf = std::function<DocumentedFacts(const RunRecord &run)>;

// Everything the scaling report says, in the order it says it: the summary
// page (conditions, recommendation, strong-scaling table), then the details
// (advice, runs, resources, each distinct job script once with the others as
// diffs). The PDF draws it with the charts; `--format md` and `csv` print it.
struct ScalingReportModel {
    QString studyName;
    ReportTable conditions;   // two columns: what, value (cluster, partition, GPU type, Slurm, dates, runs)
    QString recommendation;   // ScalingAdvice's sentence
    QStringList advice;   // its further sentences and the Amdahl fit
    QStringList overlaps;   // runs that shared a node, or that none did
    ReportTable strongScaling, runs, resources;
    QList<ScriptVariant> scripts;

    static ScalingReportModel build(const StudyRecord &study, const RunMetricsTable &table, const StudyChartData &data,
                                    const DocumentedFactsOf &documented, const QDateTime &written);
    // Title, conditions, recommendation and the three tables.
    QString markdown() const;
};

}   // namespace scalelab
