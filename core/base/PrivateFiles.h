// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QString>
#include <QStringList>

namespace scalelab {

// The researcher's data (run store, settings, the SSH config the app writes,
// fetched job output) holds accounts, paths and job scripts: on shared login
// nodes and multi-user laptops only its owner should read it. What ScaleLab
// creates is owner-only from its creation on (folders 0700, files 0600);
// what already exists keeps its mode: a team folder stays shared, a
// read-only file stays read-only. Qt's permission calls only: no POSIX code
// here, so this builds wherever Qt does.
namespace PrivateFiles {

// Creates `dir` and each missing parent with 0700 (as the XDG base directory
// rules ask of folders a program creates). An existing folder is left as it
// is. A failure (ErrorCode::LocalFile) names the folder.
Result<void> makeDirectory(const QString &dir);

// Creates an empty `file` with 0600 unless it exists. An existing file keeps
// its mode and must be writable: a read-only one is an error naming it and
// its mode (never made writable). AtomicFile, which replaces a file, keeps
// its permissions.
Result<void> makeFile(const QString &file);

// A warning for a folder others may enter or read (any group or other bit),
// naming it, its mode and how many of its entries they can read; "" when it
// is owner-only or missing. Nothing is changed. One level of entries: a
// closed folder shuts others out of everything below it.
QString openFolderWarning(const QString &dir);

// "0755": the permission bits of `path` as chmod takes them ("" when missing).
QString modeText(const QString &path);

}   // namespace PrivateFiles
}   // namespace scalelab
