// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/QueueWaitStats.h"

#include "core/slurm/WaitText.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace scalelab {

QList<QueueWaitMedian> QueueWaitStats::medians(const QList<QueueWait> &waits)
{
    QMap<std::tuple<QString, QString, int>, QList<double>> groups;
    for (const QueueWait &w : waits)
        if (std::isfinite(w.seconds) && w.seconds >= 0)
            groups[{w.clusterAlias, w.partition, w.gpus}] << w.seconds;
    QList<QueueWaitMedian> out;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        QList<double> v = it.value();
        std::sort(v.begin(), v.end());
        const qsizetype n = v.size();
        const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
        out << QueueWaitMedian{std::get<0>(it.key()), std::get<1>(it.key()), std::get<2>(it.key()), int(n), median};
    }
    return out;
}

std::optional<QueueWaitMedian> QueueWaitStats::find(const QList<QueueWaitMedian> &medians, const QString &clusterAlias,
                                                    const QString &partition, int gpus)
{
    for (const QueueWaitMedian &m : medians)
        if (m.clusterAlias == clusterAlias && m.partition == partition && m.gpus == gpus)
            return m;
    return std::nullopt;
}

QString QueueWaitMedian::text() const
{
    return QStringLiteral("median past wait %1 (%2 job%3)")
        .arg(WaitText::duration(std::llround(medianSeconds)))
        .arg(jobs)
        .arg(jobs == 1 ? QString() : QStringLiteral("s"));
}

}   // namespace scalelab
