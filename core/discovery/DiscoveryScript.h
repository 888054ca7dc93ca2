// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/discovery/ProfileBuilder.h"

#include <QByteArray>
#include <QStringList>

namespace scalelab {

// The read-only Slurm commands `scalelab discover` runs, as ONE remote command
// (one round trip), and the split of its output. The script is a fixed text
// (no user or cluster text in it); the marker carries a fresh random nonce so
// cluster output can never forge a section boundary.
class DiscoveryScript {
public:
    explicit DiscoveryScript(const QString &nonce);

    QStringList argv() const;   // {"sh", "-c", "<one line>"}

    struct Parsed {
        DiscoveryInput input;
        Diagnostics diagnostics;   // a command that failed (Warning): its facts stay unknown
    };
    Parsed parse(const QByteArray &output, const QString &alias, const QString &date) const;

    static QStringList sectionNames();

    // The images in a profile's container folders: one remote command, the
    // folders quoted ($NAME expands there), each image named with its folder
    // as written; at most 20,000 lines. Parsed by SoftwareCatalog::parseImageListing.
    static QStringList imageListingArgv(const QStringList &containerDirs);

private:
    QString m_marker;
};

}   // namespace scalelab
