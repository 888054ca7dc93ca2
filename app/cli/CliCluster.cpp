// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliCluster.h"

#include "core/ssh/CliSshCallbacks.h"
#include "core/ssh/SshSession.h"
#ifdef SCALELAB_TEST_HOOKS
#include "app/cli/FaultInjectingExecutor.h"
#endif

namespace scalelab {

CliCluster::CliCluster(CliContext &ctx, const QString &alias, const QString &sshConfig, bool acceptNewHostKey)
    : m_ctx(ctx)
    , m_alias(alias)
    , m_callbacks(std::make_unique<CliSshCallbacks>(acceptNewHostKey))
{
    SshConnectionSettings s;
    s.alias = alias;
    s.configPath = sshConfig;
    s.acceptNewHostKey = acceptNewHostKey;
    m_session = std::make_unique<SshSession>(s, m_callbacks.get());
}

CliCluster::~CliCluster() = default;

RemoteExecutor &CliCluster::executor()
{
#ifdef SCALELAB_TEST_HOOKS
    if (FaultInjectingExecutor::enabled()) {
        if (!m_faults)
            m_faults = std::make_unique<FaultInjectingExecutor>(*m_session);
        return *m_faults;
    }
#endif
    return *m_session;
}

Result<void> CliCluster::connect()
{
    Result<void> connected = m_session->connectToHost();
    if (!connected) {
        m_ctx.err << "scalelab: " << m_alias << ": " << connected.errorText() << "\n";
        m_ctx.err.flush();
    }
    return connected;
}

}   // namespace scalelab
