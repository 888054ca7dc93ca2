// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/base/PlatformUser.h"

#include <pwd.h>
#include <unistd.h>

namespace scalelab::PlatformUser {

QString loginName()
{
    if (const passwd *pw = getpwuid(getuid()))
        return QString::fromLocal8Bit(pw->pw_name);
    return qEnvironmentVariable("USER");
}

}   // namespace scalelab::PlatformUser
