// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/SshCallbacks.h"

#include <QDialog>
#include <QList>
#include <QStringList>

#include <optional>

class QLineEdit;

namespace scalelab {

// One round of keyboard-interactive authentication (password, one-time
// code...): every prompt as a label + line edit. A prompt with echo=false is
// a secret and is typed in password mode.
class MfaDialog : public QDialog {
    Q_OBJECT
public:
    MfaDialog(const QString &name, const QString &instruction, const QList<SshCallbacks::KbdPrompt> &prompts,
              QWidget *parent = nullptr);

    QList<QLineEdit *> edits() const { return m_edits; }

Q_SIGNALS:
    void answered(std::optional<QStringList> answers);   // nullopt = cancelled

private:
    void finish(bool ok);

    QList<QLineEdit *> m_edits;
    bool m_done = false;
};

}   // namespace scalelab
