// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/MfaDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace scalelab {

MfaDialog::MfaDialog(const QString &name, const QString &instruction, const QList<SshCallbacks::KbdPrompt> &prompts,
                     QWidget *parent)
    : QDialog(parent)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(name.trimmed().isEmpty() ? tr("Login") : name.trimmed());
    auto *layout = new QVBoxLayout(this);
    if (!instruction.trimmed().isEmpty()) {
        auto *l = new QLabel(instruction.trimmed());
        l->setObjectName(QStringLiteral("instructionLabel"));
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
        layout->addWidget(l);
    }
    auto *form = new QFormLayout;
    for (qsizetype i = 0; i < prompts.size(); ++i) {
        auto *label = new QLabel(prompts[i].text.trimmed());
        label->setTextFormat(Qt::PlainText);
        auto *edit = new QLineEdit;
        edit->setObjectName(QStringLiteral("promptEdit%1").arg(i));
        edit->setEchoMode(prompts[i].echo ? QLineEdit::Normal : QLineEdit::Password);
        label->setBuddy(edit);
        form->addRow(label, edit);
        m_edits << edit;
    }
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { finish(true); });
    connect(buttons, &QDialogButtonBox::rejected, this, [this] { finish(false); });
    connect(this, &QDialog::rejected, this, [this] { finish(false); });
}

void MfaDialog::finish(bool ok)
{
    if (m_done)
        return;
    m_done = true;
    std::optional<QStringList> answers;
    if (ok) {
        answers = QStringList();
        for (QLineEdit *e : std::as_const(m_edits))
            answers->append(e->text());
    }
    Q_EMIT answered(answers);
    for (QLineEdit *e : std::as_const(m_edits))
        e->clear();
    ok ? accept() : reject();
}

}   // namespace scalelab
