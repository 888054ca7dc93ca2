// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace scalelab {

// Which site a script was written for, from what it names: partitions,
// the account's pattern, module names and paths.
struct SiteGuess {
    QString profileId;
    QString profileName;
    QStringList reasons;   // "partition small-g", "account project_462000007" ...
};

// The profile (other than currentId) the script most clearly belongs to;
// nullopt when none stands out or the current profile fits as well.
std::optional<SiteGuess> recogniseSite(const ScriptImport &imp, const QList<ClusterProfile> &profiles,
                                       const QString &currentId);

// What the import changed, dropped or could not carry over (infos with the
// script lines): options ScaleLab does not keep, commands left out, relative
// paths (the job runs in ScaleLab's run directory), the script's own
// arguments ($@), commands kept as shell lines. importSbatchScript fills
// ScriptImport::summary with it.
// What the composed job asks Slurm for where it differs from the script
// (nodes, GPUs, tasks, CPUs: the profile's geometry) is said too.
Diagnostics importSummary(const ScriptImport &imp, const ClusterProfile &profile);

}   // namespace scalelab
