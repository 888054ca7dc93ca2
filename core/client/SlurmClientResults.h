// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/FileRecord.h"
#include "core/slurm/SlurmJobState.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace scalelab {

// Results of SlurmClient calls: plain values, no exceptions.

struct SubmitOutcome {
    enum class Kind {
        Submitted,   // sbatch printed a job id
        Rejected,   // Slurm refused the job; `message` is its own text
        Unknown,   // sbatch may have run; the run needs reconcile() before anything else
        NotSent,   // failed before sbatch was sent (or sbatch said the controller is down): safe to retry
        Refused,   // ScaleLab did not try (already submitted, invalid values, store error)
    };
    Kind kind = Kind::Refused;
    QString jobId;
    QString message;
    bool controllerDown = false;
};

struct ReconcileOutcome {
    enum class Kind {
        Found,   // the job exists; the store now holds its id (submit_state reconciled)
        NotSubmitted,   // certainly no job: submit() may be called again
        StillUnknown,   // cannot tell yet (connection, controller down, sbatch may still run)
        NothingToDo,   // the run already has a job id or was rejected
    };
    Kind kind = Kind::StillUnknown;
    QString jobId;
    QString message;
};

struct TestOnlyResult {
    int exitCode = -1;
    QString verdict;   // Slurm's text (sbatch --test-only writes to stderr)
    QString transportError;
    bool ok() const { return transportError.isEmpty() && exitCode == 0; }
};

struct RunStateUpdate {
    qint64 runId = 0;
    QString jobId;
    JobState from = JobState::Unknown;
    JobState to = JobState::Unknown;
    QString reason;
    bool final = false;   // accounting stored, never polled again
};

struct PollResult {
    bool controllerDown = false;
    QString message;   // controller/transport error for the UI, "" when fine
    QString transportError;
    int activeRuns = 0;   // runs with a job that were looked at
    int squeueCalls = 0;
    int sacctCalls = 0;
    QList<RunStateUpdate> updates;
    QStringList missingJobs;   // left the queue but unknown to sacct (yet)
    Diagnostics diagnostics;   // unreadable output lines
    bool ok() const { return !controllerDown && transportError.isEmpty() && message.isEmpty(); }
};

struct FetchResult {
    QList<FileRecord> files;   // fetched now
    QStringList truncated;   // remote paths larger than the cap (first bytes kept)
    QStringList errors;
    bool ok() const { return errors.isEmpty(); }
};

struct TailResult {
    QByteArray data;   // new bytes since the last fetch
    qint64 offset = 0;   // where `data` starts in the remote file
    qint64 fileSize = -1;
    bool missing = false;   // no output file yet (job pending)
    QString error;
};

}   // namespace scalelab
