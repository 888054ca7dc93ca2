// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace scalelab {

// One running run as the live watch asks for it: its remote folder, job id
// and how much of each of its files is stored here already.
struct LiveTarget {
    qint64 runId = 0;
    QString remoteDir;   // validated (RemoteValidation::isSafePath)
    QString jobId;   // validated (RemoteValidation::isJobId)
    QHash<QString, qint64> offsets;   // file name -> bytes stored locally
};

// New bytes of one file, as the reply frames them.
struct LiveChunk {
    qint64 runId = 0;
    QString name;   // "scalelab-gpu-<job>-<host>.csv" or "scalelab-<job>.out"
    qint64 offset = 0;   // where `data` starts in the remote file (0 after a shrink)
    qint64 size = 0;   // the remote file's size when it was read
    QByteArray data;
};

// The live watch's one remote command per cycle: a POSIX sh script (sent on
// stdin to `sh -s`) that, for every running run, prints the new bytes of its
// GPU sample files and its output from the stored offsets, at most
// `maxBytesPerFile` each, each framed by a line
//   @@scalelab-live <run id> <file name> <offset> <remote size> <byte count>
// Folders and names are shell-quoted (ShellQuote); a file that shrank is read
// from 0. Pure: no network.
class LiveFetch {
public:
    static QString script(const QList<LiveTarget> &targets, qint64 maxBytesPerFile);
    // The frames of a reply; a frame cut short or a header of another shape
    // fails with RemoteFailed naming the byte where it went wrong.
    static Result<QList<LiveChunk>> parse(const QByteArray &reply);
    static constexpr const char *kFrameMark = "@@scalelab-live ";
};

}   // namespace scalelab
