// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/QueueWait.h"

#include <QList>
#include <QString>

#include <optional>

namespace scalelab {

// The median past queue wait of the researcher's own jobs, per cluster,
// partition and GPU count (RunStore::queueWaits).
struct QueueWaitMedian {
    QString clusterAlias;
    QString partition;
    int gpus = 0;
    int jobs = 0;   // how many waits the median is of
    double medianSeconds = 0;
    QString text() const;   // "median wait about 20 min (5 jobs)"
};

class QueueWaitStats {
public:
    static QList<QueueWaitMedian> medians(const QList<QueueWait> &waits);
    static std::optional<QueueWaitMedian> find(const QList<QueueWaitMedian> &medians, const QString &clusterAlias,
                                               const QString &partition, int gpus);
};

}   // namespace scalelab
