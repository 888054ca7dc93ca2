// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ProjectSnapshot.h"
#include "core/store/RunStoreGroup.h"

#include <optional>

namespace scalelab {

// The project folder each run was sent with (RunStoreSnapshots.cpp).
class RunStoreSnapshots : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<std::optional<ProjectSnapshot>> runSnapshot(qint64 runId);
    // Inside the caller's transaction (RunStoreBatch).
    static Result<void> insertSnapshotIn(QSqlDatabase &db, qint64 runId, const ProjectSnapshot &snapshot);
};

}   // namespace scalelab
