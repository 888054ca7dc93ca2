// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/AddClusterPages.h"

#include "core/sshconfig/SshConfigFile.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace scalelab {

namespace {

QLabel *wrapped(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::PlainText);
    return l;
}

QLabel *problemLabel(QWidget *parent)
{
    auto *l = wrapped(QString(), parent);
    l->setObjectName(QStringLiteral("problemLabel"));
    l->setStyleSheet(QStringLiteral("color: #c62828;"));
    return l;
}

}   // namespace

AddClusterIntroPage::AddClusterIntroPage(QWidget *parent)
    : QWizardPage(parent)
{
    setTitle(tr("Add your cluster"));
    setSubTitle(tr("ScaleLab has no cluster yet. It can learn yours in a minute."));
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(
        wrapped(tr("1. Choose how you log in: an alias of your SSH config, or host, user, port and jump host.\n"
                   "2. ScaleLab connects. A host key it has not seen is shown to you (with its fingerprint) before "
                   "anything else is sent.\n"
                   "3. It runs read-only Slurm commands (scontrol, sinfo, sacctmgr) in one round trip and builds a "
                   "profile: partitions, GPUs per node, time and node limits, QOS limits, each with the command and "
                   "date it came from.\n"
                   "4. You review and edit what was found, save it as your profile, and start composing jobs with it."),
                this));
    lay->addStretch(1);
}

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

AddClusterDiscoverPage::AddClusterDiscoverPage(QWidget *parent)
    : QWizardPage(parent)
    , m_log(new QPlainTextEdit(this))
    , m_progress(new QProgressBar(this))
    , m_retry(new QPushButton(tr("Try again"), this))
{
    setTitle(tr("Connect and discover"));
    setSubTitle(tr("Host key check, login, then read-only Slurm commands (one round trip)."));
    m_log->setObjectName(QStringLiteral("discoverLog"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_progress->setRange(0, 0);
    m_retry->setObjectName(QStringLiteral("retryButton"));
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(m_log, 1);
    auto *row = new QHBoxLayout;
    row->addWidget(m_progress, 1);
    row->addWidget(m_retry);
    lay->addLayout(row);
    connect(m_retry, &QPushButton::clicked, this, &AddClusterDiscoverPage::started);
    setRunning(false);
}

void AddClusterDiscoverPage::initializePage()
{
    m_done = false;
    Q_EMIT started();
}

void AddClusterDiscoverPage::cleanupPage()
{
    m_done = false;
}

void AddClusterDiscoverPage::setRunning(bool running)
{
    m_running = running;
    m_progress->setVisible(running);
    m_retry->setVisible(!running && !m_done);
    Q_EMIT completeChanged();
}

void AddClusterDiscoverPage::appendLine(const QString &line)
{
    m_log->appendPlainText(line);
}
void AddClusterDiscoverPage::clearLog()
{
    m_log->clear();
}
QString AddClusterDiscoverPage::logText() const
{
    return m_log->toPlainText();
}

void AddClusterDiscoverPage::setOutcome(const std::optional<DiscoveryOutcome> &outcome)
{
    m_done = outcome && outcome->ok() && !outcome->built.profile.partitions.isEmpty();
    setRunning(false);
}

bool AddClusterDiscoverPage::isComplete() const
{
    return m_done && !m_running;
}

}   // namespace scalelab
