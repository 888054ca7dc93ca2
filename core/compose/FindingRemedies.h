// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"

#include <QList>

namespace scalelab {

// Every remedy a finding's text offers, one Fix each, so the form can offer a
// button per remedy: the finding's own fix, and for a time limit over the
// partition's ("Shorten it to 1-00:00:00 or use partition long") also the
// partition that takes it, the one the validator names.
class FindingRemedies {
public:
    static QList<Fix> of(const Diagnostic &finding, const JobSpec &spec, const ClusterProfile &profile);
};

}   // namespace scalelab
