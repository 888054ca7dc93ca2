// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/PlatformFiles.h"

#include <QFile>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace scalelab::PlatformFiles {

namespace {

bool failed(QString *reason)
{
    if (reason)
        *reason = QString::fromLocal8Bit(std::strerror(errno));
    return false;
}

}   // namespace

bool syncDescriptor(int fd, QString *reason)
{
    while (::fsync(fd) != 0) {
        if (errno != EINTR)
            return failed(reason);
    }
    return true;
}

bool syncFolder(const QString &folder, QString *reason)
{
    const int fd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return failed(reason);
    const bool ok = syncDescriptor(fd, reason);
    ::close(fd);
    return ok;
}

bool replaceFile(const QString &from, const QString &to, QString *reason)
{
    if (::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) != 0)
        return failed(reason);
    return true;
}

QList<int> reserveStandardDescriptors()
{
    QList<int> closed;
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        closed << fd;
        // The lowest free number is `fd` itself (0..fd-1 are taken by now).
        const int got = ::open("/dev/null", O_RDONLY);
        if (got >= 0 && got != fd) {
            ::dup2(got, fd);
            ::close(got);
        }
    }
    return closed;
}

}   // namespace scalelab::PlatformFiles
