// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/AddClusterWizard.h"

#include "core/base/AtomicFile.h"
#include "core/client/LoginCheck.h"

#include "ui/cluster/AddClusterConnectPage.h"
#include "ui/cluster/AddClusterDiscoverPage.h"
#include "ui/cluster/AddClusterIntroPage.h"
#include "ui/cluster/AddClusterReviewPage.h"
#include "ui/cluster/GuiSshCallbacks.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/ClusterService.h"
#include "core/ssh/ClusterConnection.h"

#include <QFile>
#include <QTemporaryDir>

namespace scalelab {

namespace {

// The alias the "host details" form is tried with, before the profile has an id.
const QString kTrialAlias = QStringLiteral("scalelab-new-cluster");

}   // namespace

AddClusterWizard::AddClusterWizard(AppServices &services, QWidget *parent)
    : QWizard(parent)
    , m_services(services)
    , m_intro(new AddClusterIntroPage)
    , m_connect(new AddClusterConnectPage(AppSettings::userSshConfigPath()))
    , m_discover(new AddClusterDiscoverPage)
    , m_review(new AddClusterReviewPage)
{
    setObjectName(QStringLiteral("addClusterWizard"));
    setWindowTitle(tr("Add your cluster"));
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    setButtonText(QWizard::FinishButton, tr("Save and compose"));
    setPage(IntroPage, m_intro);
    setPage(ConnectPage, m_connect);
    setPage(DiscoverPage, m_discover);
    setPage(ReviewPage, m_review);
    resize(800, 620);
    connect(m_discover, &AddClusterDiscoverPage::started, this, &AddClusterWizard::startDiscovery);
    // Going back from the discovery page stops what runs there.
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id != DiscoverPage)
            cancelDiscovery();
    });
    connect(this, &QDialog::rejected, this, &AddClusterWizard::cancelDiscovery);
}

AddClusterWizard::~AddClusterWizard()
{
    cancelDiscovery();
}

void AddClusterWizard::startDiscovery()
{
    cancelDiscovery();
    m_outcome.reset();
    m_discover->clearLog();
    SshConnectionSettings settings;
    settings.configPath = AppSettings::sshConfigPath();
    if (m_connect->aliasMode()) {
        settings.alias = m_connect->alias();
    } else if (!writeTrialConfig(settings)) {
        return;
    }
    m_alias = settings.alias;
    m_discover->appendLine(tr("Connecting to %1… (a host key not seen before is shown to you first)").arg(m_alias));
    m_discover->setRunning(true);

    // Both live until the task ended, even if the wizard is gone by then.
    auto *callbacks = new GuiSshCallbacks(settings.alias);
    callbacks->setDialogParent(this);
    auto *conn = new ClusterConnection(settings, callbacks);
    m_task = conn;
    m_callbacks = callbacks;
    connect(conn, &ClusterConnection::stateChanged, this, [this, conn](ClusterConnection::State s, const QString &m) {
        if (conn != m_task)
            return;
        if (s == ClusterConnection::State::Connected)
            onStep(tr("Connected: host key verified, logged in%1.")
                       .arg(m.trimmed().isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m.trimmed())));
        else if (s == ClusterConnection::State::Failed)
            onStep(tr("Cannot connect: %1").arg(m));
    });
    auto configDir = m_configDir;
    connect(conn, &ClusterConnection::taskFinished, conn, [conn, callbacks, configDir] {
        conn->stop();   // idle now: only disconnects
        conn->deleteLater();
        callbacks->deleteLater();
    });
    conn->start();
    enqueueDiscovery(conn, settings);
}

// Tries what is in the form before anything is stored: a one-off config
// entry that includes the researcher's own (jump host aliases, keys). False
// (said on the page) when it cannot be written.
bool AddClusterWizard::writeTrialConfig(SshConnectionSettings &settings)
{
    m_configDir = std::make_shared<QTemporaryDir>();
    QString text = QStringLiteral("Host %1\n  HostName %2\n").arg(kTrialAlias, m_connect->host());
    if (!m_connect->user().isEmpty())
        text += QStringLiteral("  User %1\n").arg(m_connect->user());
    text += QStringLiteral("  Port %1\n").arg(m_connect->port());
    if (!m_connect->jump().isEmpty())
        text += QStringLiteral("  ProxyJump %1\n").arg(m_connect->jump());
    text += QStringLiteral("Match all\n  Include %1\n").arg(AppSettings::userSshConfigPath());
    const QString file = m_configDir->filePath(QStringLiteral("ssh_config"));
    const auto written = m_configDir->isValid() ? AtomicFile::write(file, text.toUtf8())
                                                : Result<void>(fail(ErrorCode::LocalFile, m_configDir->errorString()));
    if (!written) {
        m_discover->appendLine(tr("Cannot write the trial SSH config: %1").arg(written.errorText()));
        m_discover->setOutcome(std::nullopt);
        return false;
    }
    settings.configPath = file;
    settings.alias = kTrialAlias;
    return true;
}

