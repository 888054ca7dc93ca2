// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/SshCallbacks.h"
#include "core/ssh/SshConnectionSettings.h"
#include "core/base/Result.h"
#include "core/sshconfig/SshHostConfig.h"

#include "core/client/RemoteExecutor.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace scalelab {

// One authenticated SSH connection (libssh) to the host named by an alias of
// the OpenSSH client config, implementing RemoteExecutor.
//
// Owned and used by ONE thread (libssh sessions are not thread-safe); the GUI
// uses it through ClusterConnection, which runs it on a worker thread.
//
// Connecting follows OpenSSH "StrictHostKeyChecking=ask": the server's host
// key is checked against known_hosts right after the key exchange and BEFORE
// any authentication. Unknown → SshCallbacks::unknownHostKey; changed, other
// key type or revoked → refused with no way to accept. Then: ssh-agent (when
// SSH_AUTH_SOCK is set and IdentitiesOnly is off), the IdentityFile keys
// (passphrase asked on demand, never kept), then keyboard-interactive rounds
// (one-time codes), including "partial success" (key + code). One login per
// session: every run()/upload()/download() reuses it.
//
// ProxyJump is done natively (no ssh binary): each jump host is connected and
// authenticated (with its own host key check), a direct-tcpip channel to the
// next hop is opened, and a pump thread owned by this object bridges it to
// the next session through a socketpair.
//
// Reconnect policy: after a run() with transportError, isConnected() tells
// whether the connection is gone; callers then call reconnect(attempt), which
// waits min(2^(attempt-1), 60) s before connecting again (attempt 0: no wait).
class SshSession : public RemoteExecutor {
public:
    SshSession(SshConnectionSettings settings, SshCallbacks *callbacks);
    ~SshSession() override;
    SshSession(const SshSession &) = delete;
    SshSession &operator=(const SshSession &) = delete;

    // A failure (Transport) is one line naming what failed and what to do.
    Result<void> connectToHost();
    Result<void> reconnect(int attempt);
    static int backoffSeconds(int attempt);
    bool isConnected() const;
    void disconnect();
    QString serverBanner() const;
    SshHostConfig hostConfig() const;   // the resolved target (after connectToHost)
    void sendKeepaliveIfDue();

    // RemoteExecutor. run() quotes argv with ShellQuote::join and refuses words
    // failing ShellQuote::isSafeForRemote. Output is returned unmodified.
    RemoteResult run(const QStringList &argv, int timeoutMs = 60000) override;
    RemoteResult runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs = 60000) override;
    Result<void> mkdirs(const QString &remoteDir) override;
    // Writes to a temporary name beside remotePath, sets `mode`, renames over.
    Result<void> upload(const QString &remotePath, const QByteArray &data, int mode = 0644) override;
    // offset < 0 reads the last -offset bytes (a tail).
    RemoteFileChunk download(const QString &remotePath, qint64 offset = 0, qint64 maxBytes = 16 * 1024 * 1024) override;
    QString homeDirectory() override;

    // Remote text made safe to show: control characters except \n and \t removed.

    struct Private;

private:
    Result<void> connectImpl();
    RemoteResult runImpl(const QStringList &argv, int timeoutMs, const QByteArray *input = nullptr);
    QString notConnectedText() const;

    std::unique_ptr<Private> d;
};

}   // namespace scalelab
