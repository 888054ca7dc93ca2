// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ProjectManifest.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// A project folder as it was when a run was submitted: what the run records
// and what is laid out in its run folder on the cluster.
struct ProjectSnapshot {
    QString folder;   // the local folder, absolute
    QString remoteFolder;   // as the spec or profile gave it ("$HOME/scalelab", "/scratch/p/me")
    ProjectManifest manifest;
    QByteArray id;   // manifest.id()
    QString gitCommit;   // "" when the folder is not in a git work tree (or git is missing)
    std::optional<bool> gitDirty;   // set with gitCommit: uncommitted changes under the folder
    QStringList skipped;   // "path: why" for what was seen and left out (symbolic links, FIFOs)
    int excluded = 0;   // files and folders left out by the ignore rules
    bool operator==(const ProjectSnapshot &) const = default;
};

}   // namespace scalelab
