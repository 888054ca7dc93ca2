// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/FaultInjectingExecutor.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace scalelab {

FaultInjectingExecutor::FaultInjectingExecutor(RemoteExecutor &inner)
    : m_inner(inner)
    , m_killAfter(stepFromEnvironment())
{}

bool FaultInjectingExecutor::enabled()
{
    return qEnvironmentVariableIsSet("SCALELAB_FAULT_KILL_AFTER");
}

std::optional<SubmitStep> FaultInjectingExecutor::stepFromEnvironment()
{
    const QString name = qEnvironmentVariable("SCALELAB_FAULT_KILL_AFTER");
    const std::optional<SubmitStep> step = submitStepFromId(name);
    if (!step && !name.isEmpty())
        std::fprintf(stderr,
                     "scalelab: SCALELAB_FAULT_KILL_AFTER=%s is not a submit step (directory-stored, "
                     "objects-pack-sent, snapshot-sent, snapshot-laid-out, script-uploaded, unknown-stored, "
                     "sbatch-returned, outcome-stored); the hook is off\n",
                     qPrintable(name));
    return step;
}

void FaultInjectingExecutor::reached(SubmitStep step)
{
    m_inner.reached(step);
    if (m_killAfter == step)
        ::kill(::getpid(), SIGKILL);
}

}   // namespace scalelab
