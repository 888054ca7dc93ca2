// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QString>

#include <optional>

class QLineEdit;

namespace scalelab {

// Asks for the passphrase of an encrypted private key (password echo mode).
// The text is handed to the SSH layer once and cleared; never stored.
class PassphraseDialog : public QDialog {
    Q_OBJECT
public:
    explicit PassphraseDialog(const QString &keyPath, QWidget *parent = nullptr);

Q_SIGNALS:
    // nullopt = cancelled
    void answered(std::optional<QString> passphrase);

private:
    void finish(bool ok);

    QLineEdit *m_edit;
    bool m_done = false;
};

}   // namespace scalelab
