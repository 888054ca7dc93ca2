// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

#include <QString>

namespace scalelab {

// Applies a diagnostic's fix to a spec: sets the spec field named by
// fix.field (a JSON spec key, e.g. "partition", "monitoring.gpuSampleSeconds")
// to fix.value, or resets it when fix.clear. Returns "" on success, else why
// the fix cannot be applied (unknown field, value of the wrong type).
QString applyFix(JobSpec &spec, const Fix &fix);

}   // namespace scalelab
