// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the SSH tests against the loopback test cluster: callbacks that
// record every question, and reading what sshd logged since an offset.
#pragma once

#include "core/ssh/SshCallbacks.h"
#include "core/ssh/SshConnectionSettings.h"
#include "TestClusterEnv.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace scalelab::test {

// Records every question; answers host keys as told, and TOTP prompts with oathtool.
class RecordingCallbacks : public SshCallbacks {
public:
    HostKeyDecision decision = HostKeyDecision::Reject;
    QString totpSecret;
    QList<HostKeyInfo> unknownCalls;
    QList<HostKeyInfo> refusedCalls;
    QStringList refusedMessages;
    QList<QList<KbdPrompt>> kbdCalls;
    int passphraseCalls = 0;

    HostKeyDecision unknownHostKey(const HostKeyInfo &info) override
    {
        unknownCalls << info;
        return decision;
    }
    void hostKeyRefused(const HostKeyInfo &info, const QString &message) override
    {
        refusedCalls << info;
        refusedMessages << message;
    }
    std::optional<QString> passphrase(const QString &) override
    {
        ++passphraseCalls;
        return std::nullopt;
    }
    std::optional<QStringList> keyboardInteractive(const QString &, const QString &,
                                                   const QList<KbdPrompt> &prompts) override
    {
        kbdCalls << prompts;
        QStringList answers;
        for (const KbdPrompt &p : prompts) {
            if (p.echo || totpSecret.isEmpty())
                return std::nullopt;
            QProcess oath;
            oath.start(QStringLiteral("oathtool"), {QStringLiteral("--totp"), QStringLiteral("-b"), totpSecret});
            if (!oath.waitForFinished(10000) || oath.exitCode() != 0)
                return std::nullopt;
            answers << QString::fromLatin1(oath.readAllStandardOutput()).trimmed();
        }
        return answers;
    }
};

// The connection settings of `alias` in the test cluster's SSH config (or `config`).
inline SshConnectionSettings clusterSettings(const TestClusterEnv &env, const QString &alias,
                                             const QString &config = QString())
{
    SshConnectionSettings s;
    s.alias = alias;
    s.configPath = config.isEmpty() ? env.sshConfig : config;
    s.connectTimeoutMs = 10000;
    return s;
}

inline QByteArray readFrom(const QString &path, qint64 offset)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    f.seek(offset);
    return f.readAll();
}

inline qint64 fileSize(const QString &path)
{
    return QFileInfo(path).size();
}

}   // namespace scalelab::test
