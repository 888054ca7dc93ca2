// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"

#include <QString>

namespace scalelab {

// What a profile states as fact, as opposed to what it leaves open. Only a
// stated fact (shipped with its source, or discovered) can make a script
// wrong; a partition, GPU type or plugin the profile does not state is
// unknown, and the finding says how to learn it instead.
class ProfileFacts {
public:
    explicit ProfileFacts(const ClusterProfile &profile)
        : m_profile(profile)
    {}

    // The partition list is the site's own: a name outside it does not exist.
    bool statesPartitions() const;
    // The partition's GPU type is the site's (not a template's placeholder,
    // nor the untyped "gpu" of a discovered GRES without a type).
    bool statesGpuType(const Partition &partition) const;
    // The site's SPANK plugins are listed, so an option none of them defines is unknown there.
    bool statesPlugins() const { return m_profile.sitePlugins.has_value(); }
    bool runsPlugin(const QString &plugin) const;

    // "Run `scalelab discover ALIAS` to read them from Slurm."
    QString howToLearn(const QString &what) const;

private:
    const ClusterProfile &m_profile;
};

}   // namespace scalelab
