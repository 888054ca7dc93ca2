// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"

#include <optional>

namespace scalelab {

struct ProfileLoadResult {
    std::optional<ClusterProfile> profile;
    Diagnostics problems;   // errors make `profile` empty; warnings do not
    // The id the file is meant to have, also when it is broken: its "id" when
    // that can be read, else the file's name without .json (shipped profiles
    // are named by their id). A broken file in a higher folder shadows the
    // profile of that id below it instead of letting it be used silently.
    QString claimedId;
};

ProfileLoadResult loadProfile(const QByteArray &json, const QString &filePath);
ProfileLoadResult loadProfileFile(const QString &filePath);

}   // namespace scalelab
