// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/ConnectionsDialog.h"

#include "ui/common/AppServices.h"
#include "core/ssh/ClusterConnection.h"
#include "ui/common/ClusterService.h"
#include "ui/cluster/GuiSshCallbacks.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QVBoxLayout>

namespace scalelab {

namespace {

QString sanitize(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes).trimmed();
    s.removeIf([](QChar c) { return c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t'); });
    return s;
}

} // namespace

ConnectionsDialog::ConnectionsDialog(AppServices &services, QWidget *parent)
    : QDialog(parent)
    , m_services(services)
    , m_profile(new QComboBox)
    , m_aliasMode(new QRadioButton(tr("Alias from my SSH config")))
    , m_hostMode(new QRadioButton(tr("Host details")))
    , m_alias(new QLineEdit)
    , m_resolved(new QLabel)
    , m_host(new QLineEdit)
    , m_user(new QLineEdit)
    , m_port(new QSpinBox)
    , m_jump(new QLineEdit)
    , m_testButton(new QPushButton(tr("Test connection")))
    , m_cancelButton(new QPushButton(tr("Cancel test")))
    , m_progress(new QProgressBar)
    , m_result(new QPlainTextEdit)
{
    setWindowTitle(tr("Cluster connections"));
    resize(620, 560);
    auto *layout = new QVBoxLayout(this);
    auto *top = new QFormLayout;
    m_profile->setObjectName(QStringLiteral("profileCombo"));
    for (const ClusterProfile &p : m_services.profiles().profiles())
        m_profile->addItem(p.name.isEmpty() ? p.id : QStringLiteral("%1 (%2)").arg(p.name, p.id), p.id);
    top->addRow(tr("Cluster:"), m_profile);
    layout->addLayout(top);

    auto *box = new QGroupBox(tr("Connect with"));
    auto *form = new QFormLayout(box);
    m_aliasMode->setObjectName(QStringLiteral("aliasMode"));
    m_hostMode->setObjectName(QStringLiteral("hostMode"));
    m_alias->setObjectName(QStringLiteral("aliasEdit"));
    m_resolved->setObjectName(QStringLiteral("resolvedLabel"));
    m_resolved->setTextFormat(Qt::PlainText);
    m_resolved->setWordWrap(true);
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(1, 65535);
    m_jump->setObjectName(QStringLiteral("jumpEdit"));
    m_jump->setPlaceholderText(tr("none (an alias of your SSH config, or user@host:port)"));
    form->addRow(m_aliasMode);
    form->addRow(tr("SSH alias:"), m_alias);
    form->addRow(QString(), m_resolved);
    form->addRow(m_hostMode);
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("User:"), m_user);
    form->addRow(tr("Port:"), m_port);
    form->addRow(tr("Jump host:"), m_jump);
    layout->addWidget(box);
    auto *note = new QLabel(tr("SSH config: %1. Host keys are checked against its known_hosts; unknown keys are "
                               "shown to you before anything else is sent.")
                                .arg(AppSettings::userSshConfigPath()));
    note->setWordWrap(true);
    note->setEnabled(false);
    layout->addWidget(note);

    auto *testRow = new QHBoxLayout;
    m_testButton->setObjectName(QStringLiteral("testButton"));
    m_cancelButton->setObjectName(QStringLiteral("cancelTestButton"));
    m_progress->setRange(0, 0);   // busy
    m_progress->setVisible(false);
    m_cancelButton->setVisible(false);
    testRow->addWidget(m_testButton);
    testRow->addWidget(m_progress, 1);
    testRow->addWidget(m_cancelButton);
    layout->addLayout(testRow);
    m_result->setObjectName(QStringLiteral("testResult"));
    m_result->setReadOnly(true);
    m_result->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_result->setPlaceholderText(tr("Test shows the Slurm version and your accounts and partitions."));
    layout->addWidget(m_result, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        const QString e = save();
        if (e.isEmpty())
            accept();
        else
            m_result->setPlainText(e);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_profile, &QComboBox::currentIndexChanged, this, [this] {
        storeForm();
        loadForm(m_profile->currentData().toString());
    });
    connect(m_aliasMode, &QRadioButton::toggled, this, &ConnectionsDialog::updateMode);
    connect(m_alias, &QLineEdit::textChanged, this, &ConnectionsDialog::updateResolved);
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionsDialog::startTest);
    connect(m_cancelButton, &QPushButton::clicked, this, &ConnectionsDialog::cancelTest);
    if (m_profile->count() > 0)
        loadForm(m_profile->currentData().toString());
}

