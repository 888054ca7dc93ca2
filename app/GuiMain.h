// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace scalelab {

struct WindowOptions;

// The window, or an offscreen screenshot of it:
//   scalelab --screenshot FILE.png [--place compose|jobs|results] [--spec SPEC.json]
//            [--size WxH] [--dark]
// Environment: SCALELAB_DARK=1 uses a dark palette; SCALELAB_EXIT_AFTER_SHOWN=1
// prints "shown-ms <N>" once the first frame is painted and quits (startup bench);
// SCALELAB_EXIT_AFTER_SHOWN=form does the same for the Compose form's first frame,
// SCALELAB_EXIT_AFTER_SHOWN=clusters prints "clusters started" once the cluster
// layer (built after the first place has painted) runs, then quits normally.
class GuiMain {
public:
    // `opts` were checked by CliMain::route; argv still holds Qt's own options.
    static int run(int argc, char **argv, const WindowOptions &opts);
};

}   // namespace scalelab
