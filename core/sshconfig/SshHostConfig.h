// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace scalelab {

// The effective OpenSSH client settings for one alias, as resolved by
// SshConfigFile (first obtained value wins, like ssh_config(5)).
struct SshHostConfig {
    QString alias;   // what the user typed
    QString hostName;   // HostName, or the alias when unset
    QString user;   // User, or the local user name when unset
    int port = 22;
    QStringList identityFiles;   // expanded (~, %d %u %h %r %%), in config order
    QString proxyJump;   // raw ProxyJump value, "" or "none" = direct
    QString userKnownHostsFile;   // expanded; "" = ~/.ssh/known_hosts
    bool identitiesOnly = false;
    int connectTimeoutSeconds = 0;   // 0 = not set
    int serverAliveIntervalSeconds = 0;   // 0 = not set
    QString configPath;   // the file it came from ("" = none)

    // The known_hosts file this host is checked against and appended to.
    QString knownHostsPath() const;
    bool hasProxyJump() const
    {
        return !proxyJump.isEmpty() && proxyJump.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0;
    }
};

}   // namespace scalelab
