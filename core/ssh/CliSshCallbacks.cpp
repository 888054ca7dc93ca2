// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/CliSshCallbacks.h"

#include "core/base/RemoteValidation.h"
#include "core/ssh/PlatformTerminal.h"
#include "core/ssh/SshSession.h"

#include <QProcess>

namespace scalelab {

CliSshCallbacks::CliSshCallbacks(bool acceptNewHostKey, FILE *messages)
    : m_acceptNew(acceptNewHostKey)
    , m_out(messages)
{}

void CliSshCallbacks::say(const QString &text)
{
    if (!m_out)
        return;
    std::fputs(text.toLocal8Bit().constData(), m_out);
    std::fputc('\n', m_out);
    std::fflush(m_out);
}

SshCallbacks::HostKeyDecision CliSshCallbacks::unknownHostKey(const HostKeyInfo &info)
{
    const QString who = QStringLiteral("host %1 port %2: %3 key %4")
                            .arg(info.host)
                            .arg(info.port)
                            .arg(info.keyType, info.fingerprintSha256);
    if (m_acceptNew) {
        say(QStringLiteral("Accepting new host key for %1; remembered in %2").arg(who, info.knownHostsPath));
        return HostKeyDecision::AcceptAndRemember;
    }
    say(QStringLiteral("Unknown host key for %1 (not in %2). Check the fingerprint with the cluster's "
                       "documentation, then rerun with --accept-new-host-key or connect once with ssh.")
            .arg(who, info.knownHostsPath));
    return HostKeyDecision::Reject;
}

void CliSshCallbacks::hostKeyRefused(const HostKeyInfo &, const QString &message)
{
    say(message);
}

std::optional<QString> CliSshCallbacks::readTerminalLine(const QString &prompt, bool echo)
{
    std::optional<QByteArray> line = PlatformTerminal::readLine(prompt.toLocal8Bit(), echo);
    if (!line)
        return std::nullopt;
    QString out = QString::fromLocal8Bit(*line);
    line->fill('\0');   // the secret does not linger in freed memory
    return out;
}

std::optional<QString> CliSshCallbacks::passphrase(const QString &keyPath)
{
    auto r = readTerminalLine(QStringLiteral("Passphrase for %1: ").arg(keyPath), false);
    if (!r)
        say(QStringLiteral("The key %1 needs a passphrase but there is no terminal to ask it on; "
                           "load the key into ssh-agent (ssh-add) instead.")
                .arg(keyPath));
    return r;
}

std::optional<QStringList> CliSshCallbacks::keyboardInteractive(const QString &name, const QString &instruction,
                                                                const QList<KbdPrompt> &prompts)
{
    const QString totpCommand = qEnvironmentVariable("SCALELAB_TOTP_COMMAND");
    QStringList answers;
    bool shownHeader = false;
    for (const KbdPrompt &p : prompts) {
        if (!p.echo && !totpCommand.isEmpty()) {
            QProcess proc;
            proc.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), totpCommand});
            if (!proc.waitForFinished(10000) || proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0) {
                say(QStringLiteral("SCALELAB_TOTP_COMMAND failed (%1)")
                        .arg(QString::fromLocal8Bit(proc.readAllStandardError()).trimmed()));
                return std::nullopt;
            }
            answers << QString::fromLocal8Bit(proc.readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0).trimmed();
            continue;
        }
        if (!shownHeader && (!name.isEmpty() || !instruction.isEmpty())) {
            // The server's own words, shown before its first question.
            const QString header = QStringList{name, instruction}.join(QLatin1Char('\n')).trimmed();
            say(RemoteValidation::sanitize(header.toUtf8(), {.trim = false}));
            shownHeader = true;
        }
        auto a = readTerminalLine(p.text, p.echo);
        if (!a) {
            say(QStringLiteral("The server asks \"%1\" but there is no terminal to answer on "
                               "(set SCALELAB_TOTP_COMMAND for one-time codes).")
                    .arg(p.text.trimmed()));
            return std::nullopt;
        }
        answers << *a;
    }
    return answers;
}

}   // namespace scalelab
