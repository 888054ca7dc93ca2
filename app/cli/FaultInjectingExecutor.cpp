// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/FaultInjectingExecutor.h"

#include <csignal>
#include <unistd.h>

namespace scalelab {

FaultInjectingExecutor::FaultInjectingExecutor(RemoteExecutor &inner)
    : m_inner(inner), m_word(qEnvironmentVariable("SCALELAB_FAULT_KILL_AFTER"))
{
}

bool FaultInjectingExecutor::enabled()
{
    return qEnvironmentVariableIsSet("SCALELAB_FAULT_KILL_AFTER");
}

RemoteResult FaultInjectingExecutor::run(const QStringList &argv, int timeoutMs)
{
    RemoteResult r = m_inner.run(argv, timeoutMs);
    if (!m_word.isEmpty() && argv.join(QLatin1Char(' ')).contains(m_word))
        ::kill(::getpid(), SIGKILL);
    return r;
}

} // namespace scalelab
