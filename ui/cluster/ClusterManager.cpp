// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/ClusterManager.h"

#include "ui/cluster/ClusterDiscoveryFlow.h"
#include "ui/cluster/ClusterSubmitFlow.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/BackgroundPool.h"
#include "ui/common/StoreTaskQueue.h"
#include "core/ssh/ClusterConnection.h"
#include "ui/cluster/GuiSshCallbacks.h"
#include "core/base/Logging.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClient.h"

#include <QApplication>
#include <QIcon>
#include <QSystemTrayIcon>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace scalelab {

ClusterManager::ClusterManager(AppServices &services, QObject *parent)
    : ClusterService(parent)
    , m_services(services)
    , m_workerStore(std::make_shared<RunStore>(services.store().dataDirectory()))
    , m_submit(std::make_unique<ClusterSubmitFlow>(*this))
    , m_discovery(std::make_unique<ClusterDiscoveryFlow>(*this))
{
    services.setClusters(this);
    // Runs left active or unresolved by an earlier session are picked up
    // once the event loop runs (connections start lazily, on this first use).
    scheduleClustersWithWork(0);
    // Runs it left finished but never ingested need no cluster at all.
    ingestMissedRuns();
    // Alerts `scalelab status` (or an earlier session) raised that nobody saw.
    showAwaySummary();
}

ClusterManager::~ClusterManager()
{
    m_destroying = true;
    if (m_services.clusters() == this)
        m_services.setClusters(nullptr);
    // Unblock workers waiting for a dialog first: stop() waits for them.
    for (auto &[alias, c] : m_clusters)
        if (c->callbacks)
            c->callbacks->stop();
    for (auto &[alias, c] : m_clusters)
        stopConnection(*c);
}

void ClusterManager::setDialogParent(QWidget *parent)
{
    m_dialogParent = parent;
    for (auto &[alias, c] : m_clusters)
        if (c->callbacks)
            c->callbacks->setDialogParent(parent);
}

QString ClusterManager::aliasForProfile(const QString &profileId) const
{
    return AppSettings::effectiveAlias(profileId, m_services.profiles().find(profileId));
}

QStringList ClusterManager::clusterAliases() const
{
    QStringList out;
    for (const auto &[alias, c] : m_clusters)
        out << alias;
    return out;
}

int ClusterManager::pollDelaySeconds(const QString &alias) const
{
    const auto it = m_clusters.find(alias);
    if (it == m_clusters.end() || !it->second->timer->isActive())
        return -1;
    return it->second->timer->interval() / 1000;
}

void ClusterManager::submit(const QList<JobSpec> &specs, const QString &studyName, StudyOrder order)
{
    m_submit->submit(specs, studyName, order);
}

void ClusterManager::dryRun(const JobSpec &spec)
{
    m_submit->dryRun(spec);
}

void ClusterManager::dryRunRun(qint64 runId)
{
    m_submit->dryRunRun(runId);
}

void ClusterManager::estimateStart(const JobSpec &spec)
{
    m_submit->estimateStart(spec);
}

void ClusterManager::cancel(qint64 runId)
{
    m_submit->cancel(runId);
}

bool ClusterManager::isConnected(const QString &alias) const
{
    const auto it = m_clusters.find(alias);
    return it != m_clusters.end() && it->second->connection
           && it->second->connection->state() == ClusterConnection::State::Connected;
}

bool ClusterManager::discoverProfile(const QString &alias, const ClusterProfile &site)
{
    return m_discovery->discover(alias, site);
}

ClusterManager::Cluster &ClusterManager::cluster(const QString &alias)
{
    auto &slot = m_clusters[alias];
    if (!slot) {
        slot = std::make_unique<Cluster>();
        slot->alias = alias;
        slot->scheduler.setBaseInterval(AppSettings::pollIntervalSeconds());
        slot->timer = new QTimer(this);
        slot->timer->setSingleShot(true);
        connect(slot->timer, &QTimer::timeout, this, [this, alias] { poll(alias); });
    }
    return *slot;
}

