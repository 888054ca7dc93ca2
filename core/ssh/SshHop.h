// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/ssh (includes libssh): one SSH connection of a chain
// (jump hosts ... target), and the pump that carries the next hop's bytes
// through a direct-tcpip channel of this one.

#include "core/base/Result.h"
#include "core/ssh/SshCallbacks.h"
#include "core/ssh/SshConnectionSettings.h"
#include "core/sshconfig/SshHostConfig.h"

#include <libssh/libssh.h>
#include <libssh/server.h>   // ssh_send_keepalive is declared here in 0.10

#include <atomic>
#include <thread>

namespace scalelab {

struct SshHop {
    SshHostConfig config;
    ssh_session session = nullptr;

    // Set when this hop is reached through the previous hop: the channel lives
    // on the previous hop's session, which from then on only the pump thread
    // touches (one thread per libssh session).
    ssh_session carrier = nullptr;
    ssh_channel carrierChannel = nullptr;
    int pumpFd = -1;   // our end of the socketpair
    int sessionFd = -1;   // the other end, given to `session` (libssh 0.10 does not close it)
    std::thread pump;
    std::atomic<bool> stopPump{false};
    int keepaliveSeconds = 0;

    ~SshHop();
    // Stops the pump, frees the channel (not the carrier session).
    void stopBridge();
    // Disconnects and frees `session`.
    void close();
};

// Connects `hop.config` (through `fd` when >= 0), checks the host key, and
// authenticates. A failure (Transport) is one line.
Result<void> sshConnectAndAuthenticate(SshHop &hop, int fd, const SshConnectionSettings &settings,
                                       SshCallbacks *callbacks);

// Opens a direct-tcpip channel on `carrier` to next.config's host:port and
// starts the pump; returns the fd to hand to the next session, or a Transport
// error (the jump host refused or the local socket pair failed).
Result<int> sshStartBridge(ssh_session carrier, SshHop &next);

QString sshErrorText(ssh_session s);

}   // namespace scalelab
