// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/store/JobsTreeRecords.h"
#include "core/store/RunStoreGroup.h"

#include <QList>

namespace scalelab {

// The bulk read behind the Jobs tree (RunStoreJobs.cpp, JobsTreeRecords.h).
class RunStoreJobs : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<JobsTreeRecords> jobsRecords(const QList<qint64> &runIds);
};

}   // namespace scalelab
