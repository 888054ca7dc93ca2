// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/DiagnosticsDialog.h"

#include "core/base/Logging.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace scalelab {

DiagnosticsDialog::DiagnosticsDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Diagnostics"));
    setObjectName(QStringLiteral("diagnosticsDialog"));
    resize(900, 520);
    auto *layout = new QVBoxLayout(this);
    m_where = new QLabel(this);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setWordWrap(true);
    layout->addWidget(m_where);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("diagnosticsText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_text, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("copyDiagnostics"));
    QPushButton *refresh = buttons->addButton(tr("&Reload"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    connect(refresh, &QPushButton::clicked, this, &DiagnosticsDialog::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    reload();
}

QString DiagnosticsDialog::text() const
{
    return m_text->toPlainText();
}

void DiagnosticsDialog::reload()
{
    // The tail is capped (256 KiB): reading it is a millisecond-scale local read.
    const QString path = LogFile::path();
    m_where->setText(path.isEmpty() ? tr("Logging to a file is off in this process.")
                                    : tr("The last part of %1. Choose what is logged with QT_LOGGING_RULES, e.g. "
                                         "QT_LOGGING_RULES=\"scalelab.ssh.info=false\".")
                                          .arg(path));
    const QString tail = LogFile::tail();
    m_text->setPlainText(tail.isEmpty() ? tr("(nothing logged yet)") : tail);
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
}

}   // namespace scalelab
