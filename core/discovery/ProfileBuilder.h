// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/discovery/DiscoveryFacts.h"
#include "core/model/ClusterProfile.h"

namespace scalelab {

// Everything `scalelab discover` read from one cluster, and when.
struct DiscoveryInput {
    QString alias;   // SSH alias it was read through
    QString date;   // ISO date of the reading, e.g. 2026-11-23
    LoginHost login;   // as resolved from the SSH config
    QString versionText;   // `scontrol --version`: "slurm 22.05.8"
    ConfigFacts config;
    QList<PartitionFacts> partitions;
    QList<NodeFacts> nodes;
    QList<AssociationFacts> associations;
    QList<QosFacts> qos;
    // `module -t spider` (Lmod) or `module -t avail`: nullopt = no module system answered.
    std::optional<QStringList> modules;
    QString modulesCommand;   // the command that listed them
    // Images in the profile's container folders (a second command, only when it names some).
    std::optional<QStringList> containerImages;
};

struct BuiltProfile {
    ClusterProfile profile;
    Diagnostics diagnostics;   // guesses (Info), left-out partitions (Info), no GPU partition (Error)
};

// Facts -> a profile in the shipped schema. Every value carries its source
// (the command and the date). What Slurm cannot tell (site advice, modules,
// container runtime, GPU model and memory) is taken from `site` when given,
// else marked "not known" in its source.
class ProfileBuilder {
public:
    static BuiltProfile build(const DiscoveryInput &in, const ClusterProfile *site);

    // The shipped profile describing the same site: same Slurm ClusterName as
    // its id, or the same login host name. nullptr when none matches.
    static const ClusterProfile *matchSite(const DiscoveryInput &in, const QList<ClusterProfile> &profiles);

    // "v100" -> nvidia, "mi250x" -> amd; nullopt when the name says nothing.
    static std::optional<GpuVendor> guessVendor(const QString &gresType);

    // A profile id from a cluster or alias name: lower case, [a-z0-9_-].
    static QString idFrom(const QString &name);
};

}   // namespace scalelab
