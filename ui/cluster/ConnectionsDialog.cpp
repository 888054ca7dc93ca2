// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/ConnectionsDialog.h"

#include "ui/cluster/ConnectionTest.h"
#include "ui/common/AppServices.h"
#include "ui/common/ClusterService.h"
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
#include <QHeaderView>
#include <QTime>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace scalelab {

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
    , m_key(new QLineEdit)
    , m_overview(new QTreeWidget)
    , m_testButton(new QPushButton(tr("Test connection")))
    , m_cancelButton(new QPushButton(tr("Cancel test")))
    , m_progress(new QProgressBar)
    , m_result(new QPlainTextEdit)
    , m_tester(new ConnectionTest(this))
{
    setWindowTitle(tr("Cluster connections"));
    resize(620, 560);
    auto *layout = new QVBoxLayout(this);
    buildProfileRow(layout);
    buildConnectBox(layout);
    addConfigNote(layout);
    buildTestRow(layout);
    buildButtons(layout);
    connectFields();
    // Opens on the profile Compose shows, else the first.
    const int current = m_profile->findData(m_services.currentProfile());
    if (current > 0)
        m_profile->setCurrentIndex(current);   // loads the form
    else if (m_profile->count() > 0)
        loadForm(m_profile->currentData().toString());
    refreshOverview();
}

void ConnectionsDialog::buildProfileRow(QVBoxLayout *layout)
{
    auto *top = new QFormLayout;
    m_profile->setObjectName(QStringLiteral("profileCombo"));
    for (const ClusterProfile &p : m_services.profiles().profiles())
        m_profile->addItem(p.name.isEmpty() ? p.id : QStringLiteral("%1 (%2)").arg(p.name, p.id), p.id);
    top->addRow(tr("Cluster:"), m_profile);
    m_overview->setObjectName(QStringLiteral("clustersOverview"));
    m_overview->setHeaderLabels({tr("Cluster"), tr("Reached as"), tr("State")});
    m_overview->setRootIsDecorated(false);
    m_overview->setMaximumHeight(130);
    m_overview->header()->setStretchLastSection(true);
    m_overview->setToolTip(
        tr("Every cluster profile, how it is reached and how its connection stands in this session"));
    layout->addWidget(m_overview);
    layout->addLayout(top);
}

void ConnectionsDialog::buildConnectBox(QVBoxLayout *layout)
{
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
    m_key->setObjectName(QStringLiteral("keyEdit"));
    m_key->setPlaceholderText(tr("from your SSH config or agent, e.g. ~/.ssh/id_ed25519"));
    m_key->setToolTip(tr("The private key file to log in with (IdentityFile)"));
    form->addRow(m_aliasMode);
    form->addRow(tr("SSH alias:"), m_alias);
    form->addRow(QString(), m_resolved);
    form->addRow(m_hostMode);
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("User:"), m_user);
    form->addRow(tr("Port:"), m_port);
    form->addRow(tr("Jump host:"), m_jump);
    form->addRow(tr("Key file:"), m_key);
    m_form = form;
    layout->addWidget(box);
}

void ConnectionsDialog::addConfigNote(QVBoxLayout *layout)
{
    // A config named by SCALELAB_SSH_CONFIG that is missing is said here, not
    // read as empty (every alias would then be taken for a host name).
    const QString configProblem = SshConfigFile::namedFileProblem(QString());
    auto *note = new QLabel(configProblem.isEmpty()
                                ? tr("SSH config: %1. Host keys are checked against its known_hosts; unknown keys are "
                                     "shown to you before anything else is sent.")
                                      .arg(AppSettings::userSshConfigPath())
                                : tr("%1%2. Connections through its aliases fail until this is fixed.")
                                      .arg(QString(configProblem.front().toUpper()), configProblem.mid(1)));
    note->setWordWrap(true);
    note->setEnabled(!configProblem.isEmpty());   // greyed unless it is a problem
    layout->addWidget(note);
}

void ConnectionsDialog::buildTestRow(QVBoxLayout *layout)
{
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
}

