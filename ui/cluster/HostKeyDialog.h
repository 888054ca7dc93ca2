// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/HostKeyInfo.h"
#include "core/ssh/SshCallbacks.h"

#include <QDialog>

class QDialogButtonBox;
class QLayout;

namespace scalelab {

// The two host key questions, like PuTTY's distinct "not cached" and
// "POTENTIAL SECURITY BREACH" dialogs:
// - Unknown: host, port, key type and SHA256 fingerprint with "Accept once",
//   "Accept and remember" (appends to known_hosts) and "Cancel".
// - Changed: a red warning naming the known_hosts file and line; there is no
//   way to accept — only "Close". decision() is always Reject.
// Opened with open() (window-modal, no nested event loop).
class HostKeyDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kind { Unknown, Changed };

    HostKeyDialog(Kind kind, const HostKeyInfo &info, const QString &message = {}, QWidget *parent = nullptr);

    Kind kind() const { return m_kind; }
    SshCallbacks::HostKeyDecision decision() const { return m_decision; }
    const HostKeyInfo &info() const { return m_info; }

Q_SIGNALS:
    void decided(scalelab::SshCallbacks::HostKeyDecision decision);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QLayout *buildHeadline(const QString &message);
    QLayout *buildKeyForm();
    QDialogButtonBox *buildButtons();
    void finishWith(SshCallbacks::HostKeyDecision d);

    Kind m_kind;
    HostKeyInfo m_info;
    SshCallbacks::HostKeyDecision m_decision = SshCallbacks::HostKeyDecision::Reject;
    bool m_decided = false;
    QWidget *m_safeButton = nullptr;   // focused first: Space/Enter never trusts a key
};

}   // namespace scalelab
