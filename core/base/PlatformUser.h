// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// Who runs ScaleLab, as ssh would name them by default (the `User` of an SSH
// config entry without one). POSIX: the password database
// (PlatformUserPosix.cpp); another system replaces that file.
namespace scalelab::PlatformUser {

QString loginName();

}   // namespace scalelab::PlatformUser
