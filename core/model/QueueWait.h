// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// How long one past job waited in the queue (Slurm's Start - Submit), with
// what it asked for.
struct QueueWait {
    QString clusterAlias;
    QString partition;   // the partition it ran in (accounting), else the one asked for
    int gpus = 0;
    double seconds = 0;
    bool operator==(const QueueWait &) const = default;
};

}   // namespace scalelab
