// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/PassphraseDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace scalelab {

PassphraseDialog::PassphraseDialog(const QString &keyPath, QWidget *parent)
    : QDialog(parent)
    , m_edit(new QLineEdit)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Key passphrase"));
    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(tr("Passphrase for the SSH key %1:").arg(keyPath));
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setObjectName(QStringLiteral("keyLabel"));
    layout->addWidget(label);
    m_edit->setObjectName(QStringLiteral("passphraseEdit"));
    m_edit->setEchoMode(QLineEdit::Password);
    layout->addWidget(m_edit);
    auto *note = new QLabel(tr("Used for this login only; ScaleLab never stores it."));
    note->setEnabled(false);
    layout->addWidget(note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { finish(true); });
    connect(buttons, &QDialogButtonBox::rejected, this, [this] { finish(false); });
    connect(this, &QDialog::rejected, this, [this] { finish(false); });
}

void PassphraseDialog::finish(bool ok)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT answered(ok ? std::optional<QString>(m_edit->text()) : std::nullopt);
    m_edit->clear();
    ok ? accept() : reject();
}

}   // namespace scalelab
