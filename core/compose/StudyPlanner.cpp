// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/StudyPlanner.h"

#include "core/base/InputLimits.h"

#include "core/compose/JobValidator.h"
#include "core/slurm/SlurmTime.h"
#include "core/model/SpecFix.h"

#include <algorithm>

namespace scalelab {

namespace {

Diagnostic plannerDiag(Severity sev, const char *rule, const char *field, const QString &message)
{
    return Diagnostic{sev, QString::fromLatin1(rule), QString::fromLatin1(field), 0, 0, message, {}};
}

// Writes `value` for the named argument: "--name=V" and "--name V" are
// replaced in place; otherwise "--name V" is appended.
void setArgument(QStringList &args, const QString &name, const QString &value)
{
    const QString prefix = name + QLatin1Char('=');
    for (int i = 0; i < args.size(); ++i) {
        if (args[i].startsWith(prefix)) {
            args[i] = prefix + value;
            return;
        }
        if (args[i] == name) {
            if (i + 1 < args.size())
                args[i + 1] = value;
            else
                args << value;
            return;
        }
    }
    args << name << value;
}

void setVariable(QList<QPair<QString, QString>> &vars, const QString &name, const QString &value)
{
    for (auto &[n, v] : vars) {
        if (n == name) {
            v = value;
            return;
        }
    }
    vars << qMakePair(name, value);
}

QString variantJobName(const JobSpec &base, int gpus, int repeat, int repeats)
{
    const QString stem = base.jobName.isEmpty() ? QStringLiteral("study") : base.jobName;
    if (repeats > 1)
        return QStringLiteral("%1-%2g-r%3").arg(stem).arg(gpus).arg(repeat);
    return QStringLiteral("%1-%2g").arg(stem).arg(gpus);
}

// The validator's partition fix for an error, if it suggests one.
const Fix *partitionFixOf(const Diagnostics &diags)
{
    for (const auto &d : diags)
        if (d.severity == Severity::Error && d.fix.isValid() && d.fix.field == QLatin1String("partition"))
            return &d.fix;
    return nullptr;
}

}   // namespace

QString uniqueStudyName(const QString &wanted, const QStringList &existing)
{
    const QString stem = wanted.trimmed();
    if (!existing.contains(stem))
        return stem;
    for (int n = 2;; ++n) {
        const QString name = QStringLiteral("%1 (%2)").arg(stem).arg(n);
        if (!existing.contains(name))
            return name;
    }
}

QList<StudyVariant> planStudyVariants(const JobSpec &base, const QList<int> &gpuCounts, const BatchScaling &scaling,
                                      const ClusterProfile &profile, int repeats)
{
    repeats = std::clamp(repeats, 1, kMaxStudyRepeats);
    QList<std::pair<int, int>> order;   // (gpus, repeat) in rounds
    for (int k = 1; k <= repeats; ++k)
        for (const int gpus : gpuCounts)
            order.append({gpus, k});
    QList<StudyVariant> out;
    for (const auto &[gpus, repeat] : order) {
        StudyVariant v;
        v.spec = base;
        v.spec.gpus = gpus;
        v.repeat = repeat;
        v.spec.nodes = 0;   // derived per variant: a fixed node count from the base rarely fits
        v.spec.jobName = variantJobName(base, gpus, repeat, repeats);
        Diagnostics own;

        if (scaling.mode != BatchScalingMode::None && !scaling.name.trimmed().isEmpty()) {
            int value = scaling.baseValue;
            if (scaling.mode == BatchScalingMode::KeepGlobal && gpus > 0) {
                value = scaling.baseValue / gpus;
                if (scaling.baseValue % gpus != 0 && value >= 1)
                    own << plannerDiag(Severity::Warning, "study-batch-uneven", "args",
                                       QStringLiteral("The global batch %1 does not divide by %2 GPUs; each process "
                                                      "gets %3, so the global batch is %4.")
                                           .arg(scaling.baseValue)
                                           .arg(gpus)
                                           .arg(value)
                                           .arg(value * gpus));
            }
            if (value < 1) {
                own << plannerDiag(Severity::Error, "study-batch-too-small", "args",
                                   QStringLiteral("The global batch %1 is smaller than %2 GPUs: each process would get "
                                                  "no samples. Use a larger batch or fewer GPUs.")
                                       .arg(scaling.baseValue)
                                       .arg(gpus));
                value = 1;
            }
            const QString name = scaling.name.trimmed();
            if (name.startsWith(QLatin1Char('-')))
                setArgument(v.spec.args, name, QString::number(value));
            else
                setVariable(v.spec.environment.variables, name, QString::number(value));
            v.batchValue = value;
        }

        Diagnostics diags = validateJob(v.spec, profile);
        // Move to the suggested partition; bounded because a fix could in
        // principle suggest partitions in a cycle.
        for (int round = 0; round < 3; ++round) {
            const Fix *fix = partitionFixOf(diags);
            if (!fix || fix->value == v.spec.partition)
                break;
            const QString from = v.spec.partition.isEmpty() && profile.defaultPartition()
                                     ? profile.defaultPartition()->name
                                     : v.spec.partition;
            JobSpec moved = v.spec;
            if (!applyFix(moved, *fix).isEmpty())
                break;
            v.spec = moved;
            v.partitionChanged = true;
            diags = validateJob(v.spec, profile);
            own << plannerDiag(Severity::Info, "study-partition-changed", "partition",
                               QStringLiteral("%1 GPUs do not fit partition %2; this run uses %3.")
                                   .arg(gpus)
                                   .arg(from, InputLimits::quoted(v.spec.partition)));
        }
        v.diagnostics = own + diags;
        out << v;
    }
    return out;
}

QList<JobSpec> planStudy(const JobSpec &base, const QList<int> &gpuCounts, const BatchScaling &scaling,
                         const ClusterProfile &profile, int repeats)
{
    QList<JobSpec> specs;
    for (const auto &v : planStudyVariants(base, gpuCounts, scaling, profile, repeats))
        specs << v.spec;
    return specs;
}

QList<int> studyGpuChoices(const ClusterProfile &profile)
{
    int max = 0;
    for (const auto &p : profile.partitions)
        if (p.gpusPerNode > 0)
            max = std::max(max, p.maxGpus());
    QList<int> out;
    for (int n = 1; n <= max && n <= 4096; n *= 2)
        out << n;
    if (max > 0 && !out.contains(max) && max <= 4096)
        out << max;
    return out;
}

QList<int> defaultStudyGpuCounts(const ClusterProfile &profile, const QString &partition)
{
    const Partition *p = partition.isEmpty() ? profile.defaultPartition() : profile.partition(partition);
    const int max = p ? p->maxGpus() : 0;
    QList<int> out;
    for (int n : {1, 2, 4, 8})
        if (n <= max)
            out << n;
    return out;
}

double estimatedGpuHours(const JobSpec &spec)
{
    const auto secs = SlurmTime::parseSeconds(spec.time);
    if (!secs || *secs <= 0)
        return 0.0;
    return spec.gpus * double(*secs) / 3600.0;
}

}   // namespace scalelab
