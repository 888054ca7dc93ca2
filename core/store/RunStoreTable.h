// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/store/RunStoreGroup.h"
#include "core/store/RunTableRecords.h"

#include <QList>

namespace scalelab {

// The bulk read behind the runs table (RunStoreTable.cpp, RunTableRecords.h).
class RunStoreTable : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<RunTableRecords> tableRecords(qint64 studyId, const QList<qint64> &runIds);
};

}   // namespace scalelab
