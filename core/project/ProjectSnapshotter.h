// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/model/ProjectSnapshot.h"

#include <QString>

namespace scalelab {

// Caps on what one snapshot takes; a folder over either is refused before a
// byte is read, naming its largest files and folders.
struct SnapshotLimits {
    qsizetype maxFiles = 10000;
    qint64 maxBytes = qint64(2) * 1024 * 1024 * 1024;
};

// A project folder's snapshot: the files ProjectWalker takes, each read once
// and hashed (SHA-256), the manifest and its id, and the git commit and dirty
// state when the folder is in a git work tree. Time linear in the folder's
// entries and bytes.
class ProjectSnapshotter {
public:
    // InvalidValue: no such folder, or over a cap (the message lists the
    // largest offenders and says to name them in .scalelabignore);
    // LocalFile: a file could not be read.
    static Result<ProjectSnapshot> take(const QString &folder, const SnapshotLimits &limits = {});
    static QString sizeText(qint64 bytes);   // "1.5 MB"
};

}   // namespace scalelab