void ConnectionsDialog::buildButtons(QVBoxLayout *layout)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (const auto saved = save(); saved)
            accept();
        else
            m_result->setPlainText(saved.errorText());
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void ConnectionsDialog::connectFields()
{
    connect(m_tester, &ConnectionTest::connected, this,
            [this](const QString &banner) { m_result->setPlainText(tr("Connected (%1). Asking Slurm…").arg(banner)); });
    connect(m_tester, &ConnectionTest::finished, this, &ConnectionsDialog::finishTest);
    connect(m_profile, &QComboBox::currentIndexChanged, this, [this] {
        storeForm();
        loadForm(m_profile->currentData().toString());
    });
    connect(m_aliasMode, &QRadioButton::toggled, this, &ConnectionsDialog::updateMode);
    connect(m_alias, &QLineEdit::textChanged, this, &ConnectionsDialog::updateResolved);
    connect(m_testButton, &QPushButton::clicked, this, &ConnectionsDialog::startTest);
    connect(m_cancelButton, &QPushButton::clicked, this, &ConnectionsDialog::cancelTest);
    connect(m_overview, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item)
            selectProfile(item->data(0, Qt::UserRole).toString());
    });
}

void ConnectionsDialog::refreshOverview()
{
    const SshConfigFile config = SshConfigFile::load(AppSettings::userSshConfigPath());
    ClusterService *cm = m_services.clusters();
    const QSignalBlocker block(m_overview);
    m_overview->clear();
    for (const ClusterProfile &p : m_services.profiles().profiles()) {
        const AppSettings::ClusterConnection c = m_edited.value(p.id, AppSettings::clusterConnection(p.id));
        const QString alias = AppSettings::effectiveAlias(p.id, &p);
        QString reached, state;
        if (!c.hostName.isEmpty()) {
            reached = tr("%1@%2:%3").arg(c.user, c.hostName).arg(c.port);
        } else {
            const SshHostConfig h = config.resolve(alias);
            // An alias the SSH config does not know resolves to itself.
            reached = h.hostName != h.alias ? tr("%1 (%2@%3)").arg(alias, h.user, h.hostName) : QString();
        }
        const auto tested = m_tested.constFind(p.id);
        if (reached.isEmpty())
            state = tr("not configured");
        else if (tested != m_tested.cend() && tested->details == detailsKey(c))
            state = tested->state;
        else if (const QString s = cm ? cm->connectionState(alias) : QString(); !s.isEmpty())
            state = s;
        else
            state = tr("configured, not used yet this session");
        auto *item = new QTreeWidgetItem(m_overview, {p.id, reached.isEmpty() ? tr("—") : reached, state});
        item->setData(0, Qt::UserRole, p.id);
        item->setToolTip(2, state);
        if (p.id == m_current)
            m_overview->setCurrentItem(item);
    }
    m_overview->resizeColumnToContents(0);
    m_overview->resizeColumnToContents(1);
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
    const SshHostConfig resolved = SshConfigFile::load(AppSettings::userSshConfigPath())
                                       .resolve(c.alias.isEmpty() ? m_alias->placeholderText() : c.alias);
    const bool configKnowsIt = resolved.hostName != resolved.alias;
    m_host->setText(!c.hostName.isEmpty() ? c.hostName : configKnowsIt ? resolved.hostName : login.hostName);
    m_user->setText(!c.hostName.isEmpty() ? c.user : configKnowsIt ? resolved.user : login.user);
    m_port->setValue(!c.hostName.isEmpty() ? c.port
                     : configKnowsIt       ? resolved.port
                                           : (login.port > 0 ? login.port : 22));
    m_jump->setText(!c.hostName.isEmpty() ? c.proxyJump : configKnowsIt ? resolved.proxyJump : login.proxyJump);
    m_key->setText(c.identityFile);
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
        c.identityFile = m_key->text().trimmed();
    }
    m_edited.insert(m_current, c);
}

void ConnectionsDialog::updateMode()
{
    // The other mode's rows are hidden, not greyed: a greyed field holding a
    // value looks like a placeholder, and typing into it doubled the value.
    const bool alias = m_aliasMode->isChecked();
    m_form->setRowVisible(m_alias, alias);
    m_form->setRowVisible(m_resolved, alias);
    for (QWidget *w : {static_cast<QWidget *>(m_host), static_cast<QWidget *>(m_user), static_cast<QWidget *>(m_port),
                       static_cast<QWidget *>(m_jump), static_cast<QWidget *>(m_key)})
        m_form->setRowVisible(w, !alias);
}

