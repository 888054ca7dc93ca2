// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <optional>

// Asking the researcher at the controlling terminal (passphrases, one-time
// codes) even when stdin and stdout are redirected. POSIX: /dev/tty and
// termios (PlatformTerminalPosix.cpp); another system replaces that file.
namespace scalelab::PlatformTerminal {

// Prints `prompt` and reads one line; `echo` false hides what is typed.
// nullopt when there is no terminal or nothing could be read.
std::optional<QByteArray> readLine(const QByteArray &prompt, bool echo);

}   // namespace scalelab::PlatformTerminal
