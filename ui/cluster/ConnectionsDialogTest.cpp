// SPDX-License-Identifier: GPL-3.0-or-later
// ConnectionsDialog: "Test connection" (a one-off login that asks Slurm).
#include "ui/cluster/ConnectionsDialog.h"

#include "core/base/AtomicFile.h"
#include "core/ssh/ClusterConnection.h"
#include "core/sshconfig/SshConfigFile.h"
#include "ui/cluster/GuiSshCallbacks.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QLineEdit>
#include <QTemporaryDir>

namespace scalelab {

namespace {

QString sanitize(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes).trimmed();
    s.removeIf([](QChar c) { return c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t'); });
    return s;
}

// On the worker: Slurm's version, the user and their accounts and partitions;
// ok when all of them could be read.
QStringList askSlurm(RemoteExecutor &ex, bool &ok)
{
    QStringList lines;
    ok = false;
    const RemoteResult version = ex.run({QStringLiteral("sbatch"), QStringLiteral("--version")}, 30000);
    if (!version.transportOk()) {
        lines << ConnectionsDialog::tr("Connection failed: %1").arg(version.transportError);
    } else {
        lines << (version.ok() ? ConnectionsDialog::tr("Slurm: %1").arg(sanitize(version.out))
                               : ConnectionsDialog::tr("sbatch --version failed: %1").arg(sanitize(version.err)));
        const RemoteResult id = ex.run({QStringLiteral("id"), QStringLiteral("-un")}, 30000);
        const QString user = sanitize(id.out);
        static const QRegularExpression userRe(QStringLiteral("^[A-Za-z0-9_.][A-Za-z0-9_.@-]*$"));
        if (!id.ok() || !userRe.match(user).hasMatch()) {
            lines << ConnectionsDialog::tr("Cannot tell the user name (id -un): %1").arg(sanitize(id.err + id.out));
        } else {
            lines << ConnectionsDialog::tr("User: %1").arg(user);
            const RemoteResult assoc = ex.run({QStringLiteral("sacctmgr"), QStringLiteral("-P"), QStringLiteral("show"),
                                               QStringLiteral("assoc"), QStringLiteral("user=") + user,
                                               QStringLiteral("format=Account,Partition")},
                                              30000);
            if (assoc.ok()) {
                const QStringList accounts = ConnectionsDialog::accountLines(
                    SacctmgrParsers::byAccount(SacctmgrParsers::associations(sanitize(assoc.out)).items));
                lines << (accounts.isEmpty() ? ConnectionsDialog::tr("Accounts: none found for %1").arg(user)
                                             : ConnectionsDialog::tr("Accounts and partitions:\n  %1")
                                                   .arg(accounts.join(QLatin1String("\n  "))));
                ok = version.ok();
            } else {
                lines << ConnectionsDialog::tr("sacctmgr failed: %1").arg(sanitize(assoc.err));
            }
        }
    }
    return lines;
}

}   // namespace

QString ConnectionsDialog::resultText() const
{
    return m_result->toPlainText();
}

void ConnectionsDialog::startTest()
{
    if (m_test)
        return;
    storeForm();
    SshConnectionSettings settings;
    settings.configPath = AppSettings::userSshConfigPath();
    if (m_hostMode->isChecked()) {
        if (!writeHostTestConfig(settings))
            return;
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

// Tests what is in the form, before it is saved: its host details as a one-off
// config entry; false (and why in the result) when they cannot be tested.
bool ConnectionsDialog::writeHostTestConfig(SshConnectionSettings &settings)
{
    const AppSettings::ClusterConnection c = m_edited.value(m_current);
    for (const auto &[what, value] :
         {std::pair{tr("host"), c.hostName}, std::pair{tr("user"), c.user}, std::pair{tr("jump host"), c.proxyJump}})
        if (const QString e = value.isEmpty() ? QString() : SshConfigFile::validateName(what, value); !e.isEmpty()) {
            m_result->setPlainText(e);
            return false;
        }
    if (c.hostName.isEmpty()) {
        m_result->setPlainText(tr("Enter the host name of the login node."));
        return false;
    }
    m_testConfigDir = std::make_shared<QTemporaryDir>();
    QString text = QStringLiteral("Host scalelab-test\n  HostName %1\n").arg(c.hostName);
    if (!c.user.isEmpty())
        text += QStringLiteral("  User %1\n").arg(c.user);
    text += QStringLiteral("  Port %1\n").arg(c.port);
    if (!c.proxyJump.isEmpty())
        text += QStringLiteral("  ProxyJump %1\n").arg(c.proxyJump);
    if (!c.identityFile.isEmpty()) {
        if (const QString e = AppSettings::identityFileProblem(c.identityFile); !e.isEmpty()) {
            m_result->setPlainText(e);
            return false;
        }
        text += QStringLiteral("  IdentityFile \"%1\"\n").arg(c.identityFile);
    }
    text += QStringLiteral("Match all\n  Include %1\n").arg(AppSettings::userSshConfigPath());
    const QString file = m_testConfigDir->filePath(QStringLiteral("ssh_config"));
    if (const auto written = AtomicFile::write(file, text.toUtf8()); !written) {
        m_result->setPlainText(tr("Cannot prepare the test of these host details (%1); test again, or save and "
                                  "use Refresh now.")
                                   .arg(written.errorText()));
        return false;
    }
    settings.configPath = file;
    settings.alias = QStringLiteral("scalelab-test");
    return true;
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
