// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SlurmJobState.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <optional>

namespace scalelab {

// Where a run is in the exactly-once submission protocol:
// intent (stored, nothing sent) -> uploaded (script on the cluster) ->
// unknown (sbatch may have been sent; set BEFORE sending) -> submitted / rejected.
// reconciled = the job id was learned afterwards from the cluster.
enum class SubmitState { Intent, Uploaded, Submitted, Rejected, Unknown, Reconciled };

QString submitStateId(SubmitState s);   // "intent", "uploaded", ...
std::optional<SubmitState> submitStateFromId(const QString &id);

struct RunRecord {
    qint64 id = 0;
    qint64 studyId = 0;   // 0 = not in a study
    QString token;   // "sl-<16 hex>", unique; names the remote run dir
    QString profile;
    QString clusterAlias;
    QString partition;
    int gpus = 0;
    int nodes = 0;
    QString framework;
    QByteArray specJson;
    QString script;   // the rendered sbatch script exactly as uploaded
    QString remoteDir;   // absolute, set before the upload
    QString jobId;   // digits, empty until known
    JobState state = JobState::Unknown;
    QString reason;
    SubmitState submitState = SubmitState::Intent;
    QString rejection;   // Slurm's own message (sanitized) or the transport error
    QDateTime created;   // UTC
    QDateTime updated;   // UTC
    QString slurmVersion;   // "24.11.5": the cluster's Slurm when the job was submitted, "" unknown
    QString specFile;   // absolute path of the spec file it was made from, "" for stdin or the window's form
    // While pending: when Slurm expects it to start (squeue %S, cluster local time, ISO), "" = not known.
    QString expectedStart;

    bool hasJob() const { return !jobId.isEmpty(); }
    bool isTerminal() const { return SlurmJobState::isTerminal(state); }
    bool operator==(const RunRecord &) const = default;
};

}   // namespace scalelab
