// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace scalelab {

// The spec files opened or saved last (QSettings "compose/recentSpecs"),
// newest first, at most ten.
class RecentSpecs {
public:
    static constexpr int maxEntries = 10;

    static QStringList list();
    static void add(const QString &path);
    static void remove(const QString &path);
    static void clear();
};

}   // namespace scalelab
