// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/SshCallbacks.h"

namespace scalelab::test {

// SSH callbacks for tests that must never be asked anything: unknown host
// keys are refused, no passphrase, no second factor.
class NoQuestions : public SshCallbacks {
public:
    HostKeyDecision unknownHostKey(const HostKeyInfo &) override { return HostKeyDecision::Reject; }
    void hostKeyRefused(const HostKeyInfo &, const QString &) override {}
    std::optional<QString> passphrase(const QString &) override { return std::nullopt; }
    std::optional<QStringList> keyboardInteractive(const QString &, const QString &, const QList<KbdPrompt> &) override
    {
        return std::nullopt;
    }
};

}   // namespace scalelab::test
