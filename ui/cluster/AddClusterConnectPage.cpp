// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/AddClusterConnectPage.h"

#include "core/sshconfig/SshConfigFile.h"
#include "ui/cluster/AddClusterLabels.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QRadioButton>
#include <QSpinBox>

namespace scalelab {

using addcluster::problemLabel;
using addcluster::wrapped;

AddClusterConnectPage::AddClusterConnectPage(const QString &sshConfig, QWidget *parent)
    : QWizardPage(parent)
    , m_sshConfig(sshConfig)
    , m_aliasMode(new QRadioButton(tr("An alias of my SSH config"), this))
    , m_hostMode(new QRadioButton(tr("Host details"), this))
    , m_alias(new QComboBox(this))
    , m_resolved(wrapped(QString(), this))
    , m_host(new QLineEdit(this))
    , m_user(new QLineEdit(this))
    , m_port(new QSpinBox(this))
    , m_jump(new QLineEdit(this))
    , m_problem(problemLabel(this))
{
    setTitle(tr("How do you log in?"));
    setSubTitle(tr("SSH config: %1").arg(sshConfig));
    m_aliasMode->setObjectName(QStringLiteral("aliasMode"));
    m_hostMode->setObjectName(QStringLiteral("hostMode"));
    m_alias->setObjectName(QStringLiteral("aliasCombo"));
    m_alias->setEditable(true);
    m_alias->addItems(SshConfigFile::load(sshConfig).hostAliases());
    m_resolved->setObjectName(QStringLiteral("resolvedLabel"));
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_host->setPlaceholderText(tr("login.cluster.example.org"));
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(tr("your user name on the cluster"));
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(1, 65535);
    m_port->setValue(22);
    m_jump->setObjectName(QStringLiteral("jumpEdit"));
    m_jump->setPlaceholderText(tr("none (an alias of your SSH config, or user@host:port)"));

    auto *form = new QFormLayout(this);
    form->addRow(m_aliasMode);
    form->addRow(tr("SSH alias:"), m_alias);
    form->addRow(QString(), m_resolved);
    form->addRow(m_hostMode);
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("User:"), m_user);
    form->addRow(tr("Port:"), m_port);
    form->addRow(tr("Jump host:"), m_jump);
    form->addRow(m_problem);
    (m_alias->count() > 0 ? m_aliasMode : m_hostMode)->setChecked(true);

    connect(m_aliasMode, &QRadioButton::toggled, this, &AddClusterConnectPage::updateMode);
    connect(m_alias, &QComboBox::currentTextChanged, this, &AddClusterConnectPage::updateResolved);
    for (QLineEdit *e : {m_host, m_user, m_jump})
        connect(e, &QLineEdit::textChanged, this, [this] {
            m_problem->clear();
            Q_EMIT completeChanged();
        });
    updateMode();
    updateResolved();
}

bool AddClusterConnectPage::aliasMode() const
{
    return m_aliasMode->isChecked();
}

QString AddClusterConnectPage::alias() const
{
    return m_alias->currentText().trimmed();
}

QString AddClusterConnectPage::host() const
{
    return m_host->text().trimmed();
}

QString AddClusterConnectPage::user() const
{
    return m_user->text().trimmed();
}

int AddClusterConnectPage::port() const
{
    return m_port->value();
}

QString AddClusterConnectPage::jump() const
{
    return m_jump->text().trimmed();
}

void AddClusterConnectPage::updateMode()
{
    const bool a = aliasMode();
    m_alias->setEnabled(a);
    m_resolved->setEnabled(a);
    for (QWidget *w : std::initializer_list<QWidget *>{m_host, m_user, m_port, m_jump})
        w->setEnabled(!a);
    m_problem->clear();
    Q_EMIT completeChanged();
}

void AddClusterConnectPage::updateResolved()
{
    const QString a = alias();
    if (a.isEmpty()) {
        m_resolved->setText(tr("Pick or type an alias."));
    } else {
        const SshHostConfig h = SshConfigFile::load(m_sshConfig).resolve(a);
        QString text =
            tr("→ %1@%2, port %3").arg(h.user.isEmpty() ? tr("(your local user)") : h.user, h.hostName).arg(h.port);
        if (h.hasProxyJump())
            text += tr(", through %1").arg(h.proxyJump);
        m_resolved->setText(text);
    }
    m_problem->clear();
    Q_EMIT completeChanged();
}

Result<void> AddClusterConnectPage::check() const
{
    QList<std::pair<QString, QString>> names;   // what, value
    if (aliasMode()) {
        if (alias().isEmpty())
            return fail(ErrorCode::InvalidValue, tr("SSH alias: pick one of your SSH config or type one."));
        names = {{tr("alias"), alias()}};
    } else {
        if (host().isEmpty())
            return fail(ErrorCode::InvalidValue, tr("Host: enter the host name of the login node."));
        names = {{tr("host"), host()}, {tr("user"), user()}, {tr("jump host"), jump()}};
    }
    for (const auto &[what, value] : std::as_const(names))
        if (!value.isEmpty())
            if (const QString e = SshConfigFile::validateName(what, value); !e.isEmpty())
                return fail(ErrorCode::InvalidValue, e);
    return success();
}

bool AddClusterConnectPage::isComplete() const
{
    return aliasMode() ? !alias().isEmpty() : !host().isEmpty();
}

bool AddClusterConnectPage::validatePage()
{
    const Result<void> checked = check();
    m_problem->setText(checked.errorText());
    return checked.ok();
}

}   // namespace scalelab
