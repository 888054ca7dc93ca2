// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QMap>
#include <QString>

#include <optional>

namespace scalelab {

// What a job requests, in the units Slurm bills (AllocTRES): CPUs, memory in
// MB, nodes, GPUs (and their type).
struct TresRequest {
    double cpus = 0;
    std::optional<double> memMB;   // unknown when the request names none and the site sets no default
    double nodes = 0;
    double gpus = 0;
    QString gpuType;   // "a100"; "" untyped
};

// A partition's TRESBillingWeights ("CPU=1.0,Mem=0.25G,GRES/gpu=2.0"): the
// billing of a job is the sum of weight x count over its TRES (Slurm's
// default; PriorityFlags=MAX_TRES takes a maximum instead, which a profile
// does not state). A unit suffix makes the weight per that unit (Mem=0.25G:
// 0.25 per GB); without one Mem's weight is per MB, the unit of the mem TRES.
// Keys are case-insensitive; `gres/gpu` and `gres/gpu:TYPE` both count.
struct BillingWeights {
    QMap<QString, double> perUnit;   // lower-case key -> weight per count (mem: per MB)
    Diagnostics diagnostics;

    bool isEmpty() const { return perUnit.isEmpty(); }
    // Billing units per hour of the request; nullopt when a weighted TRES is
    // unknown (memory with a Mem weight and no memory known).
    std::optional<double> billingOf(const TresRequest &r) const;

    static BillingWeights parse(const QString &text);
};

}   // namespace scalelab
