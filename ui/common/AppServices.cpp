// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/AppServices.h"

#include "core/store/RunStore.h"
#include "core/store/StoreFile.h"
#include "core/store/StoreHealth.h"
#include "ui/common/BackgroundPool.h"
#include "ui/common/RunInBackground.h"
#include "ui/common/StoreTaskQueue.h"

#include <QCoreApplication>
#include <QDialog>
#include <QPointer>

namespace scalelab {

AppServices::AppServices(QObject *parent)
    : QObject(parent)
    , m_store(std::make_unique<RunStore>())
    , m_storeTasks(new StoreTaskQueue(*m_store, this))
{
    m_store->setThreadBusyTimeout(kGuiBusyTimeoutMs);
    // Damage found at any time, on any thread (a pool read answered "corrupt",
    // File ▸ Run store ▸ Check): the banner says so. The message (it lists the
    // backups) is made on the thread that found it.
    const QString db = m_store->databasePath();
    QPointer<AppServices> self(this);
    m_damageListener = StoreHealth::addListener([self, db](const QString &key, const QString &why) {
        if (key != StoreHealth::key(db) || !QCoreApplication::instance())
            return;
        const QString message = StoreFile::damageMessage(db, why);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, message] {
                if (self)
                    self->onStoreDamaged(message);
            },
            Qt::QueuedConnection);
    });
}

void AppServices::onStoreDamaged(const QString &message)
{
    if (!storeDamaged())
        return;   // restored meanwhile
    m_storeState = StoreState::Failed;
    m_storeError = message;
    Q_EMIT storeStateChanged();
}

ProfileRegistry &AppServices::profiles()
{
    if (!m_profilesLoaded) {
        m_profilesLoaded = true;
        m_profiles.loadDefaults();
    }
    return m_profiles;
}

RunStore &AppServices::store()
{
    return *m_store;
}

bool AppServices::storeDamaged() const
{
    return StoreHealth::damage(m_store->databasePath()).has_value();
}

void AppServices::openStoreInBackground()
{
    if (m_storeState == StoreState::Opening)
        return;
    m_storeState = StoreState::Opening;
    Q_EMIT storeStateChanged();
    RunStore *store = m_store.get();
    runInBackground(
        this,
        [store] {
            Result<void> r = store->open();
            store->closeThreadConnection();   // this pool thread may be reused by others
            return r;
        },
        [this](const Result<void> &opened) {
            m_storeState = opened ? StoreState::Open : StoreState::Failed;
            m_storeError = opened.errorText();
            Q_EMIT storeStateChanged();
            if (opened)
                Q_EMIT runsChanged();   // the places read what they show now
        });
}

namespace {

QString runStoreTask(const QString &db, AppServices::StoreTask task, bool &ok)
{
    using Task = AppServices::StoreTask;
    if (task == Task::Check) {
        const auto problem = StoreFile::check(db);
        ok = problem && problem->isEmpty();
        if (!problem)
            return problem.error().message;
        if (!ok)
            StoreHealth::markDamaged(db, *problem);   // no more writes; the banner says so
        return ok ? AppServices::tr("The run store %1 is sound.").arg(db) : StoreFile::damageMessage(db, *problem);
    }
    if (task == Task::Backup) {
        const auto made = StoreFile::backup(db, QStringLiteral("manual"));
        ok = made.ok();
        return ok ? AppServices::tr("Backed up the run store to %1.").arg(made->path) : made.error().message;
    }
    const QList<StoreFile::Backup> all = StoreFile::backups(db);
    if (all.isEmpty()) {
        ok = false;
        return AppServices::tr("There is no backup of %1 in %2 yet.").arg(db, StoreFile::directoryFor(db));
    }
    const auto done = StoreFile::restore(db, all.front().path);
    ok = done.ok();
    if (!ok)
        return done.error().message;
    return done->keptAs.isEmpty()
               ? AppServices::tr("Restored the run store from %1.").arg(all.front().path)
               : AppServices::tr("Restored the run store from %1; the store as it was is kept as %2.")
                     .arg(all.front().path, done->keptAs);
}

}   // namespace

void AppServices::runStoreTask(StoreTask task)
{
    const QString db = m_store->databasePath();
    using Outcome = std::pair<QString, bool>;
    runInBackground(
        this,
        [db, task] {
            bool ok = false;
            QString message = scalelab::runStoreTask(db, task, ok);
            return Outcome{message, ok};
        },
        [this, task](const Outcome &out) {
            Q_EMIT storeTaskFinished(out.first, out.second);
            if (task == StoreTask::RestoreLatest && out.second)
                openStoreInBackground();   // check and migrate the restored copy, then the places reload
        });
}

QString AppServices::clustersUnavailableReason()
{
    return tr("The cluster layer is still starting.");
}

Result<void> AppServices::openConnections(QWidget *parent)
{
    if (!m_connectionsDialog)
        return fail(ErrorCode::WrongState, tr("this build has no connections dialog"));
    QDialog *d = m_connectionsDialog(*this, parent);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return success();
}

Result<void> AppServices::openAddCluster(QWidget *parent)
{
    if (!m_addCluster)
        return fail(ErrorCode::WrongState, tr("this build cannot add clusters"));
    QDialog *d = m_addCluster(*this, parent);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return success();
}

void AppServices::reloadProfiles()
{
    m_profiles = ProfileRegistry();
    m_profiles.loadDefaults();
    m_profilesLoaded = true;
    Q_EMIT profilesChanged();
}

AppServices::~AppServices()
{
    StoreHealth::removeListener(m_damageListener);
    // Reads and ingests on the background pool use the store, which goes
    // with this object; the pool itself lives until the application object.
    waitForBackgroundWork();
}

}   // namespace scalelab
