#pragma once

#include <QStringList>

namespace scalelab {

// Dispatches `scalelab <command> ...` without any display.
class CliMain {
public:
    static bool isCliInvocation(const QStringList &args);
    static bool needsGuiApplication(const QStringList &args);
    static int run(const QStringList &args);
    static QString usage();
};

} // namespace scalelab
