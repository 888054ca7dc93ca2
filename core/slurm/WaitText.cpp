// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/WaitText.h"

#include <cmath>

namespace scalelab {

QString WaitText::duration(qint64 seconds)
{
    if (seconds <= 60)
        return QStringLiteral("under a minute");
    if (seconds < 90 * 60)
        return QStringLiteral("about %1 min").arg(std::max<qint64>(1, std::llround(double(seconds) / 60.0)));
    if (seconds < 48 * 3600)
        return QStringLiteral("about %1 h").arg(std::llround(double(seconds) / 3600.0));
    return QStringLiteral("about %1 days").arg(std::llround(double(seconds) / 86400.0));
}

QString WaitText::startsIn(qint64 seconds)
{
    return seconds <= 60 ? QStringLiteral("now") : QStringLiteral("in ") + duration(seconds);
}

}   // namespace scalelab