ClusterConnection *ClusterManager::connection(Cluster &c)
{
    if (c.connection)
        return c.connection;
    SshConnectionSettings settings;
    settings.alias = c.alias;
    settings.configPath = AppSettings::sshConfigPath();
    c.callbacks = new GuiSshCallbacks(c.alias, this);
    c.callbacks->setDialogParent(m_dialogParent);
    const QString alias = c.alias;
    connect(c.callbacks, &GuiSshCallbacks::needsUser, this, [this, alias](const QString &why) {
        Cluster &cl = cluster(alias);
        cl.waitingForUser = true;
        cl.timer->stop();
        Q_EMIT connectionStatus(alias, tr("%1 — automatic polling paused; press Refresh now to try again").arg(why));
    });
    c.connection = new ClusterConnection(settings, c.callbacks, this);
    connect(c.connection, &ClusterConnection::stateChanged, this,
            [this, alias](ClusterConnection::State s, const QString &message) {
                onConnectionState(alias, int(s), message);
            });
    connect(c.connection, &ClusterConnection::taskFinished, this, [this, alias] { onTaskFinished(alias); });
    c.connection->start();
    c.everConnected = false;
    // The first task of every connection: settle unresolved submissions.
    m_submit->enqueueReconcile(c);
    return c.connection;
}

void ClusterManager::enqueue(Cluster &c, std::function<void(RemoteExecutor &)> task)
{
    if (connection(c)->enqueue(std::move(task)) != 0)
        ++c.tasksInFlight;
}

void ClusterManager::onTaskFinished(const QString &alias)
{
    Cluster &c = cluster(alias);
    c.tasksInFlight = std::max(0, c.tasksInFlight - 1);
    if (c.stale && c.tasksInFlight == 0 && !m_destroying)
        stopConnection(c);   // idle: quick; the next use connects with the new settings
}

void ClusterManager::stopConnection(Cluster &c)
{
    if (!c.connection)
        return;
    if (c.callbacks)
        c.callbacks->stop();
    c.connection->disconnect(this);
    c.connection->stop();
    delete c.connection;
    c.connection = nullptr;
    // Stopped callbacks answer "cancelled" for ever; a new connection gets new ones.
    if (c.callbacks)
        c.callbacks->deleteLater();
    c.callbacks = nullptr;
    c.tasksInFlight = 0;
    c.stale = false;
}

void ClusterManager::onConnectionState(const QString &alias, int state, const QString &message)
{
    Cluster &c = cluster(alias);
    using S = ClusterConnection::State;
    QString text;
    switch (S(state)) {
    case S::Connecting:
        text = tr("connecting to %1…").arg(alias);
        break;
    case S::Reconnecting:
        text = message.isEmpty() ? tr("reconnecting to %1…").arg(alias) : message;
        break;
    case S::Connected:
        text = tr("connected to %1").arg(alias);
        // After a lost connection, settle submissions before polling again.
        if (c.everConnected)
            m_submit->enqueueReconcile(c);
        c.everConnected = true;
        break;
    case S::Failed:
        text = tr("cannot connect to %1: %2").arg(alias, message);
        break;
    case S::Disconnected:
        text = tr("disconnected from %1").arg(alias);
        break;
    }
    recordConnectionState(alias, text);
    // What the status bar said, for a report that starts "it said cannot connect".
    qCInfo(lcUi).noquote() << QStringLiteral("status: %1").arg(text);
    Q_EMIT connectionStatus(alias, text);
}

void ClusterManager::applySettings()
{
    for (auto &[alias, c] : m_clusters) {
        c->scheduler.setBaseInterval(AppSettings::pollIntervalSeconds());
        if (c->timer->isActive())
            schedulePoll(*c, c->scheduler.nextDelaySeconds() * 1000);
    }
}

void ClusterManager::connectionSettingsChanged()
{
    for (auto &[alias, c] : m_clusters) {
        c->waitingForUser = false;
        if (c->connection) {
            c->stale = true;
            if (c->tasksInFlight == 0)
                stopConnection(*c);
        }
    }
}

void ClusterManager::schedulePoll(Cluster &c, int delayMs)
{
    if (c.waitingForUser || m_destroying)
        return;
    c.timer->start(std::max(0, delayMs));
}

void ClusterManager::scheduleClustersWithWork(int delayMs)
{
    m_services.storeTasks().run(
        this, [](RunStore &store) { return store.clustersWithWork(); },
        [this, delayMs](const Result<QSet<QString>> &aliases) {
            if (!aliases) {
                qCWarning(lcUi).noquote() << QStringLiteral("clusters with work: %1").arg(aliases.errorText());
                return;
            }
            for (const QString &alias : *aliases)
                schedulePoll(cluster(alias), delayMs);
        });
}

void ClusterManager::ingestMissedRuns()
{
    RunStore *store = &m_services.store();   // AppServices waits for the pool before the store goes
    (void)QtConcurrent::run(&backgroundPool(), [store, self = QPointer(this)] {
        const MissedIngestReport report = RunLifecycle::ingestMissed(*store);
        store->closeThreadConnection();   // this pool thread may be reused by others
        if (report.runs.isEmpty() && report.errors.isEmpty())
            return;
        QMetaObject::invokeMethod(
            self,
            [self, report] {
                if (self)
                    self->onMissedIngestDone(report);
            },
            Qt::QueuedConnection);
    });
}

