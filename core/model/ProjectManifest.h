// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace scalelab {

// One file of a project snapshot: its path inside the folder ('/'-separated,
// no "." or ".." segment), size, whether it is executable, and the SHA-256
// of its bytes (64 lower-case hex digits).
struct ProjectFile {
    QString path;
    qint64 size = 0;
    bool executable = false;
    QByteArray sha256;
    // The remote object holding it: the hash, with ".x" for an executable
    // (an object's mode is shared by every hard link to it).
    QByteArray objectName() const { return executable ? sha256 + ".x" : sha256; }
    int mode() const { return executable ? 0755 : 0644; }
    bool operator==(const ProjectFile &) const = default;
};

// The file list of a snapshot, sorted by path. Its text is one line per file,
// "<sha256> <size> <mode> <path>\n" (mode in octal); the snapshot id is the
// SHA-256 of that text, so two folders with the same files and modes have
// the same id wherever they lie.
struct ProjectManifest {
    QList<ProjectFile> files;

    void sort();
    QByteArray text() const;
    QByteArray id() const;
    qint64 totalBytes() const;
    // The text back; InvalidValue names the line that is not a manifest line.
    static Result<ProjectManifest> fromText(const QByteArray &text);
    bool operator==(const ProjectManifest &) const = default;
};

}   // namespace scalelab
