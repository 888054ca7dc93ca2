// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace scalelab {

// Checks for every value that goes into a remote command line. Remote
// commands are fixed words plus values that pass these checks; user text
// never does (it travels inside uploaded files).
class RemoteValidation {
public:
    static bool isJobId(const QString &s);   // digits only, 1..18
    static bool isRunToken(const QString &s);   // [a-z0-9-], 1..64, not starting with '-'
    // Absolute path of [A-Za-z0-9._/+-] without "..", "//" or a leading '-' segment.
    static bool isSafePath(const QString &s);
    static bool isSafeFileName(const QString &s);   // one path segment of the same charset
    // Remote output made printable: control characters (except \n and \t)
    // and invalid UTF-8 replaced, length capped, surrounding space trimmed.
    static QString sanitize(const QByteArray &text, int maxChars = 4000);
};

}   // namespace scalelab
