// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// A wait in words, rounded as a person says it: "now" (a minute or less),
// "in about 20 min", "in about 2 h", "in about 3 days".
class WaitText {
public:
    static QString startsIn(qint64 seconds);
    static QString duration(qint64 seconds);   // "about 20 min", "under a minute"
};

}   // namespace scalelab
