// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace scalelab {

// The researcher's data (run store, settings, the SSH config the app writes,
// fetched job output) holds accounts, paths and job scripts: on shared login
// nodes and multi-user laptops only its owner may read it. Folders are 0700
// and files 0600 from their creation on. Qt's permission calls only: no
// POSIX code here, so this builds wherever Qt does.
namespace PrivateFiles {

// Creates `dir` (and missing parents) and sets it to 0700; an existing
// folder is tightened. Returns "" or what went wrong, naming the folder.
QString makeDirectory(const QString &dir);

// Creates an empty `file` with 0600 unless it exists; an existing file is set
// to 0600. AtomicFile, which replaces a file, keeps these permissions.
QString makeFile(const QString &file);

// Tightens an existing folder and its entries (folders 0700, files 0600;
// executables keep their x bit for the owner). Returns one line per entry it
// could not change; a missing folder is not an error.
QStringList tightenFolder(const QString &dir);

}   // namespace PrivateFiles
}   // namespace scalelab
