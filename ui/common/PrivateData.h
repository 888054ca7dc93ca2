// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace scalelab {

// Called once at every start (window and headless commands): the folders
// ScaleLab keeps the researcher's data in — the run store, the settings with
// the SSH config the app writes, its cache and its log — are made owner-only (0700,
// their files 0600), including folders left readable by older versions.
// The window also creates the settings folder and file this way, so QSettings
// never creates them world-readable. Returns one line per entry it could not
// tighten (for a warning on stderr); nothing here is fatal.
class PrivateData {
public:
    enum class Create { Nothing, Settings };
    static QStringList secure(Create create);
    // The folders in question, for tests and the man page.
    static QStringList folders();
};

}   // namespace scalelab
