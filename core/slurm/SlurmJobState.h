// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// Slurm's job states (squeue %T / %t, sacct State). Unknown covers anything
// this version does not know yet, so a new Slurm state never breaks a poll.
enum class JobState {
    Unknown,
    Pending,
    Configuring,
    Running,
    Completing,
    Suspended,
    Completed,
    Failed,
    Cancelled,
    Timeout,
    NodeFail,
    Preempted,
    OutOfMemory,
    BootFail,
    Deadline,
    Requeued,
    Resizing,
    Revoked,
    SpecialExit
};

class SlurmJobState {
public:
    // Accepts long names ("RUNNING"), squeue short codes ("R", "CG") and sacct
    // decorations ("CANCELLED by 1001", "CANCELLED+"); case-insensitive.
    static JobState parse(const QString &text);
    // Final states: the job will not change any more, so it is never polled again.
    static bool isTerminal(JobState s);
    // Stable upper-case id as Slurm prints it ("OUT_OF_MEMORY"); stored in the run store.
    static QString id(JobState s);
    // Human name for the GUI and CLI ("Out of memory").
    static QString displayName(JobState s);
};

}   // namespace scalelab
