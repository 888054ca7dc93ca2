// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <string_view>

namespace scalelab {

// How Slurm says a job, a step or a task ended, as printed into the job's
// output by slurmstepd and srun (Slurm's src/slurmd/slurmstepd/req.c and
// step_terminate_monitor, srun's task exit report):
//   slurmstepd: error: *** JOB 77 ON node1 CANCELLED AT 2025-01-28T15:04:48 ***
//   slurmstepd: error: *** STEP 77.0 ON node1 CANCELLED AT 2025-01-28T15:04:48 DUE TO TIME LIMIT ***
//   slurmstepd: error: Detected 1 oom-kill event(s) in StepId=77.batch. Some of your processes ...
//   srun: error: node1: task 3: Exited with exit code 1
struct RunEnd {
    enum class Kind { Cancelled, TimeLimit, Preempted, NodeFailure, OutOfMemory, ExitCode };
    Kind kind = Kind::Cancelled;
    QString scope;   // "job 77", "step 77.0", "StepId=77.batch", "task 3 on node1"
    QString at;   // Slurm's time as printed ("2025-01-28T15:04:48"); "" when the line has none
    int exitCode = 0;   // Kind::ExitCode
    qint64 line = 0;   // 1-based
    QString text;   // the line, trimmed

    static QString kindId(Kind k);   // "cancelled", "time-limit", "preempted", "node-failure", "oom-kill", "exit-code"
    QString describe() const;   // one sentence for `scalelab metrics`
};

class RunEndReader {
public:
    static constexpr int kMaxEnds = 64;   // kept per log (a log concatenating many jobs)
    // Text one of the lines above contains; the log scan finds these first.
    static QList<QByteArray> anchors();
    // The end record of one line (no line break), or nothing.
    static std::optional<RunEnd> readLine(std::string_view line);
};

}   // namespace scalelab
