// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/ProfileFacts.h"

namespace scalelab {

bool ProfileFacts::statesPartitions() const
{
    return !m_profile.isTemplate && !m_profile.partitions.isEmpty();
}

bool ProfileFacts::statesGpuType(const Partition &partition) const
{
    // "gpu" is the id of a GPU whose type nobody named: the template's
    // placeholder and what discovery writes for an untyped GRES (gpu:4).
    return !m_profile.isTemplate && !partition.gpuType.isEmpty() && partition.gpuType != QLatin1String("gpu");
}

bool ProfileFacts::runsPlugin(const QString &plugin) const
{
    return m_profile.sitePlugins && m_profile.sitePlugins->contains(plugin, Qt::CaseInsensitive);
}

QString ProfileFacts::howToLearn(const QString &what) const
{
    const QString alias = !m_profile.isTemplate && !m_profile.loginHosts.isEmpty() ? m_profile.loginHosts.front().alias
                                                                                   : QStringLiteral("ALIAS");
    return QStringLiteral("Run `scalelab discover %1` to read %2 from Slurm.").arg(alias, what);
}

}   // namespace scalelab
