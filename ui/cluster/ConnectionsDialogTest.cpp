// SPDX-License-Identifier: GPL-3.0-or-later
// ConnectionsDialog: "Test connection" (a one-off login that asks Slurm).
#include "ui/cluster/ConnectionsDialog.h"

#include "core/base/AtomicFile.h"
#include "core/client/LoginCheck.h"
#include "core/ssh/ClusterConnection.h"
#include "core/sshconfig/SshConfigFile.h"
#include "ui/cluster/GuiSshCallbacks.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QLineEdit>
#include <QTemporaryDir>

namespace scalelab {

namespace {

// On the worker: Slurm's version, the user and their accounts and partitions
// (LoginCheck); ok when all of them could be read.
QStringList askSlurm(RemoteExecutor &ex, bool &ok)
{
    const Result<LoginFacts> facts = LoginCheck::run(ex, LoginCheck::Scope::Accounts);
    ok = facts.ok();
    QStringList lines;
    if (facts.failedWith(ErrorCode::Transport)) {
        lines << ConnectionsDialog::tr("Connection failed: %1").arg(facts.errorText());
    } else if (!facts) {
        lines << facts.errorText();
    } else {
        const QStringList accounts = ConnectionsDialog::accountLines(facts->accounts);
        lines << ConnectionsDialog::tr("Slurm: %1").arg(facts->slurm)
              << ConnectionsDialog::tr("User: %1").arg(facts->user)
              << (accounts.isEmpty() ? ConnectionsDialog::tr("Accounts: none found for %1").arg(facts->user)
                                     : ConnectionsDialog::tr("Accounts and partitions:\n  %1")
                                           .arg(accounts.join(QLatin1String("\n  "))));
    }
    return lines;
}

}   // namespace

QString ConnectionsDialog::resultText() const
{
    return m_result->toPlainText();
}

Result<SshConnectionSettings> ConnectionsDialog::testSettings()
{
    SshConnectionSettings settings;
    settings.configPath = AppSettings::userSshConfigPath();
    if (!m_hostMode->isChecked()) {
        settings.alias = m_alias->text().trimmed().isEmpty() ? m_alias->placeholderText() : m_alias->text().trimmed();
        if (const QString e = SshConfigFile::validateName(tr("alias"), settings.alias); !e.isEmpty())
            return fail(ErrorCode::InvalidValue, e);
        return settings;
    }
    // Test what is in the form, before it is saved: a one-off config entry.
    const AppSettings::ClusterConnection c = m_edited.value(m_current);
    for (const auto &[what, value] :
         {std::pair{tr("host"), c.hostName}, std::pair{tr("user"), c.user}, std::pair{tr("jump host"), c.proxyJump}})
        if (const QString e = value.isEmpty() ? QString() : SshConfigFile::validateName(what, value); !e.isEmpty())
            return fail(ErrorCode::InvalidValue, e);
    if (c.hostName.isEmpty())
        return fail(ErrorCode::InvalidValue, tr("Enter the host name of the login node."));
    m_testConfigDir = std::make_shared<QTemporaryDir>();
    QString text = QStringLiteral("Host scalelab-test\n  HostName %1\n").arg(c.hostName);
    if (!c.user.isEmpty())
        text += QStringLiteral("  User %1\n").arg(c.user);
    text += QStringLiteral("  Port %1\n").arg(c.port);
    if (!c.proxyJump.isEmpty())
        text += QStringLiteral("  ProxyJump %1\n").arg(c.proxyJump);
    if (!c.identityFile.isEmpty()) {
        if (auto key = AppSettings::checkIdentityFile(c.identityFile); !key)
            return fail(key.error());
        text += QStringLiteral("  IdentityFile \"%1\"\n").arg(c.identityFile);
    }
    text += QStringLiteral("Match all\n  Include %1\n").arg(AppSettings::userSshConfigPath());
    const QString file = m_testConfigDir->filePath(QStringLiteral("ssh_config"));
    if (const auto written = AtomicFile::write(file, text.toUtf8()); !written)
        return fail(ErrorCode::LocalFile, tr("Cannot prepare the test of these host details (%1); test again, or "
                                             "save and use Refresh now.")
                                              .arg(written.errorText()));
    settings.configPath = file;
    settings.alias = QStringLiteral("scalelab-test");
    return settings;
}

void ConnectionsDialog::startTest()
{
    if (m_test)
        return;
    storeForm();
    const Result<SshConnectionSettings> prepared = testSettings();
    if (!prepared) {
        m_result->setPlainText(prepared.errorText());
        return;
    }
    const SshConnectionSettings &settings = *prepared;
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
        bool ok = false;
        const QStringList lines = askSlurm(ex, ok);
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

void ConnectionsDialog::finishTest(bool ok, const QString &rawText)
{
    // The host details are tested through a one-off config file in a temp
    // folder: messages name what the researcher typed, not that file.
    QString text = rawText;
    if (m_testConfigDir)
        text.replace(m_testConfigDir->filePath(QStringLiteral("ssh_config")), tr("the Host details of this dialog"));
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

}   // namespace scalelab
