// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QString>

#include <nlohmann/json.hpp>

namespace scalelab {

// One text and one JSON form of diagnostics, shared by the CLI and exports.
class DiagnosticFormat {
public:
    // "file:12: error [rule] field: message  (fix: label)"
    static QString toText(const Diagnostic &d, const QString &file = {});
    static nlohmann::ordered_json toJson(const Diagnostic &d);
    static nlohmann::ordered_json toJson(const Diagnostics &ds);
};

}   // namespace scalelab
