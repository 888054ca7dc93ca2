// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// What a job costs at most before it is submitted: GPU-hours and billing
// units (the partition's TRESBillingWeights x the request x its time limit).
// A number that cannot be known is empty with the reason, never guessed.
struct JobCost {
    std::optional<double> hours;   // the time limit asked for (or the partition's default/maximum)
    QString
        timeFrom;   // where the hours came from: "the time limit", "the partition's default time" or "... maximum time"
    int gpus = 0;
    std::optional<double> gpuHours;
    std::optional<double> billingPerHour;
    std::optional<double> billingUnits;   // billing per hour x hours
    QString unknownWhy;   // why hours or billing is empty

    // "8 GPU-hours, 64 billing units" / "8 GPU-hours; billing unknown: ...".
    QString summary() const;
};

// A study's cost: the sum of its runs. A total is given only when every run's
// number is known; otherwise the runs that lack it are counted.
struct StudyCost {
    int runs = 0;
    std::optional<double> gpuHours;
    std::optional<double> billingUnits;
    int runsWithoutHours = 0;
    int runsWithoutBilling = 0;
    QString unknownWhy;   // the first run's reason
    QString summary() const;
};

class JobCostEstimator {
public:
    static JobCost estimate(const JobSpec &spec, const ClusterProfile &profile);
    static StudyCost total(const QList<JobCost> &runs);
};

}   // namespace scalelab
