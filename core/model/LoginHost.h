// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// Where a researcher logs in. `alias` is the default SSH config Host alias the
// app connects with; hostName/user/port/proxyJump prefill the connection form.
struct LoginHost {
    QString alias;
    QString hostName;
    int port = 22;
    QString user;
    QString proxyJump;
    QString auth;   // human note: "key registered in MyCSC", "key + TOTP", ...

    bool operator==(const LoginHost &) const = default;
};

}   // namespace scalelab
