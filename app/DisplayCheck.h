// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// Whether Qt can start a GUI application on the platform it would pick:
// `-platform` on the command line, else $QT_QPA_PLATFORM, else the session's
// default (xcb; wayland too in a Wayland session). Checked before QApplication
// exists, because Qt's own failure to load or connect a platform plugin ends
// the process with an abort (exit 134) and a hint to reinstall. Each platform
// asked for is tried as Qt would, first to work wins:
//   - its plugin must be installed (Qt's plugin folders, QT_PLUGIN_PATH,
//     QT_QPA_PLATFORM_PLUGIN_PATH, -platformpluginpath);
//   - xcb must reach the X server ($DISPLAY or -display), through libxcb's
//     own xcb_connect, so a stale display or a refused authorisation shows;
//   - wayland must reach the compositor (wl_display_connect).
// Both libraries are opened with QLibrary only when asked for; nothing is
// started and no child process runs. Returns "" or one line naming the
// platforms tried, where they were asked for and why each failed (the
// display it tried); the caller says how to do without.
class DisplayCheck {
public:
    static QString problem(int argc, char **argv);
};

}   // namespace scalelab
