// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/model/SegmentRecord.h"
#include "core/slurm/SacctRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QList>
#include <QStringList>
#include <optional>

namespace scalelab {

// The jobs of a run longer than the time limit (RunStoreSegments.cpp).
class RunStoreSegments : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<void> markSubmittedSegments(qint64 runId, const QStringList &jobIds, SubmitState how);
    // A segment queued by the one before it (until-done); one already stored is kept.
    Result<void> addSegment(qint64 runId, int segment, const QString &jobId);
    Result<QList<SegmentRecord>> segments(qint64 runId);
    Result<std::optional<QString>> recordSegmentEnd(qint64 runId, const SacctRecord &acct);
};

}   // namespace scalelab
