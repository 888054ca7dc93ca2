// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/StudyRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QList>

namespace scalelab {

// The studies (RunStoreStudies.cpp): a name, the spec template the runs were
// made from, the researcher's notes.
class RunStoreStudies : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<qint64> createStudy(const StudyRecord &study);
    Result<StudyRecord> study(qint64 id);
    Result<QList<StudyRecord>> studies();
    Result<void> setStudyNotes(qint64 id, const QString &notes);
    // Inside the caller's transaction (RunStoreBatch).
    static Result<qint64> insertStudyIn(QSqlDatabase &db, const StudyRecord &study);
};

}   // namespace scalelab
