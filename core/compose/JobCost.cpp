// SPDX-License-Identifier: GPL-3.0-or-later
// A job's and a study's cost before submit.
#include "core/compose/JobCost.h"

#include "core/model/LaunchGeometry.h"
#include "core/slurm/BillingWeights.h"
#include "core/slurm/SlurmMemory.h"
#include "core/slurm/SlurmTime.h"

#include <cmath>

namespace scalelab {

namespace {

QString number(double v)
{
    if (v >= 100 || v == std::floor(v))
        return QString::number(std::llround(v));
    return QString::number(v, 'f', v < 10 ? 2 : 1);
}

QString gpuHoursText(double v)
{
    return number(v) + (number(v) == QLatin1String("1") ? QStringLiteral(" GPU-hour") : QStringLiteral(" GPU-hours"));
}

// The hours the job may run: its --time, else the partition's DefaultTime, else its MaxTime.
void readHours(const JobSpec &spec, const Partition *p, JobCost &c)
{
    if (const auto s = SlurmTime::parseSeconds(spec.time.trimmed()); s && *s > 0) {
        c.hours = double(*s) / 3600.0;
        c.timeFrom = QStringLiteral("the time limit");
    } else if (!spec.time.trimmed().isEmpty()) {
        c.unknownWhy = QStringLiteral("the time limit \"%1\" is not a Slurm time").arg(spec.time.trimmed().left(40));
    } else if (p && p->defaultTimeSeconds.value_or(0) > 0) {
        c.hours = double(*p->defaultTimeSeconds) / 3600.0;
        c.timeFrom = QStringLiteral("the partition's default time");
    } else if (p && p->maxTimeSeconds > 0) {
        c.hours = double(p->maxTimeSeconds) / 3600.0;
        c.timeFrom = QStringLiteral("the partition's maximum time");
    } else {
        c.unknownWhy = QStringLiteral("no time limit is set and the partition's default is not known");
    }
}

// CPUs, memory, nodes and GPUs as Slurm would allocate them.
TresRequest requestOf(const JobSpec &spec, const LaunchGeometry &g)
{
    TresRequest r;
    const Partition *p = g.partition;
    r.nodes = g.nodes;
    r.gpus = spec.gpus;
    r.gpuType = p ? p->gpuType : QString();
    r.cpus = double(g.cpusPerTask) * g.tasksPerNode * g.nodes;
    if (const auto perNode = slurmMemoryMB(spec.memory.trimmed()); perNode && *perNode > 0)
        r.memMB = double(*perNode) * g.nodes;
    else if (p && p->defMemPerGpuMB > 0)
        r.memMB = double(p->defMemPerGpuMB) * spec.gpus;
    else if (p && p->defMemPerCpuMB > 0)
        r.memMB = double(p->defMemPerCpuMB) * r.cpus;
    if (p && p->exclusive) {   // whole nodes
        r.cpus = std::max(r.cpus, double(p->cpusPerNode) * g.nodes);
        if (p->memoryPerNodeMB > 0)
            r.memMB = double(p->memoryPerNodeMB) * g.nodes;
    }
    return r;
}

}   // namespace

JobCost JobCostEstimator::estimate(const JobSpec &spec, const ClusterProfile &profile)
{
    JobCost c;
    c.gpus = spec.gpus;
    const LaunchGeometry g = computeGeometry(spec, profile);
    readHours(spec, g.partition, c);
    if (c.hours)
        c.gpuHours = spec.gpus * *c.hours;
    if (!g.partition) {
        c.unknownWhy = QStringLiteral("the partition is not in the profile");
        return c;
    }
    const BillingWeights w = BillingWeights::parse(g.partition->tresBillingWeights);
    if (w.isEmpty()) {
        if (c.unknownWhy.isEmpty())
            c.unknownWhy = QStringLiteral("the profile states no TRESBillingWeights for %1 (scalelab discover reads "
                                          "them)")
                               .arg(g.partition->name);
        return c;
    }
    c.billingPerHour = w.billingOf(requestOf(spec, g));
    if (!c.billingPerHour && c.unknownWhy.isEmpty())
        c.unknownWhy = QStringLiteral("memory is weighted in %1's billing but the job's memory is not known")
                           .arg(g.partition->name);
    if (c.billingPerHour && c.hours)
        c.billingUnits = *c.billingPerHour * *c.hours;
    return c;
}

StudyCost JobCostEstimator::total(const QList<JobCost> &runs)
{
    StudyCost s;
    s.runs = int(runs.size());
    double gpuHours = 0, billing = 0;
    for (const JobCost &c : runs) {
        if (c.gpuHours)
            gpuHours += *c.gpuHours;
        else
            ++s.runsWithoutHours;
        if (c.billingUnits)
            billing += *c.billingUnits;
        else
            ++s.runsWithoutBilling;
        if (s.unknownWhy.isEmpty())
            s.unknownWhy = c.unknownWhy;
    }
    if (s.runsWithoutHours == 0 && s.runs > 0)
        s.gpuHours = gpuHours;
    if (s.runsWithoutBilling == 0 && s.runs > 0)
        s.billingUnits = billing;
    return s;
}

QString JobCost::summary() const
{
    QString out = gpuHours ? gpuHoursText(*gpuHours) : QStringLiteral("GPU-hours unknown");
    const QString time = hours ? SlurmTime::format(std::llround(*hours * 3600.0)) : QString();
    if (billingUnits)
        return out
               + QStringLiteral(", %1 billing units (%2 per hour × %3, %4)")
                     .arg(number(*billingUnits), number(*billingPerHour), time, timeFrom);
    if (gpuHours)
        out += QStringLiteral(" (%1 GPU%2 × %3, %4)")
                   .arg(gpus)
                   .arg(gpus == 1 ? QString() : QStringLiteral("s"), time, timeFrom);
    return out + QStringLiteral("; billing unknown: %1").arg(unknownWhy);
}

QString StudyCost::summary() const
{
    QString out = gpuHours ? gpuHoursText(*gpuHours)
                           : QStringLiteral("GPU-hours unknown for %1 of %2 runs").arg(runsWithoutHours).arg(runs);
    out += billingUnits ? QStringLiteral(", %1 billing units").arg(number(*billingUnits))
                        : QStringLiteral("; billing unknown for %1 of %2 runs (%3)")
                              .arg(runsWithoutBilling)
                              .arg(runs)
                              .arg(unknownWhy);
    return out + QStringLiteral(" for %1 run(s) at their full time limits").arg(runs);
}

}   // namespace scalelab
