// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/HostKeyInfo.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// Questions the SSH layer must ask a human. Called ON THE WORKER THREAD that
// runs the SshSession, and may block until answered (a GUI implementation
// waits on its own condition while the GUI thread shows a dialog).
// Returning std::nullopt means "cancelled": the login fails cleanly.
class SshCallbacks {
public:
    enum class HostKeyDecision { Reject, AcceptOnce, AcceptAndRemember };
    struct KbdPrompt {
        QString text;
        bool echo = false;   // false: a secret (password, one-time code) — do not show it
    };

    virtual ~SshCallbacks() = default;

    // The server's key is not in known_hosts (OpenSSH "ask" mode).
    virtual HostKeyDecision unknownHostKey(const HostKeyInfo &info) = 0;
    // The key is changed / of another type / revoked: the connection is
    // refused anyway; this only informs the user.
    virtual void hostKeyRefused(const HostKeyInfo &info, const QString &message) = 0;
    // Passphrase of an encrypted private key. Never stored by the SSH layer.
    virtual std::optional<QString> passphrase(const QString &keyPath) = 0;
    // One round of keyboard-interactive authentication; one answer per prompt.
    virtual std::optional<QStringList> keyboardInteractive(const QString &name, const QString &instruction,
                                                           const QList<KbdPrompt> &prompts) = 0;
};

}   // namespace scalelab
