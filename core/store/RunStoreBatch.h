// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ProjectSnapshot.h"
#include "core/model/RunRecord.h"
#include "core/model/StudyRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QList>
#include <optional>

namespace scalelab {

// A batch of runs (RunStoreBatch.cpp): a study's runs, its record and the
// runs' project snapshots, all or nothing in one transaction.
class RunStoreBatch : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<QList<RunRecord>> createRuns(const QList<RunRecord> &runs, const std::optional<StudyRecord> &study,
                                        const QList<std::optional<ProjectSnapshot>> &snapshots);
};

}   // namespace scalelab
