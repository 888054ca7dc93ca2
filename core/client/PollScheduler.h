// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

} // namespace scalelab
