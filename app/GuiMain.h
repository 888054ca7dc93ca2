#pragma once

namespace scalelab {

// The window, or an offscreen screenshot of it (--screenshot).
class GuiMain {
public:
    static int run(int argc, char **argv);
};

} // namespace scalelab
