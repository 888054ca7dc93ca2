// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

namespace scalelab {

// Every rule a composed job is checked against. Each diagnostic names the
// spec field it is about and, where one exists, a concrete fix.
Diagnostics validateJob(const JobSpec &spec, const ClusterProfile &profile);

} // namespace scalelab
