// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace scalelab {

// The fixed texts a regex's every match must contain, read from the regex
// itself: what the log scan searches before any regex runs.
class RegexLiterals {
public:
    // Longest run of literal text every match of `regex` must contain; empty
    // when there is none (top-level alternation, case-insensitive flag, ...).
    static QString longest(const QString &regex);
    // Every run of literal text (3 characters or more) a match must contain,
    // the longest first; empty when longest() is.
    static QStringList all(const QString &regex);
};

}   // namespace scalelab
