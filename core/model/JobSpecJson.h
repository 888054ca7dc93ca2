// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace scalelab {

// The job spec JSON contract (camelCase keys). Parsing reports malformed JSON
// with line/column and unknown keys by name, as diagnostics with field set.
struct JobSpecParseResult {
    std::optional<JobSpec> spec;
    Diagnostics errors;   // all Severity::Error; empty when spec is set
};

JobSpecParseResult parseJobSpec(const QByteArray &json, const QString &fileName = {});
QByteArray jobSpecToJson(const JobSpec &spec, int indent = 2);

}   // namespace scalelab
