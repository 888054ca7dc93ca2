// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/AppServices.h"

#include "core/store/RunStore.h"
#include "ui/common/BackgroundPool.h"

#include <QDialog>

namespace scalelab {

AppServices::AppServices(QObject *parent)
    : QObject(parent)
    , m_store(std::make_unique<RunStore>())
{}

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
    if (!m_storeOpened) {
        m_storeOpened = true;
        m_storeError = m_store->open().errorText();
    }
    return *m_store;
}

QString AppServices::storeError()
{
    store();
    return m_storeError;
}

QString AppServices::clustersUnavailableReason()
{
    return tr("The cluster layer is still starting.");
}

QString AppServices::openConnections(QWidget *parent)
{
    if (!m_connectionsDialog)
        return tr("this build has no connections dialog");
    QDialog *d = m_connectionsDialog(*this, parent);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return {};
}

QString AppServices::openAddCluster(QWidget *parent)
{
    if (!m_addCluster)
        return tr("this build cannot add clusters");
    QDialog *d = m_addCluster(*this, parent);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->open();
    return {};
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
    // Reads and ingests on the background pool use the store, which goes
    // with this object; the pool itself lives until the application object.
    waitForBackgroundWork();
}

}   // namespace scalelab