void ClusterManager::onMissedIngestDone(const MissedIngestReport &report)
{
    if (!report.runs.isEmpty()) {
        qCInfo(lcUi).noquote() << QStringLiteral("%1 run(s) finished earlier ingested now, %2 metric(s) stored")
                                      .arg(report.runs.size())
                                      .arg(report.metricsStored);
        Q_EMIT m_services.runsChanged(report.runs);
    }
    for (const QString &e : report.errors)
        qCWarning(lcUi).noquote() << QStringLiteral("reading metrics: %1").arg(e);
}

void ClusterManager::refreshNow()
{
    for (auto &[alias, c] : m_clusters)
        c->waitingForUser = false;
    scheduleClustersWithWork(0);
    // Clusters polled before but without work now: nothing to ask them.
}

void ClusterManager::watchOutput(qint64 runId)
{
    m_watched = runId;
    if (runId <= 0)
        return;
    m_services.storeTasks().run(
        this, [runId](RunStore &store) { return store.run(runId); },
        [this, runId](const Result<RunRecord> &run) {
            // Finished runs had their outputs fetched at the end: looking at
            // one must not open a connection (or ask for a login).
            if (m_watched != runId || !run.ok() || !run->hasJob() || run->isTerminal() || run->clusterAlias.isEmpty())
                return;
            tailOutput(cluster(run->clusterAlias), runId);
        });
}

void ClusterManager::tailOutput(Cluster &c, qint64 runId)
{
    if (c.waitingForUser)
        return;
    const qint64 maxBytes = AppSettings::tailBytes();
    enqueue(c, [store = m_workerStore, alias = c.alias, runId, maxBytes, self = QPointer(this)](RemoteExecutor &ex) {
        SlurmClient client(ex, *store, alias);
        const TailResult t = RunLifecycle(client, *store).tail(runId, maxBytes);
        if (!t.data.isEmpty())
            QMetaObject::invokeMethod(
                self,
                [self, runId] {
                    if (self)
                        Q_EMIT self->outputUpdated(runId);
                },
                Qt::QueuedConnection);
    });
}

void ClusterManager::poll(const QString &alias)
{
    Cluster &c = cluster(alias);
    if (c.pollQueued || c.waitingForUser)
        return;
    c.pollQueued = true;
    const qint64 watched = m_watched;
    const qint64 tailBytes = AppSettings::tailBytes();
    const qint64 fetchBytes = AppSettings::fetchBytes();
    const QList<qint64> settling = m_settling.keys();
    const AlertThresholds alerts = AppSettings::alertThresholds();
    enqueue(c, [store = m_workerStore, alias, watched, tailBytes, fetchBytes, settling, live = c.live, alerts,
                self = QPointer(this)](RemoteExecutor &ex) {
        SlurmClient client(ex, *store, alias);
        RunLifecycle lifecycle(client, *store);
        // Finished runs are fetched and ingested here, on the worker, whether
        // or not Results is ever opened; running runs' new samples and output
        // come in one more command (the live watch) and raise alerts.
        const PollCycleReport rep = lifecycle.pollCycle({watched, tailBytes, fetchBytes, live.get(), alerts});
        // What the GUI thread says about them, read here too.
        QHash<qint64, RunRecord> runs;
        for (qint64 id : rep.finalRuns + settling)
            if (const auto run = store->run(id); run.ok())
                runs.insert(id, *run);
        QMetaObject::invokeMethod(
            self,
            [self, alias, rep, runs] {
                if (self)
                    self->onPollDone(alias, rep, runs);
            },
            Qt::QueuedConnection);
    });
}

