#pragma once

#include "JobSpec.h"
#include "PollScheduler.h"
#include "RemoteExecutor.h"
#include "SlurmClientResults.h"

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
class GuiSshCallbacks;
class RunStore;

// The GUI side of the cluster layer. One ClusterConnection (worker thread +
// SSH session) per SSH alias, started on first use; every SlurmClient call
// runs as a task on that thread with its own RunStore connection, and posts
// its result back (queued) to this object on the GUI thread. Nothing here
// blocks the GUI thread, except stopping the workers when it is destroyed.
//
// Clusters are named by their SSH alias, which is also what the run store
// keeps per run (RunRecord::clusterAlias): the alias of a profile comes from
// AppSettings (default: the profile's first login host alias).
//
// Polling: per cluster a timer driven by PollScheduler (AppSettings interval,
// min 10 s, backoff on errors and controller outages) that runs while the
// cluster has active runs. Before anything else on a new connection, runs
// whose submission is unresolved are reconciled from the cluster.
class ClusterManager : public QObject {
    Q_OBJECT
public:
    explicit ClusterManager(AppServices &services, QObject *parent = nullptr);
    ~ClusterManager() override;

    // Renders, stores (intent) and submits each spec; a study name groups them.
    void submit(const QList<scalelab::JobSpec> &specs, const QString &studyName);
    // sbatch --test-only of the spec's script.
    void dryRun(const scalelab::JobSpec &spec);
    // sbatch --test-only of a stored run's script, on its cluster.
    void dryRunRun(qint64 runId);
    void cancel(qint64 runId);
    // Polls every cluster with active or unresolved runs now (also resumes
    // clusters that waited for the researcher after a cancelled login).
    void refreshNow();
    // The run whose output is shown: its new output bytes are fetched on each
    // poll while it runs (SlurmClient::tailOutput), and once now.
    void watchOutput(qint64 runId);
    qint64 watchedRun() const { return m_watched; }

    // Re-reads AppSettings' poll interval.
    void applySettings();
    // Alias/host/config changed: each open connection is restarted once it is
    // idle (new runs use the new alias; existing runs keep theirs).
    void connectionSettingsChanged();
    // Where host key / passphrase / MFA dialogs are parented.
    void setDialogParent(QWidget *parent);

    QString aliasForProfile(const QString &profileId) const;
    QStringList clusterAliases() const;
    int pollDelaySeconds(const QString &alias) const;   // -1 when not polling

Q_SIGNALS:
    void dryRunFinished(QString verdict, bool ok);
    void submitFinished(QString message, bool ok);
    void connectionStatus(QString clusterId, QString text);
    void runStateChanged(qint64 runId, QString state);
    void cancelFinished(qint64 runId, QString message, bool ok);
    // New bytes of the watched run's output were stored locally.
    void outputUpdated(qint64 runId);
    // A run reached a final state (after its outputs were fetched).
    void runFinished(qint64 runId, QString state);

private:
    void dryRunScript(const QString &alias, const QString &script);
    struct Cluster {
        QString alias;
        ClusterConnection *connection = nullptr;
        GuiSshCallbacks *callbacks = nullptr;
        QTimer *timer = nullptr;
        PollScheduler scheduler;
        int tasksInFlight = 0;
        bool pollQueued = false;
        bool waitingForUser = false;
        bool stale = false;         // settings changed: restart once idle
        bool everConnected = false;
    };
    struct PollReport;

    Cluster &cluster(const QString &alias);
    ClusterConnection *connection(Cluster &c);
    void enqueue(Cluster &c, std::function<void(RemoteExecutor &)> task);
    void enqueueReconcile(Cluster &c);
    void onConnectionState(const QString &alias, int state, const QString &message);
    void onTaskFinished(const QString &alias);
    void stopConnection(Cluster &c);

    void schedulePoll(Cluster &c, int delayMs);
    void poll(const QString &alias);
    void onPollDone(const QString &alias, const PollReport &report);
    void onReconcileDone(const QString &alias, const QStringList &messages, bool changed);
    void onSubmitDone(const QString &alias, const QList<QPair<qint64, SubmitOutcome>> &outcomes);
    void notify(const QString &title, const QString &text);
    void scheduleClustersWithWork(int delayMs);

    AppServices &m_services;
    std::shared_ptr<RunStore> m_workerStore;   // used only on the workers (one SQLite connection each)
    std::map<QString, std::unique_ptr<Cluster>> m_clusters;
    QPointer<QWidget> m_dialogParent;
    QSystemTrayIcon *m_tray = nullptr;
    qint64 m_watched = 0;
    bool m_destroying = false;
};

} // namespace scalelab
