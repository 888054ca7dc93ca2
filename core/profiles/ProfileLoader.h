// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"

#include <optional>

namespace scalelab {

struct ProfileLoadResult {
    std::optional<ClusterProfile> profile;
    Diagnostics problems;   // errors make `profile` empty; warnings do not
};

ProfileLoadResult loadProfile(const QByteArray &json, const QString &filePath);
ProfileLoadResult loadProfileFile(const QString &filePath);

}   // namespace scalelab