ConnectionsDialog::~ConnectionsDialog()
{
    cancelTest();
}

void ConnectionsDialog::selectProfile(const QString &profileId)
{
    const int i = m_profile->findData(profileId);
    if (i >= 0)
        m_profile->setCurrentIndex(i);
}

void ConnectionsDialog::loadForm(const QString &profileId)
{
    m_current = profileId;
    const ClusterProfile *profile = m_services.profiles().find(profileId);
    const AppSettings::ClusterConnection c =
        m_edited.contains(profileId) ? m_edited.value(profileId) : AppSettings::clusterConnection(profileId);
    const LoginHost login = profile && !profile->loginHosts.isEmpty() ? profile->loginHosts.first() : LoginHost();
    m_alias->setPlaceholderText(login.alias.isEmpty() ? profileId : login.alias);
    m_alias->setText(c.alias);
    // Host details: what was stored, else what the SSH config says, else the profile.
    const SshHostConfig resolved =
        SshConfigFile::load(AppSettings::userSshConfigPath()).resolve(c.alias.isEmpty() ? m_alias->placeholderText() : c.alias);
    const bool configKnowsIt = resolved.hostName != resolved.alias;
    m_host->setText(!c.hostName.isEmpty() ? c.hostName : configKnowsIt ? resolved.hostName : login.hostName);
    m_user->setText(!c.hostName.isEmpty() ? c.user : configKnowsIt ? resolved.user : login.user);
    m_port->setValue(!c.hostName.isEmpty() ? c.port : configKnowsIt ? resolved.port : (login.port > 0 ? login.port : 22));
    m_jump->setText(!c.hostName.isEmpty() ? c.proxyJump : configKnowsIt ? resolved.proxyJump : login.proxyJump);
    (c.hostName.isEmpty() ? m_aliasMode : m_hostMode)->setChecked(true);
    updateMode();
    updateResolved();
}

void ConnectionsDialog::storeForm()
{
    if (m_current.isEmpty())
        return;
    AppSettings::ClusterConnection c;
    c.alias = m_alias->text().trimmed();
    if (m_hostMode->isChecked()) {
        c.hostName = m_host->text().trimmed();
        c.user = m_user->text().trimmed();
        c.port = m_port->value();
        c.proxyJump = m_jump->text().trimmed();
    }
    m_edited.insert(m_current, c);
}

void ConnectionsDialog::updateMode()
{
    const bool alias = m_aliasMode->isChecked();
    m_alias->setEnabled(alias);
    m_resolved->setEnabled(alias);
    for (QWidget *w : {static_cast<QWidget *>(m_host), static_cast<QWidget *>(m_user),
                       static_cast<QWidget *>(m_port), static_cast<QWidget *>(m_jump)})
        w->setEnabled(!alias);
}

void ConnectionsDialog::updateResolved()
{
    const QString alias = m_alias->text().trimmed().isEmpty() ? m_alias->placeholderText() : m_alias->text().trimmed();
    QString error;
    const SshConfigFile config = SshConfigFile::load(AppSettings::userSshConfigPath(), &error);
    const SshHostConfig h = config.resolve(alias);
    QString text = tr("%1 → %2@%3:%4").arg(alias, h.user, h.hostName).arg(h.port);
    if (h.hasProxyJump())
        text += tr(" via %1").arg(h.proxyJump);
    if (!error.isEmpty())
        text += QStringLiteral("\n") + error;
    m_resolved->setText(text);
}

