// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

struct RemoteResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString transportError;   // non-empty when the command's outcome is unknown

    bool transportOk() const { return transportError.isEmpty(); }
    bool ok() const { return transportOk() && exitCode == 0; }
};

struct RemoteFileChunk {
    QByteArray data;
    qint64 offset = 0;   // where `data` starts
    qint64 fileSize = -1;   // size of the whole remote file, -1 if unknown
    QString error;   // non-empty on failure (e.g. "no such file")
    bool missing = false;   // the file does not exist (yet)
};

// The steps of SlurmClient::submit, in order. Each store write is followed
// by the step it completes, so a crash test can stop the process between any
// two of them.
enum class SubmitStep {
    DirectoryStored,   // the run's remote directory is in the store
    ObjectsPackSent,   // one pack of a project's missing files is in the object store (more may follow)
    SnapshotSent,   // every file of the project snapshot is in the remote object store
    SnapshotLaidOut,   // the run folder holds the snapshot, verified against its manifest
    ScriptUploaded,   // job.sbatch is on the cluster and the run is "uploaded"
    UnknownStored,   // the run is "unknown": sbatch is about to be sent
    SbatchReturned,   // sbatch answered; nothing about its answer is stored yet
    OutcomeStored,   // the job id (or the rejection) is stored
};

// "directory-stored", "objects-pack-sent", "snapshot-sent", "snapshot-laid-out", "script-uploaded",
// "unknown-stored", "sbatch-returned", "outcome-stored".
QString submitStepId(SubmitStep step);
std::optional<SubmitStep> submitStepFromId(const QString &id);

// Runs commands and moves files on one remote host. Implemented over libssh
// in core/ssh (SshSession) and by fakes in unit tests. Synchronous: it is
// called only from the worker thread that owns the connection.
//
// `argv` words are quoted by the implementation (ShellQuote) into one command
// string for the login shell; callers pass only fixed words and validated
// values. User text travels in uploaded files, never in argv.
class RemoteExecutor {
public:
    virtual ~RemoteExecutor() = default;
    virtual RemoteResult run(const QStringList &argv, int timeoutMs = 60000) = 0;
    // run() with `input` on the command's stdin (then end of file): how a
    // project's files travel (a tar stream), in one channel per call.
    virtual RemoteResult runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs = 60000) = 0;
    // Both fail with Transport when the connection failed (the directory or
    // file may or may not be there) and RemoteFailed when the host refused
    // the operation; upload also with InvalidValue for a path naming no file.
    virtual Result<void> mkdirs(const QString &remoteDir) = 0;
    virtual Result<void> upload(const QString &remotePath, const QByteArray &data, int mode = 0644) = 0;
    virtual RemoteFileChunk download(const QString &remotePath, qint64 offset = 0,
                                     qint64 maxBytes = 16 * 1024 * 1024) = 0;
    virtual QString homeDirectory() = 0;   // absolute remote $HOME, "" if unknown
    // SlurmClient::submit reports each step it has completed. Nothing by
    // default; the fault-injecting executor of test builds (app/cli) stops
    // the process at a named step.
    virtual void reached(SubmitStep step) { (void)step; }
};

}   // namespace scalelab
