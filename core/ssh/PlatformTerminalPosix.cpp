// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/PlatformTerminal.h"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace scalelab::PlatformTerminal {

std::optional<QByteArray> readLine(const QByteArray &prompt, bool echo)
{
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    termios saved{};
    if (tcgetattr(fd, &saved) != 0 || ::write(fd, prompt.constData(), size_t(prompt.size())) < 0) {
        ::close(fd);
        return std::nullopt;
    }
    if (!echo) {
        termios quiet = saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        quiet.c_lflag |= ECHONL;
        tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    QByteArray line;
    char c = 0;
    bool gotAny = false;
    while (::read(fd, &c, 1) == 1) {
        gotAny = true;
        if (c == '\n' || c == '\r')
            break;
        line += c;
    }
    if (!echo)
        tcsetattr(fd, TCSAFLUSH, &saved);
    ::close(fd);
    if (!gotAny)
        return std::nullopt;
    return line;
}

}   // namespace scalelab::PlatformTerminal
