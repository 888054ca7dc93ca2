// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/store/RunStoreGroup.h"

#include <QHash>
#include <QSet>

namespace scalelab {

// Per-run flags the researcher sets and the failure line found in a run's
// output (RunStoreFlags.cpp), withdrawing an unsent run, moving a run into a study.
class RunStoreFlags : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    static QString withdrawnText();
    Result<void> setHidden(qint64 runId, bool hidden);
    Result<QSet<qint64>> hiddenRuns();
    Result<void> setFailureLine(qint64 runId, const QString &line);
    Result<QHash<qint64, QString>> failureLines();
    Result<void> withdrawRun(qint64 runId);
    Result<void> setRunStudy(qint64 runId, qint64 studyId);
};

}   // namespace scalelab
