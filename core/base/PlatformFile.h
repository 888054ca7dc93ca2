// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What a path names, and opening it for reading without ever blocking on a
// FIFO that has no writer. POSIX: stat/open/poll (PlatformFilePosix.cpp);
// another system replaces that file. Only InputLimits uses it.
namespace scalelab::PlatformFile {

enum class Kind { Missing, Regular, Directory, Fifo, CharDevice, BlockDevice, Socket, Other, Unknown };

struct Opened {
    int fd = -1;   // a regular file's descriptor (caller closes it), -1 otherwise
    Kind kind = Kind::Unknown;   // what `path` is (Unknown: stat failed, see `error`)
    QString error;   // why it could not be opened, "" when fd >= 0
};

// Looks at what `path` is first and opens only a regular file (a FIFO,
// device, socket or directory is never opened); the descriptor is checked
// again after opening, so the file read is the file looked at.
Opened openRegular(const QString &path);
void closeFd(int fd);

// One read(2) of at most `max` bytes: what is there now, 0 at the end, -1 on
// an error (errorText says which). Never waits for more than the first byte.
qint64 readSome(int fd, char *buffer, qint64 max);
QString lastErrorText();

enum class Wait { Readable, TimedOut, Failed };
// Waits at most `ms` until `fd` has bytes (or its end) to read.
Wait waitReadable(int fd, int ms);

}   // namespace scalelab::PlatformFile
