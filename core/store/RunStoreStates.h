// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QDateTime>
#include <QStringList>

namespace scalelab {

// A run's job state (RunStoreStates.cpp): the submission (job id, submit
// state, PENDING) and each change of state or reason with its history row.
class RunStoreStates : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<void> markSubmitted(qint64 runId, const QString &jobId, SubmitState how);
    // markSubmitted and RunStoreSegments::markSubmittedSegments: the run's (first) job id and
    // submit state, PENDING, and with `asSegments` one run_segments row per job.
    Result<void> recordSubmission(qint64 runId, const QStringList &jobIds, SubmitState how, bool asSegments);
    Result<bool> updateState(qint64 runId, JobState state, const QString &reason, const QDateTime &at);
    // Inside the caller's transaction; value = changed.
    static Result<bool> updateStateIn(QSqlDatabase &db, qint64 runId, JobState state, const QString &reason,
                                      const QDateTime &at);
};

}   // namespace scalelab