void ClusterManager::onPollDone(const QString &alias, const PollCycleReport &rep, const QHash<qint64, RunRecord> &runs)
{
    if (!rep.finalRuns.isEmpty())
        qCInfo(lcUi).noquote() << QStringLiteral(
                                      "%1: %2 run(s) finished, %3 metric(s) stored, shown in Jobs and Results")
                                      .arg(alias)
                                      .arg(rep.finalRuns.size())
                                      .arg(rep.metricsStored);
    Cluster &c = cluster(alias);
    c.pollQueued = false;
    if (rep.poll.ok())
        c.scheduler.recordSuccess();
    else
        c.scheduler.recordFailure();
    if (!rep.poll.ok()) {
        const QString why = !rep.poll.message.isEmpty() ? rep.poll.message : rep.poll.transportError;
        Q_EMIT connectionStatus(alias,
                                tr("%1: %2 — next try in %3 s").arg(alias, why).arg(c.scheduler.nextDelaySeconds()));
    }
    for (const RunStateUpdate &u : rep.poll.updates)
        Q_EMIT runStateChanged(u.runId, SlurmJobState::id(u.to));
    QList<qint64> changed = rep.finalRuns;
    for (const RunStateUpdate &u : rep.poll.updates)
        if (!changed.contains(u.runId))
            changed << u.runId;
    for (qint64 id : rep.lateRuns)
        if (!changed.contains(id))
            changed << id;
    if (!changed.isEmpty())
        Q_EMIT m_services.runsChanged(changed);
    announceFinished(alias, rep.finalRuns, runs);
    if (!rep.fetchErrors.isEmpty())
        Q_EMIT clusterMessage(alias, tr("fetching outputs: %1").arg(rep.fetchErrors.join(QLatin1String("; "))));
    if (!rep.ingestErrors.isEmpty())
        Q_EMIT clusterMessage(alias, tr("reading metrics: %1").arg(rep.ingestErrors.join(QLatin1String("; "))));
    if (rep.tailChanged)
        Q_EMIT outputUpdated(rep.tailRun);
    publishLive(rep.live.views, rep.finalRuns);
    showAlerts(rep.live.newAlerts, false);
    const int delayMs = settlingDelayMs(alias, runs, c.scheduler.nextDelaySeconds() * 1000);
    if (rep.moreActive)
        schedulePoll(c, delayMs);
}

void ClusterManager::announceFinished(const QString &alias, const QList<qint64> &finalRuns,
                                      const QHash<qint64, RunRecord> &runs)
{
    for (qint64 id : finalRuns) {
        const auto run = runs.constFind(id);
        const bool known = run != runs.constEnd();
        const QString state = known ? SlurmJobState::displayName(run->state) : tr("finished");
        Q_EMIT runFinished(id, known ? SlurmJobState::id(run->state) : QString());
        if (id == m_watched)
            Q_EMIT outputUpdated(id);
        notify(tr("Run %1 %2").arg(id).arg(state.toLower()),
               tr("Job %1 on %2 ended: %3").arg(known ? run->jobId : QString(), alias, state));
    }
}

int ClusterManager::settlingDelayMs(const QString &alias, const QHash<qint64, RunRecord> &runs, int delayMs)
{
    for (auto it = m_settling.begin(); it != m_settling.end();) {
        const auto run = runs.constFind(it.key());
        if (run == runs.constEnd() || run->clusterAlias != alias) {
            ++it;
            continue;
        }
        const std::optional<int> followUp = it.value().next(run->state);
        if (!followUp) {
            it = m_settling.erase(it);
            continue;
        }
        delayMs = std::min(delayMs, *followUp);
        ++it;
    }
    return delayMs;
}

void ClusterManager::showAlerts(const QList<AlertRecord> &alerts, bool away)
{
    if (alerts.isEmpty())
        return;
    publishAlerts(alerts, away);
    if (away) {
        QSet<qint64> runs;
        for (const AlertRecord &a : alerts)
            runs.insert(a.runId);
        notify(tr("While you were away"),
               tr("%n alert(s) on %1 run(s): see Jobs", nullptr, int(alerts.size())).arg(runs.size()));
    } else {
        for (const AlertRecord &a : alerts)
            notify(tr("Run %1: %2").arg(a.runId).arg(a.title), a.evidence);
    }
    QList<qint64> ids;
    for (const AlertRecord &a : alerts)
        ids << a.id;
    m_services.storeTasks().run(
        this, [ids](RunStore &store) { return store.markAlertsNotified(ids); },
        [](const Result<void> &done) {
            if (!done)
                qCWarning(lcUi).noquote() << QStringLiteral("alerts shown: %1").arg(done.errorText());
        });
}

void ClusterManager::showAwaySummary()
{
    m_services.storeTasks().run(
        this, [](RunStore &store) { return store.unnotifiedAlerts(); },
        [this](const Result<QList<AlertRecord>> &alerts) {
            if (alerts)
                showAlerts(*alerts, true);
        });
}

void ClusterManager::notify(const QString &title, const QString &text)
{
    if (!AppSettings::notificationsEnabled())
        return;
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        if (!m_tray) {
            m_tray = new QSystemTrayIcon(QIcon(QStringLiteral(":/scalelab/icon.svg")), this);
            m_tray->setToolTip(QStringLiteral("ScaleLab"));
            m_tray->show();
        }
        m_tray->showMessage(title, text, QSystemTrayIcon::Information, 10000);
        return;
    }
    Q_EMIT clusterMessage(QString(), title + QStringLiteral(": ") + text);
}

}   // namespace scalelab
