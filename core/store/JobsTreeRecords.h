// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/model/SegmentRecord.h"
#include "core/model/StateChange.h"
#include "core/model/StudyRecord.h"

#include <QList>
#include <QString>

namespace scalelab {

// One run as the Jobs tree needs it: the run without its script, the few
// spec fields shown, its state history, the accounting clock and its flags.
struct JobsRunRecord {
    RunRecord run;   // `script` left empty; hasScript says whether one is stored
    bool hasScript = false;
    QString specTime;   // the spec's "time" ("" = none, or the spec is not JSON)
    QString specJobName;   // the spec's "jobName"
    QList<StateChange> history;   // in the order seen; reasons left out
    bool hasAccounting = false;
    QString accountedElapsed;   // sacct Elapsed, "" = none
    QString accountedLimit;   // sacct Timelimit
    bool hidden = false;
    QString failureLine;   // "" = none found
    QList<SegmentRecord> segments;   // a run longer than the time limit: its jobs in chain order
};

// Everything the Jobs tree shows, read in five queries (and a count) in one read
// transaction (RunStore::jobsRecords) instead of three per run.
struct JobsTreeRecords {
    QList<StudyRecord> studies;   // every study
    QList<JobsRunRecord> runs;   // by id
};

}   // namespace scalelab
