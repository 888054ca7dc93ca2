// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

// The few file-system calls Qt does not offer: forcing written bytes to the
// disk and keeping the standard descriptors taken. POSIX:
// PlatformFilesPosix.cpp; another system replaces that file.
namespace scalelab::PlatformFiles {

// Forces an open file's bytes to the disk (fsync). False with errno's text in
// `reason` when the disk refused them (a full disk, an I/O error).
bool syncDescriptor(int fd, QString *reason);
// Forces a folder's entries (a rename just done in it) to the disk.
bool syncFolder(const QString &folder, QString *reason);
// Renames `from` over `to` in one step (rename(2)): a reader sees the old
// file or the new one, never a mix.
bool replaceFile(const QString &from, const QString &to, QString *reason);
// Any of descriptors 0, 1 and 2 that is closed gets /dev/null, opened for
// reading only: a file opened later can never take it (a log would receive
// what was meant for stdout), and a write to it still fails as on a closed
// descriptor. Returns the descriptors that were closed. Call first in main().
QList<int> reserveStandardDescriptors();

}   // namespace scalelab::PlatformFiles
