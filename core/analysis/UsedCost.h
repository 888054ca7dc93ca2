// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/MetricRecord.h"

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// What a finished run used, from its accounting (IngestService: AllocTRES x
// elapsed): GPU-hours and billing units. Empty when accounting gave none.
struct UsedCost {
    std::optional<double> gpuHours;
    std::optional<double> billingUnits;

    bool known() const { return gpuHours || billingUnits; }
    // "Used 0.3 GPU-hours, 2.1 billing units (Slurm accounting)", "" when nothing is known.
    QString text() const;
    static UsedCost of(const QList<MetricRecord> &metrics);
};

}   // namespace scalelab