// On the connection's worker: the connection test (is this a Slurm login
// node?), then the discovery script; each step posted back to the wizard.
void AddClusterWizard::enqueueDiscovery(ClusterConnection *conn, const SshConnectionSettings &settings)
{
    const QString alias = settings.alias;
    const QString sshConfig = settings.configPath;
    const QList<ClusterProfile> known = m_services.profiles().profiles();
    conn->enqueue([self = QPointer(this), conn, alias, sshConfig, known](RemoteExecutor &ex) {
        auto post = [&](auto fn) {
            QMetaObject::invokeMethod(
                self,
                [self, conn, fn] {
                    if (self && self->m_task == conn)
                        fn(*self);
                },
                Qt::QueuedConnection);
        };
        // The connection test: is this a Slurm login node at all?
        const Result<LoginFacts> login = LoginCheck::run(ex, LoginCheck::Scope::Slurm);
        if (!login) {
            DiscoveryOutcome failed;
            failed.alias = alias;
            failed.error = login.errorText();
            post([failed](AddClusterWizard &w) { w.onFinished(failed); });
            return;
        }
        const QString slurm = login->slurm;
        post([slurm](AddClusterWizard &w) {
            w.onStep(tr("Test passed: %1.").arg(slurm));
            w.onStep(tr("Discovering: scontrol show config/partition/node, sinfo, sacctmgr (read-only)…"));
        });
        DiscoveryOutcome outcome = runDiscovery(ex, alias, sshConfig, std::nullopt, known);
        outcome.slurmVersion = slurm;
        post([outcome](AddClusterWizard &w) { w.onFinished(outcome); });
    });
}

void AddClusterWizard::cancelDiscovery()
{
    if (!m_task)
        return;
    // Do not wait for the worker: its questions answer "cancelled" from now
    // on, and the connection deletes itself when its one task returns.
    m_callbacks->stop();
    m_task->disconnect(this);
    m_task = nullptr;
    m_callbacks = nullptr;
    m_discover->appendLine(tr("Stopped."));
    m_discover->setOutcome(std::nullopt);
}

void AddClusterWizard::onStep(const QString &line)
{
    m_discover->appendLine(line);
}

void AddClusterWizard::onFinished(const DiscoveryOutcome &outcome)
{
    m_task = nullptr;
    m_callbacks = nullptr;
    m_outcome = outcome;
    const ClusterProfile &p = outcome.built.profile;
    bool ok = outcome.ok();
    if (!ok) {
        m_discover->appendLine(tr("Failed: %1").arg(outcome.error));
    } else if (p.partitions.isEmpty()) {
        ok = false;
        m_discover->appendLine(tr("Slurm answered, but no partition with GPUs was found; ScaleLab composes GPU jobs."));
    } else {
        QStringList names;
        for (const Partition &part : p.partitions)
            names << part.name;
        m_discover->appendLine(tr("Found Slurm %1, cluster \"%2\": %n GPU partition(s) (%3), %4 QOS limit(s).", nullptr,
                                  int(p.partitions.size()))
                                   .arg(p.slurmVersion, p.id, names.join(QStringLiteral(", ")))
                                   .arg(p.qos.size()));
        for (const Diagnostic &d : outcome.built.diagnostics)
            m_discover->appendLine(QStringLiteral("  %1: %2").arg(severityName(d.severity), d.message));
        m_discover->appendLine(tr("Press Next to review."));
        m_review->setProfile(p, outcome.built.diagnostics);
    }
    m_discover->setOutcome(m_outcome);
    Q_EMIT discoveryFinished(ok);
}

Result<void> AddClusterWizard::save()
{
    const auto edited = m_review->editedProfile();
    if (!edited)
        return fail(edited.error());
    ClusterProfile p = *edited;
    AppSettings::ClusterConnection c;
    if (m_connect->aliasMode()) {
        c.alias = m_alias;
    } else {
        c.alias = AppSettings::generatedAlias(p.id);
        c.hostName = m_connect->host();
        c.user = m_connect->user();
        c.port = m_connect->port();
        c.proxyJump = m_connect->jump();
    }
    if (!p.loginHosts.isEmpty())
        p.loginHosts.front().alias = c.alias;
    const auto saved = saveUserProfile(p);
    if (!saved)
        return fail(saved.error());
    m_savedPath = *saved;
    if (const auto stored = AppSettings::setClusterConnection(p.id, c); !stored)
        return stored;
    if (!c.hostName.isEmpty())
        if (auto written = AppSettings::writeGeneratedConfig(); !written)
            return written;
    if (ClusterService *clusters = m_services.clusters())
        clusters->connectionSettingsChanged();
    m_services.reloadProfiles();
    const ClusterProfile *loaded = m_services.profiles().find(p.id);
    if (!loaded || loaded->filePath != m_savedPath) {
        QStringList why;
        for (const Diagnostic &d : m_services.profiles().problems())
            if (d.field == m_savedPath || d.message.contains(m_savedPath))
                why << d.message;
        return fail(ErrorCode::InvalidValue,
                    tr("%1 was written but did not load as profile %2: %3")
                        .arg(m_savedPath, p.id,
                             why.isEmpty() ? tr("a system or user profile with that id takes precedence")
                                           : why.join(QLatin1Char('\n'))));
    }
    m_savedId = p.id;
    JobSpec spec;
    spec.profile = p.id;
    if (const Partition *part = loaded->defaultPartition())
        spec.partition = part->name;
    spec.gpus = 1;
    spec.time = QStringLiteral("01:00:00");
    Q_EMIT m_services.openSpecRequested(spec);
    Q_EMIT m_services.showPlaceRequested(0);
    return success();
}

void AddClusterWizard::accept()
{
    if (const auto saved = save(); !saved) {
        m_review->showProblem(saved.errorText());
        return;
    }
    Q_EMIT profileAdded(m_savedId);
    QWizard::accept();
}

}   // namespace scalelab
