// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// The files of a project folder that a snapshot takes, before any is read.
//
// Left out: what the folder's ignore files say (each folder's .gitignore for
// its subtree, the root's .scalelabignore over the root's .gitignore, deeper
// files over shallower ones; ProjectIgnore) and the defaults (.git/,
// __pycache__/, *.pyc, .venv/, and any folder holding a pyvenv.cfg: a
// virtual environment, whatever its name). An excluded folder is not entered.
//
// Symbolic links are never followed out of the folder, nor into a folder:
// a link to a regular file inside the folder is taken as that file's bytes
// under the link's name; a link to a folder, to anything outside, or to
// nothing is left out and named in `skipped` (so a loop of links is never
// walked). FIFOs, sockets and devices are named there too and never opened;
// so are names with a control character (a newline would break the manifest).
//
// One pass, one directory listing per folder, no recursion (an explicit
// stack: a tree 10,000 folders deep walks like a flat one). The walk stops
// at `stopAfterFiles` files (the caller's cap, with room for the report).
class ProjectWalker {
public:
    struct Entry {
        QString path;   // relative, '/'-separated
        QString source;   // the absolute path read (a link's target for a link)
        qint64 size = 0;
        bool executable = false;
    };
    struct Walk {
        QList<Entry> files;   // in walk order
        QStringList skipped;   // "path: why"
        int excluded = 0;
        bool stopped = false;   // stopAfterFiles was reached: more files exist
    };
    static Result<Walk> walk(const QString &root, qsizetype stopAfterFiles);
};

}   // namespace scalelab
