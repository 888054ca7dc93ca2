// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compose/StudyPlanner.h"
#include "core/ingest/LiveRunView.h"
#include "core/model/Alerts.h"
#include "core/model/JobSpec.h"
#include "ui/common/ClusterDiscovery.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

class QWidget;

namespace scalelab {

// What the window's places ask of the cluster layer (submit, dry run, cancel,
// poll, output tail) and hear from it. The implementation (ClusterManager,
// on SSH) lives in the cluster module, loaded after the first paint; the
// window, Compose and Jobs see only this interface.
class ClusterService : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Renders, stores (intent) and submits each spec; a study name groups them.
    // OneAtATime chains the jobs of each cluster (each waits for the previous one).
    virtual void submit(const QList<scalelab::JobSpec> &specs, const QString &studyName,
                        scalelab::StudyOrder order = scalelab::StudyOrder::AllAtOnce) = 0;
    // sbatch --test-only of the spec's script.
    virtual void dryRun(const scalelab::JobSpec &spec) = 0;
    // sbatch --test-only of a stored run's script, on its cluster.
    virtual void dryRunRun(qint64 runId) = 0;
    virtual void cancel(qint64 runId) = 0;
    // When the job would start in each partition that fits it (sbatch
    // --test-only, off the GUI thread, kept a few minutes), the median past
    // wait and the remaining allocation; the answer comes as startEstimated.
    virtual void estimateStart(const scalelab::JobSpec &spec)
    {
        Q_EMIT startEstimated(spec.profile, tr("No start estimate: this window has no cluster layer."), false);
    }
    // Polls every cluster with active or unresolved runs now (also resumes
    // clusters that waited for the researcher after a cancelled login).
    virtual void refreshNow() = 0;
    // The run whose output is shown: its new output bytes are fetched on each
    // poll while it runs, and once now.
    virtual void watchOutput(qint64 runId) = 0;
    virtual qint64 watchedRun() const = 0;

    // Re-reads AppSettings' poll interval.
    virtual void applySettings() = 0;
    // Alias/host/config changed: each open connection is restarted once idle.
    virtual void connectionSettingsChanged() = 0;
    // Where host key / passphrase / MFA dialogs are parented.
    virtual void setDialogParent(QWidget *parent) = 0;

    virtual QString aliasForProfile(const QString &profileId) const = 0;
    virtual QStringList clusterAliases() const = 0;
    virtual int pollDelaySeconds(const QString &alias) const = 0;   // -1 when not polling
    // The last connection state of an alias this session ("connected to …"), "" = never used.
    virtual QString connectionState(const QString &alias) const { return m_states.value(alias); }

    // Discovery (the profile drift banner, Refresh). Not pure: a layer
    // without it (tests of one place) simply never reports a connection.
    virtual bool isConnected(const QString &alias) const
    {
        Q_UNUSED(alias);
        return false;
    }
    // Runs the discovery script on alias's connection (its worker thread;
    // connects if needed) with `site`'s advice carried over; the result comes
    // as profileDiscovered. False when this layer cannot.
    virtual bool discoverProfile(const QString &alias, const scalelab::ClusterProfile &site)
    {
        Q_UNUSED(alias);
        Q_UNUSED(site);
        return false;
    }

    // The live watch (issue 28): what the last poll saw of each running run
    // (runId 0 in the answer: nothing), and the alerts waiting in Jobs' banner.
    LiveRunView liveView(qint64 runId) const { return m_live.value(runId); }
    QList<AlertRecord> bannerAlerts() const { return m_bannerAlerts; }
    // True when the banner's alerts were raised while the window was closed.
    bool bannerIsAwaySummary() const { return m_away; }
    // Keeps the views (a run not among `views` and in `ended` is forgotten)
    // and says liveUpdated with their run ids.
    void publishLive(const QList<LiveRunView> &views, const QList<qint64> &ended = {})
    {
        QList<qint64> ids;
        for (const LiveRunView &v : views) {
            m_live.insert(v.runId, v);
            ids << v.runId;
        }
        for (qint64 id : ended)
            if (m_live.remove(id) > 0)
                ids << id;
        if (!ids.isEmpty())
            Q_EMIT liveUpdated(ids);
    }
    // New alerts join the banner (an away summary is replaced by them).
    void publishAlerts(const QList<AlertRecord> &alerts, bool away = false)
    {
        if (alerts.isEmpty())
            return;
        if (m_away != away)
            m_bannerAlerts.clear();
        m_away = away;
        m_bannerAlerts << alerts;
        Q_EMIT alertsChanged();
    }
    void dismissAlerts()
    {
        m_bannerAlerts.clear();
        m_away = false;
        Q_EMIT alertsChanged();
    }

Q_SIGNALS:
    void liveUpdated(QList<qint64> runIds);
    void alertsChanged();
    void dryRunFinished(QString verdict, bool ok);
    // The answer to estimateStart: StartEstimates::describe's text, or why none.
    void startEstimated(QString profileId, QString text, bool ok);
    void submitFinished(QString message, bool ok);
    void connectionStatus(QString clusterId, QString text);
    void runStateChanged(qint64 runId, QString state);
    void cancelFinished(qint64 runId, QString message, bool ok);
    // New bytes of the watched run's output were stored locally.
    void outputUpdated(qint64 runId);
    // A run reached a final state (after its outputs were fetched).
    void runFinished(qint64 runId, QString state);
    // The answer to discoverProfile (on the GUI thread).
    void profileDiscovered(QString alias, scalelab::DiscoveryOutcome outcome);
    // A passing message about a cluster (submitting, fetching, reconciled):
    // shown for a while, unlike connectionStatus, which is the lasting state.
    void clusterMessage(QString clusterId, QString text);

protected:
    // Kept by the implementation as it reports states.
    void recordConnectionState(const QString &alias, const QString &text) { m_states.insert(alias, text); }

private:
    QHash<QString, QString> m_states;
    QHash<qint64, LiveRunView> m_live;
    QList<AlertRecord> m_bannerAlerts;
    bool m_away = false;
};

}   // namespace scalelab