QString ConnectionsDialog::save()
{
    storeForm();
    for (auto it = m_edited.cbegin(); it != m_edited.cend(); ++it) {
        const AppSettings::ClusterConnection &c = it.value();
        if (!c.hostName.isEmpty() || !c.alias.isEmpty())
            for (const auto &[what, value] : {std::pair{tr("alias"), c.alias}, std::pair{tr("host"), c.hostName},
                                              std::pair{tr("user"), c.user}, std::pair{tr("jump host"), c.proxyJump}})
                if (!value.isEmpty())
                    if (const QString e = SshConfigFile::validateName(what, value); !e.isEmpty())
                        return tr("%1: %2").arg(it.key(), e);
    }
    for (auto it = m_edited.cbegin(); it != m_edited.cend(); ++it)
        AppSettings::setClusterConnection(it.key(), it.value());
    if (const QString e = AppSettings::writeGeneratedConfig(); !e.isEmpty())
        return e;
    if (ClusterService *cm = m_services.clusters())
        cm->connectionSettingsChanged();
    return {};
}

QStringList ConnectionsDialog::parseAssociations(const QByteArray &out)
{
    QMap<QString, QStringList> byAccount;
    for (const QString &line : sanitize(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.trimmed().split(QLatin1Char('|'));
        if (f.value(0).isEmpty())
            continue;
        QStringList &parts = byAccount[f.value(0)];
        const QString partition = f.value(1).trimmed();
        if (!partition.isEmpty() && !parts.contains(partition))
            parts << partition;
    }
    QStringList lines;
    for (auto it = byAccount.cbegin(); it != byAccount.cend(); ++it)
        lines << QStringLiteral("%1: %2").arg(it.key(), it.value().isEmpty() ? tr("all partitions")
                                                                               : it.value().join(QLatin1String(", ")));
    return lines;
}

QString ConnectionsDialog::resultText() const { return m_result->toPlainText(); }

void ConnectionsDialog::startTest()
{
    if (m_test)
        return;
    storeForm();
    SshConnectionSettings settings;
    settings.configPath = AppSettings::userSshConfigPath();
    if (m_hostMode->isChecked()) {
        // Test what is in the form, before it is saved: a one-off config entry.
        const AppSettings::ClusterConnection c = m_edited.value(m_current);
        for (const auto &[what, value] : {std::pair{tr("host"), c.hostName}, std::pair{tr("user"), c.user},
                                          std::pair{tr("jump host"), c.proxyJump}})
            if (const QString e = value.isEmpty() ? QString() : SshConfigFile::validateName(what, value); !e.isEmpty()) {
                m_result->setPlainText(e);
                return;
            }
        if (c.hostName.isEmpty()) {
            m_result->setPlainText(tr("Enter the host name of the login node."));
            return;
        }
        m_testConfigDir = std::make_shared<QTemporaryDir>();
        QString text = QStringLiteral("Host scalelab-test\n  HostName %1\n").arg(c.hostName);
        if (!c.user.isEmpty())
            text += QStringLiteral("  User %1\n").arg(c.user);
        text += QStringLiteral("  Port %1\n").arg(c.port);
        if (!c.proxyJump.isEmpty())
            text += QStringLiteral("  ProxyJump %1\n").arg(c.proxyJump);
        text += QStringLiteral("Match all\n  Include %1\n").arg(AppSettings::userSshConfigPath());
        QFile f(m_testConfigDir->filePath(QStringLiteral("ssh_config")));
        if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0) {
            m_result->setPlainText(tr("Cannot write %1").arg(f.fileName()));
            return;
        }
        f.close();
        settings.configPath = f.fileName();
        settings.alias = QStringLiteral("scalelab-test");
    } else {
        settings.alias = m_alias->text().trimmed().isEmpty() ? m_alias->placeholderText() : m_alias->text().trimmed();
        if (const QString e = SshConfigFile::validateName(tr("alias"), settings.alias); !e.isEmpty()) {
            m_result->setPlainText(e);
            return;
        }
    }

    m_result->setPlainText(tr("Connecting to %1…").arg(settings.alias));
    m_testButton->setEnabled(false);
    m_progress->setVisible(true);
    m_cancelButton->setVisible(true);
    // Both live until the task ended, even if this dialog is gone by then.
    auto *callbacks = new GuiSshCallbacks(settings.alias);
    callbacks->setDialogParent(this);
    auto *conn = new ClusterConnection(settings, callbacks);
    m_test = conn;
    m_testCallbacks = callbacks;
    connect(conn, &ClusterConnection::stateChanged, this, [this, conn](ClusterConnection::State s, const QString &m) {
        if (conn == m_test && s == ClusterConnection::State::Connected)
            m_result->setPlainText(tr("Connected (%1). Asking Slurm…").arg(m.trimmed()));
    });
    auto configDir = m_testConfigDir;
    connect(conn, &ClusterConnection::taskFinished, conn, [conn, callbacks, configDir] {
        conn->stop();   // idle now: only disconnects
        conn->deleteLater();
        callbacks->deleteLater();
    });
    conn->start();
    conn->enqueue([self = QPointer(this), conn](RemoteExecutor &ex) {
        QStringList lines;
        bool ok = false;
        const RemoteResult version = ex.run({QStringLiteral("sbatch"), QStringLiteral("--version")}, 30000);
        if (!version.transportOk()) {
            lines << tr("Connection failed: %1").arg(version.transportError);
        } else {
            lines << (version.ok() ? tr("Slurm: %1").arg(sanitize(version.out))
                                   : tr("sbatch --version failed: %1").arg(sanitize(version.err)));
            const RemoteResult id = ex.run({QStringLiteral("id"), QStringLiteral("-un")}, 30000);
            const QString user = sanitize(id.out);
            static const QRegularExpression userRe(QStringLiteral("^[A-Za-z0-9_.][A-Za-z0-9_.@-]*$"));
            if (!id.ok() || !userRe.match(user).hasMatch()) {
                lines << tr("Cannot tell the user name (id -un): %1").arg(sanitize(id.err + id.out));
            } else {
                lines << tr("User: %1").arg(user);
                const RemoteResult assoc =
                    ex.run({QStringLiteral("sacctmgr"), QStringLiteral("-nP"), QStringLiteral("show"),
                            QStringLiteral("assoc"), QStringLiteral("user=") + user,
                            QStringLiteral("format=account,partition")},
                           30000);
                if (assoc.ok()) {
                    const QStringList accounts = parseAssociations(assoc.out);
                    lines << (accounts.isEmpty() ? tr("Accounts: none found for %1").arg(user)
                                                 : tr("Accounts and partitions:\n  %1").arg(accounts.join(QLatin1String("\n  "))));
                    ok = version.ok();
                } else {
                    lines << tr("sacctmgr failed: %1").arg(sanitize(assoc.err));
                }
            }
        }
        const QString text = lines.join(QLatin1Char('\n'));
        QMetaObject::invokeMethod(
            self,
            [self, conn, ok, text] {
                if (self && self->m_test == conn)
                    self->finishTest(ok, text);
            },
            Qt::QueuedConnection);
    });
}

void ConnectionsDialog::finishTest(bool ok, const QString &text)
{
    m_test = nullptr;
    m_testCallbacks = nullptr;
    m_testButton->setEnabled(true);
    m_progress->setVisible(false);
    m_cancelButton->setVisible(false);
    m_result->setPlainText(text);
    Q_EMIT testFinished(ok);
}

void ConnectionsDialog::cancelTest()
{
    if (!m_test)
        return;
    // Do not wait for the worker: its questions answer "cancelled" from now
    // on, and the connection deletes itself when its one task returns.
    m_testCallbacks->stop();
    m_test->disconnect(this);
    finishTest(false, tr("Test cancelled."));
}

} // namespace scalelab
