// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LaunchWalker.h"

// Container runners other than singularity/apptainer: Shifter (`shifter
// --image=IMG cmd`) and enroot (`enroot start [opts] IMG cmd`). Their options
// are read past so the program inside is found; the image stays theirs (a
// ScaleLab job renders singularity/apptainer only, so it is not imported).

namespace scalelab::launchparse {

void parseShifter(Walker &w, LaunchCommand &)
{
    static const QSet<QString> takes = {
        QStringLiteral("--image"),    QStringLiteral("--module"),  QStringLiteral("--volume"),
        QStringLiteral("-V"),         QStringLiteral("--env"),     QStringLiteral("-e"),
        QStringLiteral("--env-file"), QStringLiteral("--workdir"), QStringLiteral("-w"),
    };
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {}
}

bool parseEnrootStart(Walker &w, LaunchCommand &)
{
    if (w.atEnd() || w.peek() != QLatin1String("start"))
        return false;   // enroot import, create, list ...
    w.take();
    static const QSet<QString> takes = {
        QStringLiteral("-c"),    QStringLiteral("--conf"), QStringLiteral("-e"),
        QStringLiteral("--env"), QStringLiteral("-m"),     QStringLiteral("--mount"),
    };
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {}
    if (w.atEnd())
        return false;
    w.take();   // the container's name or image
    return true;
}

}   // namespace scalelab::launchparse
