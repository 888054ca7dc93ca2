// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/RemoteExecutor.h"

namespace scalelab {

// Test hook for crash-consistency tests: with SCALELAB_FAULT_KILL_AFTER=WORD
// the process dies (like kill -9, no clean-up) right after a remote command
// containing WORD returned, before its result is stored. Inert otherwise.
class FaultInjectingExecutor : public RemoteExecutor {
public:
    explicit FaultInjectingExecutor(RemoteExecutor &inner);
    static bool enabled();

    RemoteResult run(const QStringList &argv, int timeoutMs = 60000) override;
    QString mkdirs(const QString &remoteDir) override { return m_inner.mkdirs(remoteDir); }
    QString upload(const QString &remotePath, const QByteArray &data, int mode = 0644) override
    {
        return m_inner.upload(remotePath, data, mode);
    }
    RemoteFileChunk download(const QString &remotePath, qint64 offset = 0, qint64 maxBytes = 16 * 1024 * 1024) override
    {
        return m_inner.download(remotePath, offset, maxBytes);
    }
    QString homeDirectory() override { return m_inner.homeDirectory(); }

private:
    RemoteExecutor &m_inner;
    QString m_word;
};

} // namespace scalelab
