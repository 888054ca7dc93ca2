// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/SshCallbacks.h"

#include <cstdio>

namespace scalelab {

// SshCallbacks for the headless CLI (`scalelab <command>`).
// - Unknown host key: refused (with a message showing host, port, key type
//   and SHA256 fingerprint and how to accept it), unless constructed with
//   acceptNewHostKey=true, which remembers it (like accept-new).
// - Changed / other-type / revoked keys: only reported; always refused.
// - Passphrases and keyboard-interactive prompts are read from the terminal
//   (/dev/tty, no echo for secrets). Without a terminal they fail cleanly.
// - SCALELAB_TOTP_COMMAND (optional): a shell command whose first stdout line
//   answers every non-echo keyboard-interactive prompt, for scripted MFA
//   (tests use `oathtool --totp -b <secret>`). Never used for passphrases.
class CliSshCallbacks : public SshCallbacks {
public:
    explicit CliSshCallbacks(bool acceptNewHostKey = false, FILE *messages = stderr);

    HostKeyDecision unknownHostKey(const HostKeyInfo &info) override;
    void hostKeyRefused(const HostKeyInfo &info, const QString &message) override;
    std::optional<QString> passphrase(const QString &keyPath) override;
    std::optional<QStringList> keyboardInteractive(const QString &name, const QString &instruction,
                                                   const QList<KbdPrompt> &prompts) override;

    // Reads one line from the controlling terminal; nullopt without a TTY.
    static std::optional<QString> readTerminalLine(const QString &prompt, bool echo);

private:
    void say(const QString &text);

    bool m_acceptNew;
    FILE *m_out;
};

}   // namespace scalelab
