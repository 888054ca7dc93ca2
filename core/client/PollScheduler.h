// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SlurmJobState.h"

#include <optional>

namespace scalelab {

// How long to wait before the next squeue/sacct cycle. Slurm's man pages warn
// that client polling loops load slurmctld, so: 30 s by default, never below
// 10 s, doubling up to 5 min while polls fail or the controller is down, back
// to the base interval after a success. Pure: the caller owns the timer.
class PollScheduler {
public:
    static constexpr int kDefaultSeconds = 30;
    static constexpr int kMinimumSeconds = 10;
    static constexpr int kMaximumSeconds = 300;

    explicit PollScheduler(int baseSeconds = kDefaultSeconds);

    void setBaseInterval(int seconds);   // clamped to [10 s, 5 min]
    int baseInterval() const { return m_base; }
    int nextDelaySeconds() const { return m_current; }
    int consecutiveFailures() const { return m_failures; }

    void recordSuccess();
    void recordFailure();   // transport error, controller down, unreadable output

private:
    int m_base;
    int m_current;
    int m_failures = 0;
};

// A run just submitted or cancelled is looked at again sooner than the timer:
// the poll right after sbatch often still reads PENDING, the one after scancel
// RUNNING or COMPLETING (sacct follows the controller with a delay). After a
// submit one follow-up is enough (PENDING for longer is normal); after a cancel
// up to four, 3, 6, 12 and 24 s apart, because the cancel only asked.
class FollowUpPolls {
public:
    enum class After { Submit, Cancel };
    explicit FollowUpPolls(After after = After::Submit)
        : m_after(after)
    {}

    // Milliseconds until the next look given the state the last poll read,
    // or nullopt once the run is settled and the normal timer takes over.
    [[nodiscard]] std::optional<int> next(JobState state);
    After after() const { return m_after; }

private:
    After m_after;
    int m_used = 0;
};

}   // namespace scalelab
