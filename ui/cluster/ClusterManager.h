// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/ClusterService.h"
#include "core/model/JobSpec.h"
#include "core/client/PollScheduler.h"
#include "core/client/RemoteExecutor.h"
#include "core/client/RunLifecycle.h"
#include "core/client/SlurmClientResults.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <functional>
#include <map>
#include <memory>

class QSystemTrayIcon;
class QTimer;
class QWidget;

namespace scalelab {

class AppServices;
class ClusterConnection;
class ClusterDiscoveryFlow;
class ClusterSubmitFlow;
class GuiSshCallbacks;
class RunStore;

// The GUI side of the cluster layer. One ClusterConnection (worker thread +
// SSH session) per SSH alias, started on first use; every SlurmClient call
// runs as a task on that thread with its own RunStore connection, and posts
// its result back (queued) to this object on the GUI thread. Nothing here
// blocks the GUI thread, except stopping the workers when it is destroyed:
// its own store calls (storing a batch, the runs to poll or reconcile, a
// run's record) go through AppServices::storeTasks().
//
// Clusters are named by their SSH alias, which is also what the run store
// keeps per run (RunRecord::clusterAlias): the alias of a profile comes from
// AppSettings (default: the profile's first login host alias).
//
// Polling: per cluster a timer driven by PollScheduler (AppSettings interval,
// min 10 s, backoff on errors and controller outages) that runs while the
// cluster has active runs. Before anything else on a new connection, runs
// whose submission is unresolved are reconciled from the cluster.
//
// The manager keeps the connections, the polls and what they report; the
// submit flow (ClusterSubmitFlow: submit, dry run, start estimate, cancel,
// reconcile) and the discovery flow (ClusterDiscoveryFlow) are classes it
// owns, which enqueue their tasks on its clusters' workers.
class ClusterManager : public ClusterService {
    Q_OBJECT
public:
    explicit ClusterManager(AppServices &services, QObject *parent = nullptr);
    ~ClusterManager() override;

    void submit(const QList<scalelab::JobSpec> &specs, const QString &studyName,
                scalelab::StudyOrder order = scalelab::StudyOrder::AllAtOnce) override;
    void dryRun(const scalelab::JobSpec &spec) override;
    void dryRunRun(qint64 runId) override;
    void estimateStart(const scalelab::JobSpec &spec) override;
    void cancel(qint64 runId) override;
    void refreshNow() override;
    // Fetched with SlurmClient::tailOutput on each poll while the run runs.
    void watchOutput(qint64 runId) override;
    qint64 watchedRun() const override { return m_watched; }

    void applySettings() override;
    void connectionSettingsChanged() override;
    void setDialogParent(QWidget *parent) override;

    QString aliasForProfile(const QString &profileId) const override;
    QStringList clusterAliases() const override;
    int pollDelaySeconds(const QString &alias) const override;
    bool isConnected(const QString &alias) const override;
    bool discoverProfile(const QString &alias, const scalelab::ClusterProfile &site) override;

private:
    // The flows reach the clusters through the calls below.
    friend class ClusterSubmitFlow;
    friend class ClusterDiscoveryFlow;

    struct Cluster {
        QString alias;
        ClusterConnection *connection = nullptr;
        GuiSshCallbacks *callbacks = nullptr;
        QTimer *timer = nullptr;
        PollScheduler scheduler;
        int tasksInFlight = 0;
        bool pollQueued = false;
        bool waitingForUser = false;
        bool stale = false;   // settings changed: restart once idle
        bool everConnected = false;
        // The live watch of this cluster's running runs: used only by tasks on its worker, one at a time.
        std::shared_ptr<LiveWatch> live = std::make_shared<LiveWatch>();
    };

    Cluster &cluster(const QString &alias);
    ClusterConnection *connection(Cluster &c);
    void enqueue(Cluster &c, std::function<void(RemoteExecutor &)> task);
    void onConnectionState(const QString &alias, int state, const QString &message);
    void onTaskFinished(const QString &alias);
    void stopConnection(Cluster &c);

    void schedulePoll(Cluster &c, int delayMs);
    void poll(const QString &alias);
    void onPollDone(const QString &alias, const PollCycleReport &report, const QHash<qint64, RunRecord> &runs);
    void announceFinished(const QString &alias, const QList<qint64> &finalRuns, const QHash<qint64, RunRecord> &runs);
    // The next poll's delay, sooner while a run just submitted or cancelled settles.
    int settlingDelayMs(const QString &alias, const QHash<qint64, RunRecord> &runs, int delayMs);
    void tailOutput(Cluster &c, qint64 runId);
    void notify(const QString &title, const QString &text);
    // Alerts to the banner, a desktop notification for each (one summary when
    // they were raised while the window was closed), then marked notified.
    void showAlerts(const QList<AlertRecord> &alerts, bool away);
    void showAwaySummary();
    void scheduleClustersWithWork(int delayMs);
    // Runs an earlier session left finished without metrics, ingested on the
    // background pool (RunLifecycle::ingestMissed; no connection needed).
    void ingestMissedRuns();
    void onMissedIngestDone(const MissedIngestReport &report);

    AppServices &m_services;
    std::shared_ptr<RunStore> m_workerStore;   // used only on the workers (one SQLite connection each)
    std::map<QString, std::unique_ptr<Cluster>> m_clusters;
    QPointer<QWidget> m_dialogParent;
    QSystemTrayIcon *m_tray = nullptr;
    qint64 m_watched = 0;
    QHash<qint64, FollowUpPolls> m_settling;   // runs submitted or cancelled just now
    bool m_destroying = false;
    // Last, so they go first: nothing of the manager goes before them.
    std::unique_ptr<ClusterSubmitFlow> m_submit;
    std::unique_ptr<ClusterDiscoveryFlow> m_discovery;
};

}   // namespace scalelab
