// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"
#include "core/base/Result.h"

#include <memory>

namespace scalelab {

class SshSession;
class CliSshCallbacks;
class RemoteExecutor;
class FaultInjectingExecutor;

// One SSH session for a headless command: the alias is resolved through the
// OpenSSH config (--ssh-config, $SCALELAB_SSH_CONFIG or ~/.ssh/config), host
// keys are checked strictly (--accept-new-host-key to add unknown ones).
class CliCluster {
public:
    CliCluster(CliContext &ctx, const QString &alias, const QString &sshConfig, bool acceptNewHostKey);
    ~CliCluster();

    // "" when connected; otherwise the one-line reason, already printed.
    Result<void> connect();
    // The executor commands go through: the session, or in test builds
    // (SCALELAB_TEST_HOOKS) a fault-injecting wrapper around it.
    RemoteExecutor &executor();
    SshSession &session() { return *m_session; }
    const QString &alias() const { return m_alias; }

private:
    CliContext &m_ctx;
    QString m_alias;
    std::unique_ptr<CliSshCallbacks> m_callbacks;
    std::unique_ptr<SshSession> m_session;
#ifdef SCALELAB_TEST_HOOKS
    std::unique_ptr<FaultInjectingExecutor> m_faults;
#endif
};

}   // namespace scalelab
