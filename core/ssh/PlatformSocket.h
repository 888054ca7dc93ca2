// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QString>

// The byte pipe of the ProxyJump bridge (SshHop): a connected local socket
// pair, one end handed to libssh as the next session's socket, the other
// pumped to the jump host's channel. All the system calls of that bridge are
// here, so a port to another system replaces this one file (POSIX:
// PlatformSocketPosix.cpp; Windows would need a loopback TCP pair).
namespace scalelab::PlatformSocket {

// Both ends close-on-exec. A failure (Transport) says why.
Result<void> makePair(int fds[2]);
void closeFd(int fd);
// Wakes the reader on the other end with end-of-file.
void shutdownBoth(int fd);

// Waits up to timeoutMs for `fd` to be readable (or closed); `other` (may be
// -1) only cuts the wait short when it becomes readable.
bool waitReadable(int fd, int other, int timeoutMs);

enum class ReadResult { Data, EndOfFile, Again, Failed };
ReadResult readSome(int fd, char *buf, int size, int *got);
// Writes everything, waiting while the socket is full; false on an error.
bool writeAll(int fd, const char *data, int size);

}   // namespace scalelab::PlatformSocket
