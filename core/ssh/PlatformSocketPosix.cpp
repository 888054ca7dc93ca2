// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/PlatformSocket.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace scalelab::PlatformSocket {

Result<void> makePair(int fds[2])
{
#ifdef SOCK_CLOEXEC
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0)
        return success();
#else
    // macOS has no SOCK_CLOEXEC: set the flag right after (no exec can run in
    // between on this thread; other threads do not exec).
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0) {
        for (int i = 0; i < 2; ++i) {
            ::fcntl(fds[i], F_SETFD, FD_CLOEXEC);
#ifdef SO_NOSIGPIPE
            const int on = 1;
            ::setsockopt(fds[i], SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
        }
        return success();
    }
#endif
    return fail(ErrorCode::Transport,
                QStringLiteral("socketpair failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
}

void closeFd(int fd)
{
    if (fd >= 0)
        ::close(fd);
}

void shutdownBoth(int fd)
{
    if (fd >= 0)
        ::shutdown(fd, SHUT_RDWR);
}

bool waitReadable(int fd, int other, int timeoutMs)
{
    pollfd fds[2] = {{fd, POLLIN, 0}, {other, POLLIN, 0}};
    ::poll(fds, other >= 0 ? 2 : 1, timeoutMs);
    return fds[0].revents & (POLLIN | POLLHUP | POLLERR);
}

ReadResult readSome(int fd, char *buf, int size, int *got)
{
    const ssize_t n = ::read(fd, buf, size_t(size));
    *got = n > 0 ? int(n) : 0;
    if (n > 0)
        return ReadResult::Data;
    if (n == 0)
        return ReadResult::EndOfFile;
    return errno == EINTR || errno == EAGAIN ? ReadResult::Again : ReadResult::Failed;
}

bool writeAll(int fd, const char *data, int size)
{
    while (size > 0) {
        // The other end of the bridge may close first when a session ends; a
        // plain write() would then raise SIGPIPE and end the whole program.
        // send() with MSG_NOSIGNAL fails with EPIPE instead (the pair is a
        // socket); where that flag is missing, SO_NOSIGPIPE is set in makePair.
#ifdef MSG_NOSIGNAL
        const ssize_t w = ::send(fd, data, size_t(size), MSG_NOSIGNAL);
#else
        const ssize_t w = ::write(fd, data, size_t(size));
#endif
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                pollfd p{fd, POLLOUT, 0};
                ::poll(&p, 1, 100);
                continue;
            }
            return false;
        }
        data += w;
        size -= int(w);
    }
    return true;
}

}   // namespace scalelab::PlatformSocket
