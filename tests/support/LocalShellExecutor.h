// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A RemoteExecutor whose "cluster" is this machine: each command is joined as
// SshSession joins it (ShellQuote) and run by a local `sh -c`, as a login
// shell would run it; files go to local paths. The shell bodies, tar, the
// checks with sha256sum and the hard links then run for real, without sshd.
// `breakAfter` makes every call fail as a lost connection from a chosen point
// on (a process killed there does nothing more).

#include "core/base/ShellQuote.h"
#include "core/client/RemoteExecutor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>

#include <functional>

namespace scalelab::test {

class LocalShellExecutor : public RemoteExecutor {
public:
    explicit LocalShellExecutor(QString home)
        : m_home(std::move(home))
    {}

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QList<SubmitStep> steps;
    std::optional<SubmitStep> deadAfter;   // from this step on, every call is a lost connection
    int commands = 0;
    qint64 inputBytes = 0;
    // Called before each command with its argv and input: a non-empty result
    // is returned instead of running it (a scripted failure).
    std::function<std::optional<RemoteResult>(const QStringList &, const QByteArray &)> intercept;

    bool dead() const { return m_dead; }

    RemoteResult run(const QStringList &argv, int timeoutMs) override { return runWithInput(argv, {}, timeoutMs); }

    RemoteResult runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs) override
    {
        RemoteResult r;
        if (m_dead) {
            r.transportError = QStringLiteral("connection lost (the test stopped the process here)");
            return r;
        }
        if (intercept)
            if (auto scripted = intercept(argv, input))
                return *scripted;
        ++commands;
        inputBytes += input.size();
        QProcess p;
        p.setProcessEnvironment(environment);
        p.setWorkingDirectory(m_home);
        p.start(QStringLiteral("sh"), {QStringLiteral("-c"), ShellQuote::join(argv)});
        if (!p.waitForStarted(10000)) {
            r.transportError = QStringLiteral("cannot start sh");
            return r;
        }
        p.write(input);
        p.closeWriteChannel();
        if (!p.waitForFinished(timeoutMs > 0 ? timeoutMs : 60000)) {
            p.kill();
            p.waitForFinished();
            r.transportError = QStringLiteral("timed out");
            return r;
        }
        r.exitCode = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    Result<void> mkdirs(const QString &remoteDir) override
    {
        if (m_dead)
            return fail(ErrorCode::Transport, QStringLiteral("connection lost"));
        return QDir().mkpath(remoteDir) ? success() : fail(ErrorCode::RemoteFailed, QStringLiteral("mkdir failed"));
    }

    Result<void> upload(const QString &remotePath, const QByteArray &data, int mode) override
    {
        if (m_dead)
            return fail(ErrorCode::Transport, QStringLiteral("connection lost"));
        QFile f(remotePath);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
            return fail(ErrorCode::RemoteFailed, QStringLiteral("cannot write %1").arg(remotePath));
        f.close();
        QFile::setPermissions(remotePath, QFileDevice::Permissions(mode & 0700 ? 0x6644 : 0x4444));
        return success();
    }

    RemoteFileChunk download(const QString &remotePath, qint64 offset, qint64 maxBytes) override
    {
        RemoteFileChunk c;
        QFile f(remotePath);
        if (m_dead || !f.open(QIODevice::ReadOnly)) {
            c.missing = !m_dead;
            c.error = QStringLiteral("cannot read");
            return c;
        }
        c.fileSize = f.size();
        c.offset = offset;
        f.seek(offset);
        c.data = f.read(maxBytes);
        return c;
    }

    QString homeDirectory() override { return m_dead ? QString() : m_home; }

    void reached(SubmitStep step) override
    {
        steps << step;
        if (deadAfter == step)
            m_dead = true;
    }

private:
    QString m_home;
    bool m_dead = false;
};

}   // namespace scalelab::test
