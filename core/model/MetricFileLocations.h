// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QList>
#include <QString>

namespace scalelab {

// One folder on the cluster where a job's frameworks write their metric files.
struct MetricFileLocation {
    QString path;   // as written: absolute, or relative to the run folder; may hold $NAME / ${NAME}
    QString source;   // what named it: "the run folder", "monitoring.metricDirs", "--output_dir", "WANDB_DIR"
    bool operator==(const MetricFileLocation &) const = default;
};

// Where fetch looks for a job's metric files (trainer_state.json, Lightning's
// metrics.csv, TensorBoard events, mlruns/, wandb/): the run folder (the job
// runs there, so every framework's default folder lies under it), then the
// folders the spec names (monitoring.metricDirs), then the folders the
// program's arguments and environment name: one table of the options that
// set a framework's output folder (kFolderOptions in the .cpp). Paths are used as
// the job would see them: relative to the run folder, $NAME expanded by the
// cluster's shell and nothing else (ShellQuote::quoteExpandingVariables), as
// the rendered script expands it in arguments, variables and paths.
class MetricFileLocations {
public:
    static QList<MetricFileLocation> of(const JobSpec &spec);
    // The spec's own entries: an error for one that cannot be a folder name
    // (empty, a control character, command substitution), a warning for one
    // whose walk would cover a whole file system ("/", "$HOME").
    static Diagnostics check(const JobSpec &spec);
    // Whether `path` is usable as a location (what check() errors on).
    static bool isUsable(const QString &path);
};

}   // namespace scalelab
