// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/ConnectionTest.h"

#include "core/base/AtomicFile.h"
#include "core/client/LoginCheck.h"
#include "core/ssh/ClusterConnection.h"
#include "core/sshconfig/SshConfigFile.h"
#include "ui/cluster/GuiSshCallbacks.h"

#include <QTemporaryDir>
#include <QWidget>

namespace scalelab {

namespace {

const QString kTestAlias = QStringLiteral("scalelab-test");

// On the worker: Slurm's version, the user and their accounts and partitions
// (LoginCheck); ok when all of them could be read.
QStringList askSlurm(RemoteExecutor &ex, bool &ok)
{
    const Result<LoginFacts> facts = LoginCheck::run(ex, LoginCheck::Scope::Accounts);
    ok = facts.ok();
    QStringList lines;
    if (facts.failedWith(ErrorCode::Transport)) {
        lines << ConnectionTest::tr("Connection failed: %1").arg(facts.errorText());
    } else if (!facts) {
        lines << facts.errorText();
    } else {
        const QStringList accounts = ConnectionTest::accountLines(facts->accounts);
        lines << ConnectionTest::tr("Slurm: %1").arg(facts->slurm) << ConnectionTest::tr("User: %1").arg(facts->user)
              << (accounts.isEmpty()
                      ? ConnectionTest::tr("Accounts: none found for %1").arg(facts->user)
                      : ConnectionTest::tr("Accounts and partitions:\n  %1").arg(accounts.join(QLatin1String("\n  "))));
    }
    return lines;
}

}   // namespace

ConnectionTest::ConnectionTest(QWidget *dialogParent)
    : QObject(dialogParent)
    , m_dialogParent(dialogParent)
{}

ConnectionTest::~ConnectionTest() = default;

Result<SshConnectionSettings> ConnectionTest::prepare(const QString &alias,
                                                      const AppSettings::ClusterConnection *hostDetails)
{
    if (hostDetails)
        return writeHostDetails(*hostDetails);
    SshConnectionSettings settings;
    settings.configPath = AppSettings::userSshConfigPath();
    settings.alias = alias;
    if (const QString e = SshConfigFile::validateName(tr("alias"), alias); !e.isEmpty())
        return fail(ErrorCode::InvalidValue, e);
    return settings;
}

Result<SshConnectionSettings> ConnectionTest::writeHostDetails(const AppSettings::ClusterConnection &c)
{
    // What is in the form, before it is saved: a one-off config entry that
    // includes the researcher's own config for everything else.
    for (const auto &[what, value] :
         {std::pair{tr("host"), c.hostName}, std::pair{tr("user"), c.user}, std::pair{tr("jump host"), c.proxyJump}})
        if (const QString e = value.isEmpty() ? QString() : SshConfigFile::validateName(what, value); !e.isEmpty())
            return fail(ErrorCode::InvalidValue, e);
    if (c.hostName.isEmpty())
        return fail(ErrorCode::InvalidValue, tr("Enter the host name of the login node."));
    QString text = QStringLiteral("Host %1\n  HostName %2\n").arg(kTestAlias, c.hostName);
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
    m_configDir = std::make_shared<QTemporaryDir>();
    const QString file = m_configDir->filePath(QStringLiteral("ssh_config"));
    if (const auto written = AtomicFile::write(file, text.toUtf8()); !written)
        return fail(ErrorCode::LocalFile, tr("Cannot prepare the test of these host details (%1); test again, or "
                                             "save and use Refresh now.")
                                              .arg(written.errorText()));
    SshConnectionSettings settings;
    settings.configPath = file;
    settings.alias = kTestAlias;
    return settings;
}

void ConnectionTest::start(const SshConnectionSettings &settings)
{
    if (m_connection)
        return;
    // Both live until the task ended, even if this object is gone by then.
    auto *callbacks = new GuiSshCallbacks(settings.alias);
    callbacks->setDialogParent(m_dialogParent);
    auto *conn = new ClusterConnection(settings, callbacks);
    m_connection = conn;
    m_callbacks = callbacks;
    connect(conn, &ClusterConnection::stateChanged, this, [this, conn](ClusterConnection::State s, const QString &m) {
        if (conn == m_connection && s == ClusterConnection::State::Connected)
            Q_EMIT connected(m.trimmed());
    });
    connect(conn, &ClusterConnection::taskFinished, conn, [conn, callbacks, configDir = m_configDir] {
        conn->stop();   // idle now: only disconnects
        conn->deleteLater();
        callbacks->deleteLater();
    });
    conn->start();
    conn->enqueue([self = QPointer(this), conn](RemoteExecutor &ex) {
        bool ok = false;
        const QString text = askSlurm(ex, ok).join(QLatin1Char('\n'));
        QMetaObject::invokeMethod(
            self,
            [self, conn, ok, text] {
                if (self && self->m_connection == conn)
                    self->finish(ok, text);
            },
            Qt::QueuedConnection);
    });
}

void ConnectionTest::finish(bool ok, const QString &rawText)
{
    QString text = rawText;
    if (m_configDir)
        text.replace(m_configDir->filePath(QStringLiteral("ssh_config")), tr("the Host details of this dialog"));
    m_connection = nullptr;
    m_callbacks = nullptr;
    Q_EMIT finished(ok, text);
}

void ConnectionTest::cancel()
{
    if (!m_connection)
        return;
    // Do not wait for the worker: its questions answer "cancelled" from now
    // on, and the connection deletes itself when its one task returns.
    m_callbacks->stop();
    m_connection->disconnect(this);
    m_connection = nullptr;
    m_callbacks = nullptr;
}

QStringList ConnectionTest::accountLines(const QList<AccountPartitions> &accounts)
{
    QStringList lines;
    for (const AccountPartitions &a : accounts)
        lines << QStringLiteral("%1: %2").arg(
            a.account, a.partitions.isEmpty() ? tr("all partitions") : a.partitions.join(QLatin1String(", ")));
    return lines;
}

}   // namespace scalelab
