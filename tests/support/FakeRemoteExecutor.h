// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A scripted RemoteExecutor for unit tests: records every call (argv, paths),
// keeps an in-memory remote file system, and answers run() through `onRun`.
// Failures are injected with `failMkdirs` / `failUpload` or from onRun.

#include "core/client/RemoteExecutor.h"

#include <QList>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>

namespace scalelab {

class FakeRemoteExecutor : public RemoteExecutor {
public:
    struct Call {
        QString kind;   // "run", "mkdirs", "upload", "download", "home"
        QStringList argv;   // run only
        QString path;   // mkdirs/upload/download
    };

    QList<Call> calls;
    QString home = QStringLiteral("/home/researcher");
    QMap<QString, QByteArray> files;   // remote path -> content
    QSet<QString> dirs;
    std::function<RemoteResult(const QStringList &argv)> onRun;
    QString failMkdirs;   // the RemoteFailed message of the next mkdirs (then cleared)
    QString failUpload;   // the RemoteFailed message of the next upload (then cleared)
    QList<SubmitStep> steps;   // what SlurmClient::submit reported, in order

    RemoteResult run(const QStringList &argv, int) override
    {
        calls << Call{QStringLiteral("run"), argv, {}};
        if (onRun)
            return onRun(argv);
        RemoteResult r;
        r.exitCode = 127;
        r.err = "fake: command not scripted\n";
        return r;
    }

    // Input sent with runWithInput, by call; answered by onRunWithInput (else onRun).
    QList<QByteArray> inputs;
    std::function<RemoteResult(const QStringList &argv, const QByteArray &input)> onRunWithInput;

    RemoteResult runWithInput(const QStringList &argv, const QByteArray &input, int timeoutMs) override
    {
        inputs << input;
        if (onRunWithInput) {
            calls << Call{QStringLiteral("run"), argv, {}};
            return onRunWithInput(argv, input);
        }
        return run(argv, timeoutMs);
    }

    void reached(SubmitStep step) override { steps << step; }

    Result<void> mkdirs(const QString &remoteDir) override
    {
        calls << Call{QStringLiteral("mkdirs"), {}, remoteDir};
        if (!failMkdirs.isEmpty())
            return fail(ErrorCode::RemoteFailed, std::exchange(failMkdirs, QString()));
        QString p = remoteDir;
        while (p.size() > 1) {
            dirs.insert(p);
            p = p.section(QLatin1Char('/'), 0, -2);
        }
        return success();
    }

    Result<void> upload(const QString &remotePath, const QByteArray &data, int) override
    {
        calls << Call{QStringLiteral("upload"), {}, remotePath};
        if (!failUpload.isEmpty())
            return fail(ErrorCode::RemoteFailed, std::exchange(failUpload, QString()));
        if (!dirs.contains(remotePath.section(QLatin1Char('/'), 0, -2)))
            return fail(ErrorCode::RemoteFailed, QStringLiteral("no such directory"));
        files.insert(remotePath, data);
        return success();
    }

    RemoteFileChunk download(const QString &remotePath, qint64 offset, qint64 maxBytes) override
    {
        calls << Call{QStringLiteral("download"), {}, remotePath};
        RemoteFileChunk c;
        c.offset = offset;
        if (!files.contains(remotePath)) {
            c.missing = true;
            c.error = QStringLiteral("no such file");
            return c;
        }
        const QByteArray &all = files[remotePath];
        c.fileSize = all.size();
        c.data = all.mid(offset, maxBytes);
        return c;
    }

    QString homeDirectory() override
    {
        calls << Call{QStringLiteral("home"), {}, {}};
        return home;
    }

    // Helpers for assertions.
    QList<QStringList> commands() const
    {
        QList<QStringList> out;
        for (const Call &c : calls)
            if (c.kind == QLatin1String("run"))
                out << c.argv;
        return out;
    }
    // Commands whose joined words contain `needle` (e.g. "sbatch --parsable").
    int countCommands(const QString &needle) const
    {
        int n = 0;
        for (const QStringList &argv : commands())
            if (argv.join(QLatin1Char(' ')).contains(needle))
                ++n;
        return n;
    }
    int countCalls(const QString &kind) const
    {
        int n = 0;
        for (const Call &c : calls)
            n += c.kind == kind;
        return n;
    }
    bool anyArgumentContains(const QString &text) const
    {
        for (const QStringList &argv : commands())
            for (const QString &a : argv)
                if (a.contains(text))
                    return true;
        return false;
    }
};

}   // namespace scalelab
