// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/model/StateChange.h"
#include "core/model/StudyRecord.h"
#include "core/store/JobsTreeRecords.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace scalelab {

class RunStore;

// When a job's clock ran, read from its state history: started at the first
// RUNNING (or COMPLETING) seen, ended at the first final state, or at a
// COMPLETING seen after the start (the job's processes have ended, Slurm is
// cleaning up: the clock stops there).
struct JobClock {
    QDateTime started;   // UTC; invalid = never started
    QDateTime ended;   // UTC; invalid = not ended

    static JobClock fromHistory(const QList<StateChange> &history);
};

// One run of the Jobs tree with the numbers it shows.
struct JobsRow {
    RunRecord run;   // without its script
    bool hasScript = false;
    QDateTime started;   // see JobClock
    QDateTime ended;
    qint64 limitSeconds = -1;   // the spec's time limit, else sacct's; -1 = unknown
    QString jobName;
    qint64 accountedElapsed = -1;   // sacct Elapsed of a finished run (wins over the history)
    QString failureLine;   // "line 42: ValueError: …" for a failed run, "" = none found
    bool hidden = false;
    // A run longer than the time limit: "segment 2 of 4" (the job followed now),
    // and each segment's state ("1 COMPLETED, 2 RUNNING, 3 waiting, 4 waiting"); "" otherwise.
    QString segmentText;
    QString segmentStates;
    // A run of segments: the Elapsed of the segments that ended, summed (-1 =
    // not such a run). Its clock (started/ended) is the followed segment's, so
    // elapsed = this + the followed segment's time: it neither counts the
    // queue wait between segments nor drops to nothing while the next waits.
    qint64 endedSegmentsElapsed = -1;

    // Takes the record's texts over (no copy) from an rvalue.
    static JobsRow from(JobsRunRecord &&record);
    static JobsRow from(const JobsRunRecord &record) { return from(JobsRunRecord(record)); }
    // Seconds the job has run at `now` (UTC), -1 when no clock runs (not
    // started, or back in the queue); a run of segments: all its segments'.
    qint64 elapsedSeconds(const QDateTime &now) const;
    // Running now: its elapsed time changes.
    bool active() const;
    // Elapsed / limit as 0..1, -1 when either is unknown (a run of segments:
    // its segments' time against the limit of each times their number).
    double progress(const QDateTime &now) const;

    bool operator==(const JobsRow &) const = default;
};

struct JobsStudyRow {
    StudyRecord study;
    std::vector<JobsRow> runs;   // in studyOrder
};

// The Jobs tree: studies as parents of their runs, runs outside a study on
// their own; the top level newest first (a study by its creation, a lone run
// by its own). Built on a pool thread; the model only draws it.
struct JobsTree {
    // A top-level entry: a study (index into studies) or a lone run (into loose).
    struct Top {
        int study = -1;
        int run = -1;
    };
    std::vector<JobsStudyRow> studies;
    std::vector<JobsRow> loose;
    std::vector<Top> top;
    int hiddenCount = 0;   // hidden runs in the store, shown or not
    QString error;   // "" = read

    // Hidden runs are left out unless `showHidden`; a study whose runs are
    // all hidden goes with them.
    static JobsTree build(JobsTreeRecords records, bool showHidden);
    static JobsTree load(RunStore &store, bool showHidden);
    // A study's runs: by GPU count, then id.
    static bool studyOrder(const JobsRow &a, const JobsRow &b);
    // When a top-level entry counts from (newest first).
    QDateTime topTime(const Top &t) const;

    // What differs between two trees of the same shape (the same studies and
    // runs in the same places): a reload that only changed states and times
    // patches those rows instead of building the view again.
    struct Changes {
        std::vector<std::pair<int, int>> runs;   // (study index or -1 for a lone run, row or loose index)
        std::vector<int> studies;   // studies whose record or runs changed (their summary row)
    };
    // nullopt when the shapes differ.
    static std::optional<Changes> changesFrom(const JobsTree &before, const JobsTree &after);
};

}   // namespace scalelab
