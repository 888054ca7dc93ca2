// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/model/FileRecord.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// The output of a run made of segments read as one log: each segment's
// scalelab-<job>.out, in chain order, one after another in `target`, so the
// log readers see its epochs and steps continue across the segments. A
// segment without a fetched output is left out; each is read through
// InputLimits (Content::Log, 16 MB), a larger one refused with its name.
class SegmentLog {
public:
    // The joined file's path, or why not (no segment output fetched, a read or the write failed).
    static Result<QString> join(const QList<FileRecord> &files, const QStringList &jobIds, const QString &target);
};

}   // namespace scalelab
