// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/PartitionRules.h"

#include "core/base/InputLimits.h"

#include "core/slurm/SlurmMemory.h"
#include "core/slurm/SlurmTime.h"

#include <QMap>
#include <QRegularExpression>
#include <QSet>

namespace scalelab::jobrules {

namespace {

Diagnostic diag(Severity sev, const char *rule, const char *field, const QString &message, Fix fix = {})
{
    return Diagnostic{sev, QString::fromLatin1(rule), QString::fromLatin1(field), 0, 0, message, std::move(fix)};
}

// A site's AllowAccounts can hold hundreds of names: the message shows a few.
QString names(const QStringList &l)
{
    constexpr int shown = 6;
    if (l.size() <= shown)
        return l.join(QStringLiteral(", "));
    return QStringLiteral("%1 and %2 more").arg(l.mid(0, shown).join(QStringLiteral(", "))).arg(l.size() - shown);
}

Fix gpusFix(int gpus)
{
    return Fix{QStringLiteral("gpus"), QString::number(gpus), QStringLiteral("set GPUs to %1").arg(gpus)};
}

// Slurm stores account and QOS names in lower case.
bool listed(const QStringList &l, const QString &name)
{
    return l.contains(name, Qt::CaseInsensitive);
}

// What the researcher's associations say about a job under `account` in
// `partition`. With no account Slurm uses the default account, which
// `sacctmgr show assoc` does not name: it is known only when there is one.
struct AssociationView {
    bool described = false;   // the profile lists associations
    bool found = false;   // one of them admits this account in this partition
    QString account;   // the account the job runs under, "" = not known
    QString qos;   // the QOS it gets, "" = not known
    QStringList accounts;   // every account of the associations
    QString source;
};

AssociationView associationFor(const ClusterProfile &profile, const QString &account, const QString &partition)
{
    AssociationView v;
    v.described = !profile.associations.isEmpty();
    if (!v.described)
        return v;
    v.source = profile.associations.front().source;
    for (const auto &a : profile.associations)
        if (!listed(v.accounts, a.account))
            v.accounts << a.account;
    v.account = !account.isEmpty() ? account : v.accounts.size() == 1 ? v.accounts.front() : QString();
    // Per account, an association for this partition wins over one for all.
    QMap<QString, const UserAssociation *> applying;
    for (const auto &a : profile.associations) {
        if ((!a.partition.isEmpty() && a.partition != partition)
            || (!account.isEmpty() && a.account.compare(account, Qt::CaseInsensitive) != 0))
            continue;
        auto it = applying.find(a.account.toLower());
        if (it == applying.end() || ((*it)->partition.isEmpty() && !a.partition.isEmpty()))
            applying.insert(a.account.toLower(), &a);
    }
    v.found = !applying.isEmpty();
    QSet<QString> qos;
    for (const UserAssociation *a : applying)
        qos.insert(a->effectiveQos());
    if (qos.size() == 1)
        v.qos = *qos.begin();   // every account that may apply gives this one ("" = none certain)
    return v;
}

void checkAccount(const JobSpec &spec, const Partition &p, const AssociationView &assoc, const Alternative &alternative,
                  Diagnostics &out)
{
    const QString asked = spec.account.trimmed();
    const QString account = asked.isEmpty() ? assoc.account : asked;
    if (assoc.described && !asked.isEmpty() && !assoc.found) {
        const bool one = assoc.accounts.size() == 1;
        out << diag(Severity::Warning, "account-no-association", "account",
                    QStringLiteral("None of your associations (%1) lets account %2 use partition %3; your accounts: "
                                   "%4. Slurm refuses the job where it enforces associations.")
                        .arg(assoc.source, asked, p.name, names(assoc.accounts)),
                    one ? Fix{QStringLiteral("account"), assoc.accounts.front(),
                              QStringLiteral("use account %1").arg(assoc.accounts.front())}
                        : Fix{});
    }
    if (p.allowAccounts.isEmpty())
        return;
    const QString source = p.sources.value(QStringLiteral("allowAccounts"));
    if (account.isEmpty()) {
        out << diag(Severity::Info, "account-not-checked", "account",
                    QStringLiteral("Partition %1 accepts only some accounts (AllowAccounts: %2); with no account "
                                   "given Slurm uses your default account, which the profile does not name, so it "
                                   "is not checked.")
                        .arg(p.name, names(p.allowAccounts)));
        return;
    }
    if (listed(p.allowAccounts, account))
        return;
    // One of the researcher's own accounts that the partition accepts is the
    // better fix; else a partition that accepts this account.
    QString mine;
    for (const QString &a : assoc.accounts)
        if (listed(p.allowAccounts, a)) {
            mine = a;
            break;
        }
    const Partition *alt = mine.isEmpty() ? alternative() : nullptr;
    if (alt && !alt->allowAccounts.isEmpty() && !listed(alt->allowAccounts, account))
        alt = nullptr;
    out << diag(Severity::Error, "account-not-allowed", "account",
                QStringLiteral("Partition %1 accepts only accounts %2 (AllowAccounts, %3); %4 is not one of them.%5")
                    .arg(p.name, names(p.allowAccounts), source,
                         asked.isEmpty() ? QStringLiteral("your account %1").arg(InputLimits::quoted(account))
                                         : InputLimits::quoted(account),
                         !mine.isEmpty() ? QStringLiteral(" Use account %1.").arg(mine) : suggestionText(alt)),
                !mine.isEmpty() ? Fix{QStringLiteral("account"), mine, QStringLiteral("use account %1").arg(mine)}
                                : partitionFix(alt));
}

void checkQosAccess(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g,
                    const AssociationView &assoc, const Alternative &alternative, Diagnostics &out)
{
    const Partition &p = *g.partition;
    if (assoc.described && assoc.found && assoc.qos.isEmpty()) {
        out << diag(Severity::Info, "association-qos-unknown", "account",
                    QStringLiteral("Which QOS this job gets is not known (%1: %2), so its QOS limits and partition "
                                   "%3's AllowQos are not checked.")
                        .arg(assoc.source,
                             assoc.account.isEmpty()
                                 ? QStringLiteral("no account given and your accounts may differ")
                                 : QStringLiteral("no default QOS for account %1").arg(assoc.account),
                             p.name));
        return;
    }
    if (assoc.qos.isEmpty())
        return;
    if (!p.allowQos.isEmpty() && !listed(p.allowQos, assoc.qos)) {
        const Partition *alt = alternative();
        if (alt && !alt->allowQos.isEmpty() && !listed(alt->allowQos, assoc.qos))
            alt = nullptr;
        out << diag(Severity::Error, "qos-not-allowed", "partition",
                    QStringLiteral("Partition %1 accepts only QOS %2 (AllowQos, %3); your association gives this job "
                                   "QOS %4, so Slurm refuses it.%5")
                        .arg(p.name, names(p.allowQos), p.sources.value(QStringLiteral("allowQos")), assoc.qos,
                             suggestionText(alt)),
                    partitionFix(alt));
    }
    const QosLimits *q = profile.qosNamed(assoc.qos);
    if (!q || assoc.qos == p.qos)
        return;   // a partition QOS the job also has is checked once, as the partition's
    const QString whose =
        assoc.account.isEmpty()
            ? QStringLiteral("(the default QOS of your association)")
            : QStringLiteral("(the default QOS of your association with account %1)").arg(assoc.account);
    // The association's QOS follows the job to every partition: another
    // partition is no way out, a smaller job is.
    checkQos(
        spec, g, p, *q, whose, p.qos.isEmpty() ? nullptr : profile.qosNamed(p.qos),
        [] { return static_cast<const Partition *>(nullptr); }, out);
}

void checkTimeAndMemory(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g, Diagnostics &out)
{
    const Partition &p = *g.partition;
    if (spec.time.trimmed().isEmpty() && p.defaultTimeSeconds) {
        const QString source = p.sources.value(QStringLiteral("defaultTime"));
        out << diag(Severity::Info, "time-default", "time",
                    *p.defaultTimeSeconds > 0
                        ? QStringLiteral("With no time limit the job gets partition %1's DefaultTime, %2 (%3).")
                              .arg(p.name, SlurmTime::format(*p.defaultTimeSeconds), source)
                        : QStringLiteral("Partition %1 has no DefaultTime (%2), so a job without a time limit gets its "
                                         "MaxTime, %3.")
                              .arg(p.name, source,
                                   p.maxTimeSeconds > 0                   ? SlurmTime::format(p.maxTimeSeconds)
                                   : p.isKnown(QStringLiteral("maxTime")) ? QStringLiteral("unlimited")
                                                                          : QStringLiteral("not known")));
    }
    if (!spec.memory.trimmed().isEmpty()) {
        const auto mb = slurmMemoryMB(spec.memory);
        // Above the node's memory is already reported as memory-exceeded.
        if (mb && *mb > 0 && p.maxMemPerNodeMB > 0 && *mb > p.maxMemPerNodeMB
            && !(p.memoryPerNodeMB > 0 && *mb > p.memoryPerNodeMB)) {
            const QString max = QStringLiteral("%1M").arg(p.maxMemPerNodeMB);
            out << diag(Severity::Error, "partition-memory-limit", "memory",
                        QStringLiteral("%1 per node requested but partition %2 allows at most %3 MB per node "
                                       "(MaxMemPerNode, %4).")
                            .arg(InputLimits::quoted(spec.memory), p.name)
                            .arg(p.maxMemPerNodeMB)
                            .arg(p.sources.value(QStringLiteral("maxMemPerNodeMB"))),
                        Fix{QStringLiteral("memory"), max, QStringLiteral("set memory to %1").arg(max)});
        }
        return;
    }
    if (p.exclusive || profile.memoryRequired)
        return;   // whole nodes, or the missing --mem is an error already
    // What a job that asks no memory gets: DefMemPerGPU for a GPU job when
    // set, else DefMemPerCPU for each CPU.
    const int cpus = g.cpusPerTask * g.tasksPerNode;
    const bool perGpu = p.defMemPerGpuMB > 0 && g.gpusPerNode > 0;
    const qint64 each = perGpu ? p.defMemPerGpuMB : p.defMemPerCpuMB;
    const int count = perGpu ? g.gpusPerNode : cpus;
    if (each <= 0 || count <= 0)
        return;
    out << diag(
        Severity::Info, "memory-default", "memory",
        QStringLiteral("No memory request: partition %1 gives %2 MB per node (%3=%4 MB x %5 %6, %7).")
            .arg(p.name)
            .arg(each * count)
            .arg(perGpu ? QStringLiteral("DefMemPerGPU") : QStringLiteral("DefMemPerCPU"))
            .arg(each)
            .arg(count)
            .arg(perGpu ? QStringLiteral("GPUs") : QStringLiteral("CPUs"),
                 p.sources.value(perGpu ? QStringLiteral("defMemPerGpuMB") : QStringLiteral("defMemPerCpuMB"))));
}

}   // namespace

Fix partitionFix(const Partition *p)
{
    if (!p)
        return {};
    return Fix{QStringLiteral("partition"), p->name, QStringLiteral("use %1").arg(p->name)};
}

QString suggestionText(const Partition *p)
{
    return p ? QStringLiteral(" Use partition %1.").arg(p->name) : QString();
}

void checkQos(const JobSpec &spec, const LaunchGeometry &g, const Partition &p, const QosLimits &q,
              const QString &whose, const QosLimits *over, const Alternative &alternative, Diagnostics &out)
{
    if (q.maxGpusPerJob > 0 && spec.gpus > q.maxGpusPerJob && !(over && over->maxGpusPerJob > 0)
        && !(p.maxGpusPerJob > 0 && p.maxGpusPerJob <= q.maxGpusPerJob))
        out << diag(Severity::Error, "qos-gpu-limit", "gpus",
                    QStringLiteral("QOS %1 %2 allows at most %3 GPUs per job (MaxTRESPerJob gres/gpu=%3); "
                                   "%4 requested.%5")
                        .arg(q.name, whose)
                        .arg(q.maxGpusPerJob)
                        .arg(spec.gpus)
                        .arg(suggestionText(alternative())),
                    alternative() ? partitionFix(alternative()) : gpusFix(q.maxGpusPerJob));
    if (q.maxNodesPerJob > 0 && g.nodes > q.maxNodesPerJob && !(over && over->maxNodesPerJob > 0)
        && !(p.isKnown(QStringLiteral("maxNodes")) && p.maxNodes <= q.maxNodesPerJob))
        out << diag(Severity::Error, "qos-node-limit", "nodes",
                    QStringLiteral("QOS %1 %2 allows at most %3 nodes per job; %4 needed.%5")
                        .arg(q.name, whose)
                        .arg(q.maxNodesPerJob)
                        .arg(g.nodes)
                        .arg(suggestionText(alternative())),
                    partitionFix(alternative()));
    // A job above the QOS's GPUs for all of the user's running jobs can never start.
    if (q.maxGpusPerUser > 0 && spec.gpus > q.maxGpusPerUser && !(over && over->maxGpusPerUser > 0))
        out << diag(Severity::Error, "qos-user-gpu-limit", "gpus",
                    QStringLiteral("QOS %1 %2 lets all your running jobs together use at most %3 GPUs "
                                   "(MaxTRESPerUser gres/gpu=%3); %4 requested, so the job would never start.%5")
                        .arg(q.name, whose)
                        .arg(q.maxGpusPerUser)
                        .arg(spec.gpus)
                        .arg(suggestionText(alternative())),
                    alternative() ? partitionFix(alternative()) : gpusFix(q.maxGpusPerUser));
    const auto secs = SlurmTime::parseSeconds(spec.time);
    if (q.maxWallSeconds > 0 && secs && *secs > q.maxWallSeconds && !(over && over->maxWallSeconds > 0)
        && !(p.maxTimeSeconds > 0 && p.maxTimeSeconds <= q.maxWallSeconds)) {
        const QString max = SlurmTime::format(q.maxWallSeconds);
        out << diag(Severity::Error, "qos-time-limit", "time",
                    QStringLiteral("%1 exceeds the MaxWall of %2 set by QOS %3 %4. Shorten it to %2.")
                        .arg(InputLimits::quoted(spec.time), max, q.name, whose),
                    Fix{QStringLiteral("time"), max, QStringLiteral("set time to %1").arg(max)});
    }
    if (q.maxJobsPerUser > 0 && !(over && over->maxJobsPerUser > 0))
        out << diag(Severity::Info, "qos-jobs-per-user", "gpus",
                    QStringLiteral("QOS %1 %2 runs at most %3 of your jobs at a time (MaxJobsPerUser); the runs of a "
                                   "study beyond that wait in the queue.")
                        .arg(q.name, whose)
                        .arg(q.maxJobsPerUser));
}

void checkPartitionSettings(const JobSpec &spec, const ClusterProfile &profile, const LaunchGeometry &g,
                            const Alternative &alternative, Diagnostics &out)
{
    const Partition &p = *g.partition;
    // As it was when the profile was read: a partition that is not UP holds
    // (DOWN) or refuses (DRAIN, INACTIVE) new jobs.
    if (!p.state.isEmpty() && p.state.compare(QLatin1String("UP"), Qt::CaseInsensitive) != 0) {
        const bool refuses = p.state.startsWith(QLatin1String("DRAIN"), Qt::CaseInsensitive)
                             || p.state.compare(QLatin1String("INACTIVE"), Qt::CaseInsensitive) == 0;
        const Partition *alt = alternative();
        if (alt && !alt->state.isEmpty() && alt->state.compare(QLatin1String("UP"), Qt::CaseInsensitive) != 0)
            alt = nullptr;
        out << diag(Severity::Warning, "partition-not-up", "partition",
                    QStringLiteral("Partition %1 was %2 when it was read (%3): %4%5")
                        .arg(p.name, p.state, p.sources.value(QStringLiteral("state")),
                             refuses ? QStringLiteral("Slurm refuses new jobs there.")
                                     : QStringLiteral("jobs wait in the queue until it is UP again."),
                             suggestionText(alt)),
                    partitionFix(alt));
    }
    const QString asked = spec.account.trimmed();
    const bool placeholder = asked.contains(QLatin1Char('<')) || asked.contains(QLatin1Char('>'));
    if (!placeholder) {   // a placeholder is reported as one; nothing can be said of its account
        const AssociationView assoc = associationFor(profile, asked, p.name);
        checkAccount(spec, p, assoc, alternative, out);
        checkQosAccess(spec, profile, g, assoc, alternative, out);
    }
    checkTimeAndMemory(spec, profile, g, out);
}

}   // namespace scalelab::jobrules
