#include "app/cli/CliCluster.h"

#include "core/ssh/CliSshCallbacks.h"
#include "app/cli/FaultInjectingExecutor.h"
#include "core/ssh/SshSession.h"

namespace scalelab {

CliCluster::CliCluster(CliContext &ctx, const QString &alias, const QString &sshConfig, bool acceptNewHostKey)
    : m_ctx(ctx), m_alias(alias), m_callbacks(std::make_unique<CliSshCallbacks>(acceptNewHostKey))
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
    if (!FaultInjectingExecutor::enabled())
        return *m_session;
    if (!m_faults)
        m_faults = std::make_unique<FaultInjectingExecutor>(*m_session);
    return *m_faults;
}

QString CliCluster::connect()
{
    const QString error = m_session->connectToHost();
    if (!error.isEmpty()) {
        m_ctx.err << "scalelab: " << m_alias << ": " << error << "\n";
        m_ctx.err.flush();
    }
    return error;
}

} // namespace scalelab
