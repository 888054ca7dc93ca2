// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/client/RemoteExecutor.h"
#include "core/model/ProjectSnapshot.h"

#include <QByteArray>
#include <QSet>
#include <QString>

#include <functional>

namespace scalelab {

// How far a project's upload is, for a progress bar or a terminal line.
struct SyncProgress {
    qsizetype filesToSend = 0;   // objects missing on the cluster
    qsizetype filesSent = 0;
    qint64 bytesToSend = 0;
    qint64 bytesSent = 0;   // file bytes (the tar framing not counted)
    qsizetype filesPresent = 0;   // already on the cluster, not sent
    qint64 elapsedMs = 0;
    double bytesPerSecond() const { return elapsedMs > 0 ? double(bytesSent) * 1000.0 / double(elapsedMs) : 0.0; }
};

struct SyncReport {
    SyncProgress progress;   // at the end
    qint64 wireBytes = 0;   // everything sent as command input: object packs, the query, the layout
    int commands = 0;   // remote commands run
    bool copied = false;   // the run folder holds copies (hard links failed there)
};

// Sends a project snapshot to a cluster and lays it out in a run folder,
// over the connection's RemoteExecutor (no tool beyond sh, tar, sha256sum
// or openssl, mv, find, sort, cmp on the cluster). Under the remote folder ROOT:
//   ROOT/.scalelab/objects/<sha256>[.x]   one read-only file per content (".x": executable)
//   ROOT/runs/<run token>/                the run's own folder: hard links to the objects
// 1. one command asks which objects exist, for the whole manifest;
// 2. the missing ones travel in tar packs of at most ~16 MB, each unpacked into
//    a temporary folder, checked against the manifest (SHA-256 by openssl
//    where the cluster has it: its SHA extensions; else sha256sum), then
//    renamed into the store: an object exists only whole and verified, so a
//    dropped connection loses at most the pack in flight and a retry sends
//    only what is still missing;
// 3. one tar of hard links lays out the run folder (copies where a link
//    fails), then `tar --compare` checks every file is its object, and
//    .scalelab-snapshot.sha256 beside them lets anyone `sha256sum -c` it.
// Local files are hashed again as they are read: a file edited since the
// snapshot is refused, never sent under the old hash. Paths travel inside the
// tar stream; the only words in commands are the remote folder (a safe path,
// quoted) and fixed text.
class ProjectSync {
public:
    using Progress = std::function<bool(const SyncProgress &)>;   // false: cancel before the next pack

    explicit ProjectSync(RemoteExecutor &executor);
    // `root` and `runFolder` absolute, RemoteValidation::isSafePath; runFolder = root + "/runs/<name>".
    // Transport: the connection failed; RemoteFailed: the cluster refused a step;
    // LocalFile: a file changed or vanished since the snapshot; WrongState: cancelled.
    Result<SyncReport> send(const ProjectSnapshot &snapshot, const QString &root, const QString &runFolder,
                            const Progress &progress = {});

    static QString objectsFolder(const QString &root);   // ROOT/.scalelab/objects
    static constexpr qint64 kPackBytes = 16 * 1024 * 1024;
    static constexpr qsizetype kPackFiles = 512;

private:
    Result<QSet<QByteArray>> presentObjects(const ProjectManifest &manifest, const QString &root);
    Result<void> sendPack(const QString &root, const QByteArray &pack);
    Result<void> layOut(const ProjectSnapshot &snapshot, const QString &root, const QString &runFolder);
    Result<void> copyInstead(const ProjectSnapshot &snapshot, const QString &root, const QString &runFolder);
    Result<void> checked(const RemoteResult &r, const QString &what);

    RemoteExecutor &m_exec;
    SyncReport m_report;
};

}   // namespace scalelab
