#include "ui/common/AppServices.h"

#include "core/store/RunStore.h"

namespace scalelab {

AppServices::AppServices(QObject *parent) : QObject(parent), m_store(std::make_unique<RunStore>()) {}

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

AppServices::~AppServices() = default;

} // namespace scalelab

#include "moc_AppServices.cpp"
