// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/HostKeyDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace scalelab {

namespace {

QLabel *selectable(const QString &text, const char *objectName)
{
    auto *l = new QLabel;
    l->setObjectName(QLatin1String(objectName));
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setTextFormat(Qt::PlainText);
    l->setText(text);
    return l;
}

// Why a changed key is refused and how the researcher checks it.
QString changedKeyText(const HostKeyInfo &info, const QString &where, const QString &message)
{
    QString text =
        HostKeyDialog::tr("Someone could be intercepting the connection (a man-in-the-middle attack), or the "
                          "site replaced its host key. ScaleLab will not connect to this host while the "
                          "key differs from the one you trusted before.");
    if (!info.knownHostsPath.isEmpty()) {
        text += QStringLiteral("\n\n")
                + (info.conflictingLine > 0 ? HostKeyDialog::tr("The trusted key is in %1, line %2.")
                                                  .arg(info.knownHostsPath)
                                                  .arg(info.conflictingLine)
                                            : HostKeyDialog::tr("Known hosts file: %1.").arg(info.knownHostsPath));
        text +=
            QLatin1Char(' ')
            + HostKeyDialog::tr("Only if your site announced a new key: check the new fingerprint with the site, then "
                                "remove the old entry from that file (ssh-keygen -R %1 -f %2).")
                  .arg(where, info.knownHostsPath);
    }
    if (!message.isEmpty())
        text += QStringLiteral("\n\n") + message;
    return text;
}

}   // namespace

HostKeyDialog::HostKeyDialog(Kind kind, const HostKeyInfo &info, const QString &message, QWidget *parent)
    : QDialog(parent)
    , m_kind(kind)
    , m_info(info)
{
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buildHeadline(message));
    layout->addLayout(buildKeyForm());
    layout->addWidget(buildButtons());
    // Escape, the window's close button and the caller's reject() all refuse.
    connect(this, &QDialog::rejected, this, [this] { finishWith(SshCallbacks::HostKeyDecision::Reject); });
}

// The icon, the headline and the explanation; the window title.
QLayout *HostKeyDialog::buildHeadline(const QString &message)
{
    auto *headline = new QLabel;
    headline->setObjectName(QStringLiteral("headline"));
    headline->setWordWrap(true);
    auto *explanation = new QLabel;
    explanation->setObjectName(QStringLiteral("explanation"));
    explanation->setWordWrap(true);
    explanation->setTextFormat(Qt::PlainText);

    const QString where = m_info.port == 22 ? m_info.host : QStringLiteral("[%1]:%2").arg(m_info.host).arg(m_info.port);
    if (m_kind == Kind::Unknown) {
        setWindowTitle(tr("Unknown host key — %1").arg(where));
        headline->setText(tr("<b>The authenticity of %1 cannot be established.</b>").arg(where.toHtmlEscaped()));
        explanation->setText(
            tr("This server's key is not in your known_hosts file. Compare the fingerprint below with the one "
               "your site publishes before you accept it."));
    } else {
        setWindowTitle(tr("HOST KEY CHANGED — %1").arg(where));
        headline->setText(
            tr("<span style='color:#b00020'><b>WARNING: the host key of %1 has changed. The connection was "
               "refused.</b></span>")
                .arg(where.toHtmlEscaped()));
        explanation->setText(changedKeyText(m_info, where, message));
        explanation->setStyleSheet(QStringLiteral("color: #b00020;"));
    }
    auto *top = new QHBoxLayout;
    auto *icon = new QLabel;
    icon->setPixmap(
        style()
            ->standardIcon(m_kind == Kind::Unknown ? QStyle::SP_MessageBoxQuestion : QStyle::SP_MessageBoxCritical)
            .pixmap(48, 48));
    icon->setAlignment(Qt::AlignTop);
    top->addWidget(icon);
    auto *texts = new QVBoxLayout;
    texts->addWidget(headline);
    texts->addWidget(explanation);
    top->addLayout(texts, 1);
    return top;
}

// Host, port, key type and fingerprint, selectable.
QLayout *HostKeyDialog::buildKeyForm()
{
    auto *form = new QFormLayout;
    form->addRow(tr("Host:"), selectable(m_info.host, "hostLabel"));
    form->addRow(tr("Port:"), selectable(QString::number(m_info.port), "portLabel"));
    form->addRow(tr("Key type:"), selectable(m_info.keyType, "keyTypeLabel"));
    auto *fp = selectable(m_info.fingerprintSha256, "fingerprintLabel");
    fp->setFont(QFont(QStringLiteral("monospace")));
    form->addRow(m_kind == Kind::Unknown ? tr("Fingerprint:") : tr("Offered key:"), fp);
    if (!m_info.knownHostsPath.isEmpty())
        form->addRow(tr("Known hosts file:"), selectable(m_info.knownHostsPath, "knownHostsLabel"));
    return form;
}

// Unknown key: accept once, remember or cancel (the default); changed: close.
QDialogButtonBox *HostKeyDialog::buildButtons()
{
    auto *buttons = new QDialogButtonBox;
    if (m_kind == Kind::Unknown) {
        auto *once = buttons->addButton(tr("Accept once"), QDialogButtonBox::AcceptRole);
        once->setObjectName(QStringLiteral("acceptOnceButton"));
        auto *remember = buttons->addButton(tr("Accept and remember"), QDialogButtonBox::AcceptRole);
        remember->setObjectName(QStringLiteral("acceptRememberButton"));
        auto *cancel = buttons->addButton(QDialogButtonBox::Cancel);
        cancel->setObjectName(QStringLiteral("cancelButton"));
        cancel->setDefault(true);   // Enter must not trust a key by accident
        m_safeButton = cancel;
        connect(once, &QPushButton::clicked, this, [this] { finishWith(SshCallbacks::HostKeyDecision::AcceptOnce); });
        connect(remember, &QPushButton::clicked, this,
                [this] { finishWith(SshCallbacks::HostKeyDecision::AcceptAndRemember); });
        connect(cancel, &QPushButton::clicked, this, [this] { finishWith(SshCallbacks::HostKeyDecision::Reject); });
    } else {
        auto *close = buttons->addButton(QDialogButtonBox::Close);
        close->setObjectName(QStringLiteral("closeButton"));
        m_safeButton = close;
        connect(close, &QPushButton::clicked, this, [this] { finishWith(SshCallbacks::HostKeyDecision::Reject); });
    }
    return buttons;
}

void HostKeyDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    if (m_safeButton)
        m_safeButton->setFocus();
}

void HostKeyDialog::finishWith(SshCallbacks::HostKeyDecision d)
{
    if (m_decided)
        return;
    m_decided = true;
    m_decision = m_kind == Kind::Changed ? SshCallbacks::HostKeyDecision::Reject : d;
    Q_EMIT decided(m_decision);
    if (d == SshCallbacks::HostKeyDecision::Reject)
        reject();
    else
        accept();
}

}   // namespace scalelab
