// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"

namespace scalelab {

// Every rule a composed job is checked against. Each diagnostic names the
// spec field it is about and, where one exists, a concrete fix.
Diagnostics validateJob(const JobSpec &spec, const ClusterProfile &profile);

// Info notes describe the job as it would be rendered (threads per process,
// the global batch, how CPUs are requested). While an error is shown the job
// cannot be rendered that way, so a note could describe a corrected layout
// beside the error that contradicts it: notes are left out until no error
// remains. Warnings and errors pass unchanged, in order.
Diagnostics notesConsistentWithErrors(const Diagnostics &diagnostics);

}   // namespace scalelab
