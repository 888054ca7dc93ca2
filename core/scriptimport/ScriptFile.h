// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/scriptimport/ScriptImporter.h"

#include <QByteArray>
#include <QString>

namespace scalelab {

// The one path from a script's bytes to a job: `scalelab import`,
// `scalelab lint` and the window's File ▸ Import (and drops) all go
// through it, so they read the same script the same way.
class ScriptFile {
public:
    // The text as the kernel reads the bytes: a UTF-8 byte-order mark stays
    // as U+FEFF (QString::fromUtf8 drops it), so the first-line rule sees it.
    static QString decode(const QByteArray &bytes);
    // The import: `path` is the script's file ("" or "-": stdin, nothing
    // beside it is read); the program, when it is a local Python file
    // beside the script or at its absolute path, is read (through
    // InputLimits, 1 MB) for the packages it imports.
    static ScriptImport importText(const QString &text, const QString &path, const ClusterProfile &profile);
};

}   // namespace scalelab
