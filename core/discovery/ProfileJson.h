// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"

#include <QByteArray>

namespace scalelab {

// Writes a profile in the shipped schema (profiles/README.md), every value
// with its source. Names are JSON strings (nlohmann escapes quotes and control
// characters; text is valid UTF-8 because it comes from QString), so no
// cluster name can break the file.
class ProfileJson {
public:
    static QByteArray write(const ClusterProfile &profile);
};

}   // namespace scalelab
