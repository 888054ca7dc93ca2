// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// How to reach one cluster: an alias of the OpenSSH client config plus our
// own limits. The alias is resolved with SshConfigFile (configPath, or
// SshConfigFile::defaultPath() when empty).
struct SshConnectionSettings {
    QString alias;
    QString configPath;
    bool acceptNewHostKey = false;   // like StrictHostKeyChecking=accept-new (CLI flag)
    int connectTimeoutMs = 15000;   // TCP connect + key exchange + each blocking libssh call
    int commandTimeoutMs = 120000;   // upper bound for one run() when the caller gives none
    int keepaliveSeconds = 30;   // ServerAliveInterval from the config wins when set
};

}   // namespace scalelab
