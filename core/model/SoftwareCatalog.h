// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace scalelab {

struct ClusterProfile;
struct JobSpec;

// The cluster's software as discovered: the modules its module system knows
// (Lmod `module -t spider`, else `module -t avail`) and the container images
// in the folders the profile names (`containerDirs`). Holds the rules that
// read those listings and hold a spec's modules and image against them.
// A list that was never discovered says nothing: no finding without it.
class SoftwareCatalog {
public:
    // Module names (`name/version`) from a terse listing of Lmod or
    // Environment Modules: folder lines ("/path:"), name folders ("name/"),
    // marks ("(default)", "(D)", "<L>") and messages are left out. Sorted, unique.
    static QStringList parseModuleListing(const QString &text);

    // Image paths from `ls -1d DIR/*` lines: only files with an image suffix
    // (.sif, .simg, .sqsh, .squashfs, .img). Sorted, unique.
    static QStringList parseImageListing(const QString &text);

    // Whether `module load request` finds a module in `available` the way
    // Lmod does: the full name, a name without a version (its default), or a
    // version prefix that ends at a dot ("cuda/12" loads "cuda/12.2").
    static bool moduleAvailable(const QString &request, const QStringList &available);

    // The versions of request's name that the cluster has ("pytorch/2.4.1",
    // ...), or modules of the same name in another case; at most `max`.
    static QStringList alternatives(const QString &request, const QStringList &available, int max = 8);

    // Findings for one module and one image, against the profile's lists.
    // `field` and `line` go into the finding as given.
    static Diagnostics moduleFindings(const QString &module, const ClusterProfile &profile, const QString &field,
                                      int line);
    static Diagnostics imageFindings(const QString &image, const ClusterProfile &profile, const QString &field,
                                     int line);

    // The spec's modules and image (module-not-on-cluster, image-not-on-cluster).
    // No module finding when `module use` in the setup lines may add modules
    // nobody listed. A script's findings carry the line of each module and of
    // the image (0 = none: a spec's).
    static Diagnostics check(const JobSpec &spec, const ClusterProfile &profile,
                             const QHash<QString, int> &moduleLines = {}, int imageLine = 0);

    // The image suffixes a container folder listing keeps.
    static const QStringList &imageSuffixes();
};

}   // namespace scalelab
