// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/model/JobSpec.h"
#include "core/profiles/ProfileRegistry.h"

#include <QList>
#include <QObject>

#include <functional>
#include <memory>

class QDialog;
class QWidget;

namespace scalelab {

class RunStore;
class ClusterService;
class StoreTaskQueue;

// What every place of the window shares: the profiles, the run store (this
// thread's connection) and the cluster manager that owns the SSH sessions.
// Created once by GuiMain; places get a reference.
class AppServices : public QObject {
    Q_OBJECT
public:
    explicit AppServices(QObject *parent = nullptr);
    ~AppServices() override;

    // The profiles are loaded on first use, so nothing reads files before
    // the window's first paint.
    ProfileRegistry &profiles();
    // The store object. Each thread opens its own connection on first use;
    // the GUI thread's waits at most kGuiBusyTimeoutMs for another program's
    // write lock or for the open on the pool (then StoreBusy), never 10 s.
    RunStore &store();
    static constexpr int kGuiBusyTimeoutMs = 200;
    // Single store calls made for the GUI thread (hide, withdraw, store a
    // batch, the cluster layer's look-ups) run here, off the GUI thread.
    StoreTaskQueue &storeTasks() { return *m_storeTasks; }

    // The window opens (checks, migrates, backs up) the store on
    // backgroundPool() after its first paint: storeStateChanged when done.
    enum class StoreState { NotOpened, Opening, Open, Failed };
    void openStoreInBackground();
    StoreState storeState() const { return m_storeState; }
    QString storeError() const { return m_storeError; }   // "" unless Failed
    // Whether the store file is known damaged, found at open or by any later
    // read, write or check of this process (core's StoreHealth, the one record
    // of it). Damage found after the open makes the state Failed with the
    // plain-words message (storeStateChanged): nothing writes to it any more.
    bool storeDamaged() const;

    // File ▸ Run store: the same core calls as `scalelab store`, on the pool;
    // storeTaskFinished says what came of it in plain words.
    enum class StoreTask { Check, Backup, RestoreLatest };
    void runStoreTask(StoreTask task);

    // Set by whoever builds the cluster layer (GuiMain); may be null in tests
    // of a single place.
    ClusterService *clusters() const { return m_clusters; }
    void setClusters(ClusterService *clusters)
    {
        m_clusters = clusters;
        Q_EMIT clustersChanged();
    }
    // Why Submit and Dry run are off while there is no cluster layer yet.
    static QString clustersUnavailableReason();

    // The connections dialog lives with the SSH layer (ui/cluster), which
    // the places below it may not include: GuiMain says how to make it.
    using DialogFactory = std::function<QDialog *(AppServices &, QWidget *parent)>;
    void setConnectionsDialogFactory(DialogFactory factory) { m_connectionsDialog = std::move(factory); }
    // Opens the connections dialog (window-modal, deleted when closed);
    // fails (WrongState) in a build without it.
    Result<void> openConnections(QWidget *parent);
    // "Add your cluster" (ui/cluster/AddClusterWizard), made the same way.
    void setAddClusterFactory(DialogFactory factory) { m_addCluster = std::move(factory); }
    bool canAddCluster() const { return bool(m_addCluster); }
    Result<void> openAddCluster(QWidget *parent);

    // Reads every profile folder again (a profile was added or refreshed)
    // and says so with profilesChanged.
    void reloadProfiles();

    // The profile chosen in Compose: Connections opens on it.
    QString currentProfile() const { return m_currentProfile; }
    void setCurrentProfile(const QString &profileId) { m_currentProfile = profileId; }

Q_SIGNALS:
    // The cluster manager was created (GuiMain makes it after the first paint).
    void clustersChanged();
    // The store changed (submit, poll, ingest): these runs were added or
    // changed, and views read them again; empty = any run may have changed
    // (views read everything again).
    void runsChanged(const QList<qint64> &runIds = {});
    // "Clone this run's spec": the Compose place opens it.
    void openSpecRequested(const scalelab::JobSpec &spec);
    // A place asks the window to switch to another (0 compose, 1 jobs, 2 results).
    void showPlaceRequested(int place);
    // The profile folders were read again (reloadProfiles).
    void profilesChanged();
    // The store's open on the pool began or ended (storeState()).
    void storeStateChanged();
    void storeTaskFinished(const QString &message, bool ok);

private:
    void onStoreDamaged(const QString &message);

    ProfileRegistry m_profiles;
    bool m_profilesLoaded = false;
    std::unique_ptr<RunStore> m_store;
    StoreTaskQueue *m_storeTasks;   // a child
    StoreState m_storeState = StoreState::NotOpened;
    QString m_storeError;
    int m_damageListener = 0;   // StoreHealth's listener id
    ClusterService *m_clusters = nullptr;
    DialogFactory m_connectionsDialog;
    QString m_currentProfile;
    DialogFactory m_addCluster;
};

}   // namespace scalelab
