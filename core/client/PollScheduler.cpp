// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/PollScheduler.h"

#include <algorithm>

namespace scalelab {

PollScheduler::PollScheduler(int baseSeconds)
    : m_base(std::clamp(baseSeconds, kMinimumSeconds, kMaximumSeconds))
    , m_current(m_base)
{}

void PollScheduler::setBaseInterval(int seconds)
{
    m_base = std::clamp(seconds, kMinimumSeconds, kMaximumSeconds);
    if (m_failures == 0)
        m_current = m_base;
    else
        m_current = std::max(m_current, m_base);
}

void PollScheduler::recordSuccess()
{
    m_failures = 0;
    m_current = m_base;
}

void PollScheduler::recordFailure()
{
    ++m_failures;
    m_current = std::min(m_current * 2, kMaximumSeconds);
}

std::optional<int> FollowUpPolls::next(JobState state)
{
    const bool started = state != JobState::Pending && state != JobState::Unknown;
    const int allowed = m_after == After::Submit ? 1 : 4;
    if (SlurmJobState::isTerminal(state) || (m_after == After::Submit && started) || m_used >= allowed)
        return std::nullopt;
    return 3000 << m_used++;
}

}   // namespace scalelab
