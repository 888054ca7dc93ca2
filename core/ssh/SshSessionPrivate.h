// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/ssh: the state behind SshSession (libssh types).

#include "core/ssh/SshHop.h"
#include "core/ssh/SshSession.h"

#include <libssh/sftp.h>

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
    sftp_session sftp = nullptr;
    QString banner;
    QString home;
    QString lastConnectError;   // quoted by "not connected" errors
    bool broken = false;   // the transport failed: a reconnect is needed
    QElapsedTimer sinceTraffic;

    ssh_session session() const { return hops.empty() ? nullptr : hops.back()->session; }
    void teardown();
    // Marks the connection broken when libssh says so; returns the text.
    QString transportFailure(const QString &what);
    Result<void> ensureSftp();   // Transport: why SFTP is not there
    QString sftpErrorText(const QString &op, const QString &path) const;
};

}   // namespace scalelab
