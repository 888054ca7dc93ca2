// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/SbatchScriptParser.h"

// The option table sbatch reads #SBATCH lines with: names, argument kinds,
// aliases, and the options older scripts carry that sbatch no longer takes.

namespace scalelab {

namespace {

using A = SbatchArg;

// sbatch 22.05's options; the argument kind decides whether "--opt value"
// consumes the next word.
const SbatchOptionInfo kOptions[] = {
    {"account", 'A', A::Required},
    {"acctg-freq", 0, A::Required},
    {"array", 'a', A::Required},
    {"batch", 0, A::Required},
    {"bb", 0, A::Required},
    {"bbf", 0, A::Required},
    {"begin", 'b', A::Required},
    {"chdir", 'D', A::Required},
    {"cluster-constraint", 0, A::Required},
    {"clusters", 'M', A::Required},
    {"comment", 0, A::Required},
    {"constraint", 'C', A::Required},
    {"container", 0, A::Required},
    {"contiguous", 0, A::None},
    {"core-spec", 'S', A::Required},
    {"cores-per-socket", 0, A::Required},
    {"cpu-freq", 0, A::Required},
    {"cpus-per-gpu", 0, A::Required},
    {"cpus-per-task", 'c', A::Required},
    {"deadline", 0, A::Required},
    {"delay-boot", 0, A::Required},
    {"dependency", 'd', A::Required},
    {"distribution", 'm', A::Required},
    {"error", 'e', A::Required},
    {"exclude", 'x', A::Required},
    {"exclusive", 0, A::Optional},
    {"export", 0, A::Required},
    {"export-file", 0, A::Required},
    {"extra-node-info", 'B', A::Required},
    {"get-user-env", 0, A::Optional},
    {"gid", 0, A::Required},
    {"gpu-bind", 0, A::Required},
    {"gpu-freq", 0, A::Required},
    {"gpus", 'G', A::Required},
    {"gpus-per-node", 0, A::Required},
    {"gpus-per-socket", 0, A::Required},
    {"gpus-per-task", 0, A::Required},
    {"gres", 0, A::Required},
    {"gres-flags", 0, A::Required},
    {"help", 'h', A::None},
    {"hint", 0, A::Required},
    {"hold", 'H', A::None},
    {"ignore-pbs", 0, A::None},
    {"input", 'i', A::Required},
    {"job-name", 'J', A::Required},
    {"kill-on-invalid-dep", 0, A::Required},
    {"licenses", 'L', A::Required},
    {"mail-type", 0, A::Required},
    {"mail-user", 0, A::Required},
    {"mcs-label", 0, A::Required},
    {"mem", 0, A::Required},
    {"mem-bind", 0, A::Required},
    {"mem-per-cpu", 0, A::Required},
    {"mem-per-gpu", 0, A::Required},
    {"mincpus", 0, A::Required},
    {"network", 0, A::Required},
    {"nice", 0, A::Optional},
    {"no-kill", 'k', A::Optional},
    {"no-requeue", 0, A::None},
    {"nodefile", 'F', A::Required},
    {"nodelist", 'w', A::Required},
    {"nodes", 'N', A::Required},
    {"ntasks", 'n', A::Required},
    {"ntasks-per-core", 0, A::Required},
    {"ntasks-per-gpu", 0, A::Required},
    {"ntasks-per-node", 0, A::Required},
    {"ntasks-per-socket", 0, A::Required},
    {"open-mode", 0, A::Required},
    {"output", 'o', A::Required},
    {"overcommit", 'O', A::None},
    {"oversubscribe", 's', A::None},
    {"parsable", 0, A::None},
    {"partition", 'p', A::Required},
    {"power", 0, A::Required},
    {"prefer", 0, A::Required},
    {"priority", 0, A::Required},
    {"profile", 0, A::Required},
    {"propagate", 0, A::Optional},
    {"qos", 'q', A::Required},
    {"quiet", 'Q', A::None},
    {"reboot", 0, A::None},
    {"requeue", 0, A::None},
    {"reservation", 0, A::Required},
    {"signal", 0, A::Required},
    {"sockets-per-node", 0, A::Required},
    {"spread-job", 0, A::None},
    {"switches", 0, A::Required},
    {"test-only", 0, A::None},
    {"thread-spec", 0, A::Required},
    {"threads-per-core", 0, A::Required},
    {"time", 't', A::Required},
    {"time-min", 0, A::Required},
    {"tmp", 0, A::Required},
    {"tres-per-task", 0, A::Required},
    {"uid", 0, A::Required},
    {"usage", 0, A::None},
    {"use-min-nodes", 0, A::None},
    {"verbose", 'v', A::None},
    {"version", 'V', A::None},
    {"wait", 'W', A::None},
    {"wait-all-nodes", 0, A::Required},
    {"wckey", 0, A::Required},
    {"wrap", 0, A::Required},
    // Added after 22.05 (23.02 up to the current man page): accepted, the
    // site's Slurm decides whether it knows them.
    {"container-id", 0, A::Required},
    {"extra", 0, A::Required},
    {"oom-kill-step", 0, A::Optional},
    {"tres-bind", 0, A::Required},
    {"segment", 0, A::Required},
    {"resv-ports", 0, A::Optional},
    {"stepmgr", 0, A::None},
    {"container-type", 0, A::Required},
    {"consolidate-segments", 0, A::None},
    {"mem-update", 0, A::Required},
    {"resources", 0, A::Required},
    {"spread-segments", 0, A::None},
};

// Spellings sbatch accepts for another option (getopt table entries with the
// same meaning; checked with sbatch 22.05.8).
struct SbatchAlias {
    const char *alias;
    const char *canonical;
};
const SbatchAlias kAliases[] = {
    {"tasks-per-node", "ntasks-per-node"},
};

}   // namespace

// Options sbatch refused by 22.05 that scripts still carry: renamed or
// removed ones, and srun's own options (checked with sbatch 22.05.8).
std::optional<QString> removedSbatchOption(const QString &name)
{
    struct Gone {
        const char *name;
        const char *why;
    };
    static const Gone gone[] = {
        {"workdir", "--workdir was renamed --chdir (Slurm 17.11) and sbatch 22.05 and later refuse it. Write --chdir."},
        {"share", "--share was renamed --oversubscribe; sbatch 22.05 and later refuse it. Write --oversubscribe."},
        {"checkpoint", "--checkpoint went with Slurm's checkpoint support (removed in 19.05); sbatch 22.05 refuses "
                       "it. Remove the line."},
        {"checkpoint-dir", "--checkpoint-dir went with Slurm's checkpoint support (removed in 19.05); sbatch 22.05 "
                           "refuses it. Remove the line."},
        {"cpu-bind", "--cpu-bind is an srun option; sbatch refuses it. Put it on the srun line."},
        {"cpu_bind", "--cpu_bind is an old srun spelling; sbatch refuses it. Write --cpu-bind on the srun line."},
        {"mem_bind", "--mem_bind is an old spelling; sbatch refuses it. Write --mem-bind."},
        {"exact", "--exact is an srun option; sbatch refuses it. Put it on the srun line."},
        {"overlap", "--overlap is an srun option; sbatch refuses it. Put it on the srun line."},
        {"mpi", "--mpi is an srun option; sbatch refuses it. Put it on the srun line."},
        {"gpus-per-gpu", "--gpus-per-gpu is not an option; use --gpus-per-node or --gpus-per-task."},
    };
    for (const auto &g : gone)
        if (name == QLatin1String(g.name))
            return QString::fromLatin1(g.why);
    return std::nullopt;
}

const SbatchOptionInfo *findSbatchLongOption(QStringView name, bool *ambiguous)
{
    if (ambiguous)
        *ambiguous = false;
    if (name.isEmpty())
        return nullptr;
    auto canonical = [](const char *longName) -> const SbatchOptionInfo * {
        for (const auto &o : kOptions)
            if (QLatin1String(o.longName) == QLatin1String(longName))
                return &o;
        return nullptr;
    };
    for (const auto &a : kAliases)
        if (name == QLatin1String(a.alias))
            return canonical(a.canonical);
    // getopt_long: a unique prefix; an alias and its option count as one.
    const SbatchOptionInfo *prefix = nullptr;
    int prefixCount = 0;
    auto consider = [&](const SbatchOptionInfo *o, QLatin1String spelled) {
        if (!o || !spelled.startsWith(name) || o == prefix)
            return;
        prefix = o;
        ++prefixCount;
    };
    for (const auto &o : kOptions) {
        const QLatin1String ln(o.longName);
        if (name == ln)
            return &o;
        consider(&o, ln);
    }
    for (const auto &a : kAliases)
        consider(canonical(a.canonical), QLatin1String(a.alias));
    if (prefixCount == 1)
        return prefix;
    if (ambiguous)
        *ambiguous = prefixCount > 1;
    return nullptr;
}

const SbatchOptionInfo *findSbatchShortOption(QChar c)
{
    for (const auto &o : kOptions)
        if (o.shortName != 0 && QLatin1Char(o.shortName) == c)
            return &o;
    return nullptr;
}

}   // namespace scalelab
