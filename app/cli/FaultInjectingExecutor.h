// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/RemoteExecutor.h"

#include <optional>

namespace scalelab {

// Test hook for crash-consistency tests (test builds only): with
// SCALELAB_FAULT_KILL_AFTER=STEP, STEP one of the submit protocol's steps
// (submitStepId: directory-stored, objects-pack-sent, snapshot-sent,
// snapshot-laid-out, script-uploaded, unknown-stored, sbatch-returned, outcome-stored), the process dies like kill -9, without
// any clean-up, as soon as SlurmClient::submit reports that step. Other
// commands (the `sbatch --version` probe, reconcile, polls) never trigger it.
class FaultInjectingExecutor : public RemoteExecutor {
public:
    explicit FaultInjectingExecutor(RemoteExecutor &inner);
    static bool enabled();
    // The step named by the variable; an unknown name is said on stderr once
    // and leaves the hook inert (the test then sees the process survive).
    static std::optional<SubmitStep> stepFromEnvironment();

    RemoteResult run(const QStringList &argv, int timeoutMs = 60000) override { return m_inner.run(argv, timeoutMs); }
    RemoteResult runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs = 60000) override
    {
        return m_inner.runWithInput(argv, input, timeoutMs);
    }
    Result<void> mkdirs(const QString &remoteDir) override { return m_inner.mkdirs(remoteDir); }
    Result<void> upload(const QString &remotePath, const QByteArray &data, int mode = 0644) override
    {
        return m_inner.upload(remotePath, data, mode);
    }
    RemoteFileChunk download(const QString &remotePath, qint64 offset = 0, qint64 maxBytes = 16 * 1024 * 1024) override
    {
        return m_inner.download(remotePath, offset, maxBytes);
    }
    QString homeDirectory() override { return m_inner.homeDirectory(); }
    void reached(SubmitStep step) override;

private:
    RemoteExecutor &m_inner;
    std::optional<SubmitStep> m_killAfter;
};

}   // namespace scalelab