void ConnectionsDialog::updateResolved()
{
    const QString alias = m_alias->text().trimmed().isEmpty() ? m_alias->placeholderText() : m_alias->text().trimmed();
    const SshConfigFile config = SshConfigFile::load(AppSettings::userSshConfigPath());
    const QString error = config.errorText();
    const SshHostConfig h = config.resolve(alias);
    QString text = tr("%1 → %2@%3:%4").arg(alias, h.user, h.hostName).arg(h.port);
    if (h.hasProxyJump())
        text += tr(" via %1").arg(h.proxyJump);
    if (!error.isEmpty())
        text += QStringLiteral("\n") + error;
    m_resolved->setText(text);
}

Result<void> ConnectionsDialog::save()
{
    storeForm();
    for (auto it = m_edited.cbegin(); it != m_edited.cend(); ++it) {
        const AppSettings::ClusterConnection &c = it.value();
        if (!c.hostName.isEmpty() || !c.alias.isEmpty())
            for (const auto &[what, value] : {std::pair{tr("alias"), c.alias}, std::pair{tr("host"), c.hostName},
                                              std::pair{tr("user"), c.user}, std::pair{tr("jump host"), c.proxyJump}})
                if (!value.isEmpty())
                    if (const QString e = SshConfigFile::validateName(what, value); !e.isEmpty())
                        return fail(ErrorCode::InvalidValue, tr("%1: %2").arg(it.key(), e));
        if (!c.identityFile.isEmpty())
            if (const auto key = AppSettings::checkIdentityFile(c.identityFile); !key)
                return fail(ErrorCode::InvalidValue, tr("%1: %2").arg(it.key(), key.errorText()));
    }
    for (auto it = m_edited.cbegin(); it != m_edited.cend(); ++it)
        if (auto stored = AppSettings::setClusterConnection(it.key(), it.value()); !stored)
            return stored;
    if (auto written = AppSettings::writeGeneratedConfig(); !written)
        return written;
    if (ClusterService *cm = m_services.clusters())
        cm->connectionSettingsChanged();
    return success();
}

bool ConnectionsDialog::isTesting() const
{
    return m_tester->isRunning();
}

QString ConnectionsDialog::resultText() const
{
    return m_result->toPlainText();
}

void ConnectionsDialog::startTest()
{
    if (isTesting())
        return;
    storeForm();
    const AppSettings::ClusterConnection details = m_edited.value(m_current);
    const QString alias = m_alias->text().trimmed().isEmpty() ? m_alias->placeholderText() : m_alias->text().trimmed();
    const Result<SshConnectionSettings> prepared =
        m_tester->prepare(alias, m_hostMode->isChecked() ? &details : nullptr);
    if (!prepared) {
        m_result->setPlainText(prepared.errorText());
        return;
    }
    m_result->setPlainText(tr("Connecting to %1…").arg(prepared->alias));
    m_testButton->setEnabled(false);
    m_progress->setVisible(true);
    m_cancelButton->setVisible(true);
    m_tester->start(*prepared);
}

QString ConnectionsDialog::detailsKey(const AppSettings::ClusterConnection &c)
{
    return QStringList{c.alias, c.hostName, c.user, QString::number(c.port), c.proxyJump, c.identityFile}.join(u'\n');
}

void ConnectionsDialog::finishTest(bool ok, const QString &text)
{
    m_testButton->setEnabled(true);
    m_progress->setVisible(false);
    m_cancelButton->setVisible(false);
    m_result->setPlainText(text);
    // The overview follows the test: its first line, with the time.
    const QString at = QTime::currentTime().toString(QStringLiteral("HH:mm"));
    const QString first = text.section(u'\n', 0, 0).trimmed();
    m_tested.insert(m_current,
                    {detailsKey(m_edited.value(m_current)),
                     ok ? tr("reached by the test at %1").arg(at) : tr("the test at %1 failed: %2").arg(at, first)});
    refreshOverview();
    Q_EMIT testFinished(ok);
}

void ConnectionsDialog::cancelTest()
{
    if (!isTesting())
        return;
    m_tester->cancel();
    finishTest(false, tr("Test cancelled."));
    m_tested.remove(m_current);   // a cancelled test found nothing
    refreshOverview();
}

}   // namespace scalelab
