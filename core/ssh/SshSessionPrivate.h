// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/ssh: the state behind SshSession (libssh types).

#include "core/ssh/SftpChannel.h"
#include "core/ssh/SshHop.h"
#include "core/ssh/SshSession.h"

#include <QElapsedTimer>

#include <memory>
#include <vector>

namespace scalelab {

struct SshSession::Private {
    SshConnectionSettings settings;
    SshCallbacks *callbacks = nullptr;
    SshHostConfig target;
    // Jump hosts first, the target last. Destroyed in reverse order.
    std::vector<std::unique_ptr<SshHop>> hops;
    // The file half, over the target's session; declared after the hops, so destroyed before them.
    std::unique_ptr<SftpChannel> sftp;
    QString banner;
    QString lastConnectError;   // quoted by "not connected" errors
    bool broken = false;   // the transport failed: a reconnect is needed
    QElapsedTimer sinceTraffic;

    ssh_session session() const { return hops.empty() ? nullptr : hops.back()->session; }
    void teardown();
    // Marks the connection broken when libssh says so; returns the text.
    QString transportFailure(const QString &what);
};

}   // namespace scalelab
