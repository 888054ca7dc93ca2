// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/ssh: the file half of an SshSession.

#include "core/base/Result.h"
#include "core/client/RemoteExecutor.h"
#include "core/ssh/SshSession.h"

#include <libssh/sftp.h>

#include <QByteArray>
#include <QString>

namespace scalelab {

// SFTP over the session's libssh connection (it needs the blocking session of
// libssh 0.10): started on first use, closed with the connection. It shares
// the session's transport state: a failure that loses the connection marks it
// broken, so the session reconnects; traffic resets its keepalive clock.
class SftpChannel {
public:
    // `owner` runs the mv fallback of an upload; `link` is its connection.
    SftpChannel(SshSession &owner, SshSession::Private &link)
        : m_owner(owner)
        , m_link(link)
    {}
    ~SftpChannel() { close(); }
    SftpChannel(const SftpChannel &) = delete;
    SftpChannel &operator=(const SftpChannel &) = delete;

    // Frees the SFTP session and forgets the home; before the connection goes.
    void close();

    // The SshSession calls of the same names (RemoteExecutor).
    QString homeDirectory();
    Result<void> mkdirs(const QString &remoteDir);
    Result<void> upload(const QString &remotePath, const QByteArray &data, int mode);
    RemoteFileChunk download(const QString &remotePath, qint64 offset, qint64 maxBytes);

private:
    Result<void> ensureStarted();   // Transport: why SFTP is not there
    QString errorText(const QString &op, const QString &path) const;
    // "~/x" and "~" mean the remote home; relative paths are relative to it too.
    QString expandRemote(const QString &path);
    Result<void> uploadImpl(const QString &remotePath, const QByteArray &data, int mode);
    RemoteFileChunk downloadImpl(const QString &remotePath, qint64 offset, qint64 maxBytes);

    SshSession &m_owner;
    SshSession::Private &m_link;
    sftp_session m_sftp = nullptr;
    QString m_home;
};

}   // namespace scalelab
