// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/PlatformFile.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace scalelab::PlatformFile {

namespace {

Kind kindOf(mode_t mode)
{
    if (S_ISREG(mode))
        return Kind::Regular;
    if (S_ISDIR(mode))
        return Kind::Directory;
    if (S_ISFIFO(mode))
        return Kind::Fifo;
    if (S_ISCHR(mode))
        return Kind::CharDevice;
    if (S_ISBLK(mode))
        return Kind::BlockDevice;
    if (S_ISSOCK(mode))
        return Kind::Socket;
    return Kind::Other;
}

QString errorText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

}   // namespace

Opened openRegular(const QString &path)
{
    Opened o;
    const QByteArray name = QFile::encodeName(path);
    struct stat st {};
    if (::stat(name.constData(), &st) != 0) {
        o.kind = errno == ENOENT ? Kind::Missing : Kind::Unknown;
        o.error = errorText(errno);
        return o;
    }
    o.kind = kindOf(st.st_mode);
    if (o.kind != Kind::Regular)
        return o;
    // O_NONBLOCK: should the path have become a FIFO since stat, open does not wait for a writer.
    const int fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        o.error = errorText(errno);
        return o;
    }
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        o.kind = kindOf(st.st_mode);
        ::close(fd);
        return o;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    o.fd = fd;
    return o;
}

void closeFd(int fd)
{
    if (fd >= 0)
        ::close(fd);
}

qint64 readSome(int fd, char *buffer, qint64 max)
{
    for (;;) {
        const ssize_t n = ::read(fd, buffer, size_t(max));
        if (n >= 0 || errno != EINTR)
            return qint64(n);
    }
}

QString lastErrorText()
{
    return errorText(errno);
}

Wait waitReadable(int fd, int ms)
{
    pollfd p{fd, POLLIN, 0};
    for (;;) {
        const int n = ::poll(&p, 1, ms);
        if (n > 0)
            return Wait::Readable;   // bytes, end of file (POLLHUP) or an error the read will report
        if (n == 0)
            return Wait::TimedOut;
        if (errno != EINTR)
            return Wait::Failed;
    }
}

}   // namespace scalelab::PlatformFile
