// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/RunDraft.h"

#include "core/model/JobSpecJson.h"
#include "core/model/LaunchGeometry.h"
#include "core/store/RunStore.h"
#include "core/compose/SbatchRenderer.h"

namespace scalelab {

RunRecord draftRun(const JobSpec &spec, const ClusterProfile &profile, const QString &clusterAlias, qint64 studyId)
{
    const LaunchGeometry g = computeGeometry(spec, profile);
    RunRecord r;
    r.studyId = studyId;
    r.token = RunStore::newToken();
    r.profile = profile.id;
    r.clusterAlias = clusterAlias;
    r.partition = g.partitionName;
    r.gpus = spec.gpus;
    r.nodes = g.nodes;
    r.framework = frameworkId(spec.framework);
    r.specJson = jobSpecToJson(spec);
    r.script = renderSbatch(spec, profile);
    r.state = JobState::Unknown;
    r.submitState = SubmitState::Intent;
    return r;
}

QString defaultClusterAlias(const ClusterProfile &profile)
{
    return profile.loginHosts.isEmpty() ? profile.id : profile.loginHosts.front().alias;
}

}   // namespace scalelab
