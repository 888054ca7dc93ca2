// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"
#include "core/model/SegmentRecord.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// The jobs of a run longer than the time limit, as SlurmClient sends and
// cancels them: how many the spec asks for, the one remote command that
// submits the first ones chained, and the scancel of the chain's rest.
class SegmentChain {
public:
    // How many segments the run's spec asks for; 0 = one job of its own.
    static int planned(const RunRecord &run);
    // How many of them the submit creates ("until-done": the first; it queues the next).
    static int firstJobs(const RunRecord &run);
    // The submit command's body for `segments` (>= 1) segments, the first
    // `jobs` of them (< 1: all), each id appended to jobid.tmp as sbatch
    // prints it. `dir` is already shell-quoted, `dependency` validated.
    static QString submitBody(const QString &dir, const QString &token, const QString &dependency,
                              const QString &scriptName, int segments, int jobs);
    // The job followed now and every segment waiting after it.
    static QStringList jobsToCancel(const RunRecord &run, const QList<SegmentRecord> &segments);
    // scancel of `jobs`; for "until-done", the stop file first, so a segment
    // queued but not stored yet ends at once.
    static QStringList cancelArgv(const RunRecord &run, const QStringList &jobs);
};

}   // namespace scalelab
