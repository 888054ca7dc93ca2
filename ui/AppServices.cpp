#include "AppServices.h"

#include "RunStore.h"

namespace scalelab {

AppServices::AppServices(QObject *parent) : QObject(parent), m_store(std::make_unique<RunStore>())
{
    m_profiles.loadDefaults();
    m_storeError = m_store->open();
}

AppServices::~AppServices() = default;

} // namespace scalelab
