// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace scalelab {

// Called once at every start (window and headless commands). ScaleLab makes
// what it creates owner-only at its creation (PrivateFiles: folders 0700,
// files 0600) and never changes the mode of what exists. The folders it keeps
// the researcher's data in — the run store, the settings with the SSH config
// the app writes, its cache and its log — are checked: one that others may
// read (a folder the researcher chose, a team folder, one left open by an
// older version) gets a warning naming it, not a chmod. The window also
// creates the settings folder and file this way, so QSettings never creates
// them open to others. Returns the warnings: stderr for commands, the log
// and the status bar in the window; nothing here is fatal.
class PrivateData {
public:
    enum class Create { Nothing, Settings };
    static QStringList prepare(Create create);
    // The folders in question, for tests and the man page.
    static QStringList folders();
};

}   // namespace scalelab
