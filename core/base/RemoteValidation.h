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
    // How remote text is made printable (see sanitize).
    struct Printable {
        int maxChars = 4000;   // longer text is cut, with "…" (0: no cap)
        bool oneLine = false;   // newlines and tabs become spaces (a status line)
        bool terminal = false;   // ANSI escapes removed; a line redrawn with "\r" keeps its last drawing
        bool trim = true;   // surrounding space removed
    };
    // The one sanitizer of text from outside (Slurm's replies, SSH banners and
    // prompts, job output): invalid UTF-8 replaced, C0/C1 control characters
    // except \n and \t dropped (so no escape sequence reaches a terminal or a
    // widget), "\r" dropped, then shaped as `how` says.
    static QString sanitize(const QByteArray &text, const Printable &how);
    static QString sanitize(const QByteArray &text, int maxChars = 4000) { return sanitize(text, Printable{maxChars}); }
};

}   // namespace scalelab
