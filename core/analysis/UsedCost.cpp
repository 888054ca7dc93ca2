// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/UsedCost.h"

#include "core/model/MetricNames.h"

#include <QStringList>

namespace scalelab {

UsedCost UsedCost::of(const QList<MetricRecord> &metrics)
{
    UsedCost u;
    for (const MetricRecord &m : metrics) {
        if (m.name == metric::GpuHours)
            u.gpuHours = m.value;
        else if (m.name == metric::BillingHours)
            u.billingUnits = m.value;
    }
    return u;
}

QString UsedCost::text() const
{
    QStringList parts;
    if (gpuHours)
        parts << QStringLiteral("%1 GPU-hours").arg(QString::number(*gpuHours, 'f', 2));
    if (billingUnits)
        parts << QStringLiteral("%1 billing units").arg(QString::number(*billingUnits, 'f', 2));
    return parts.isEmpty() ? QString()
                           : QStringLiteral("Used %1 (Slurm accounting: allocated × elapsed).")
                                 .arg(parts.join(QStringLiteral(", ")));
}

}   // namespace scalelab
