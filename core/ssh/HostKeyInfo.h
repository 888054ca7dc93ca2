// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// What the user is shown when a server's host key must be judged.
struct HostKeyInfo {
    QString host;   // the name the key is checked under (HostName)
    int port = 22;
    QString keyType;   // e.g. "ssh-ed25519"
    QString fingerprintSha256;   // "SHA256:..." like ssh-keygen -l
    QString knownHostsPath;   // the file checked (and appended to on accept)
    int conflictingLine = 0;   // 1-based line of the conflicting entry, 0 = none
};

}   // namespace scalelab
