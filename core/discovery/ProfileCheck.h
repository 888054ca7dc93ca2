// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"

namespace scalelab {

// One place where a profile and the live cluster disagree.
struct ProfileDifference {
    QString partition;   // "" for site-wide values
    QString field;   // profile key: maxTime, maxNodes, gpusPerNode, ..., or "partition"
    QString profileValue;   // as written in the profile ("(absent)" when missing)
    QString clusterValue;   // as the cluster says ("(absent)" when missing)
    QString source;   // the command and date the cluster value comes from
    bool operator==(const ProfileDifference &) const = default;
};

// Compares a profile with one built from the cluster (ProfileBuilder).
// Only what Slurm states is compared: site advice, descriptions and values the
// profile marks unknown are not. GPU partitions of the cluster that the
// profile lacks are differences; CPU partitions are not.
class ProfileCheck {
public:
    static QList<ProfileDifference> compare(const ClusterProfile &profile, const ClusterProfile &cluster);
};

}   // namespace scalelab
