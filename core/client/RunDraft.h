// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"
#include "core/model/RunRecord.h"

namespace scalelab {

// The run record stored BEFORE anything is sent to a cluster (submit state
// "intent"): spec, the exact script to upload and a fresh unique token. The
// CLI and the window both submit through this, so a run is described once.
RunRecord draftRun(const JobSpec &spec, const ClusterProfile &profile, const QString &clusterAlias, qint64 studyId = 0);

// The SSH alias a cluster is reached by when the researcher names none.
QString defaultClusterAlias(const ClusterProfile &profile);

}   // namespace scalelab
