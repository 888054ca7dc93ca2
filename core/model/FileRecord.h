// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QString>

namespace scalelab {

// A remote output file of a run and how much of it is stored locally.
struct FileRecord {
    qint64 runId = 0;
    QString remotePath;
    QString localPath;
    qint64 size = -1;   // remote size at the last fetch, -1 unknown
    qint64 fetchedOffset = 0;   // bytes stored locally (from the start)
    QDateTime fetchedAt;   // UTC

    bool operator==(const FileRecord &) const = default;
};

}   // namespace scalelab
