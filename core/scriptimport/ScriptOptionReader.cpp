// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/ScriptOptionReader.h"
#include "core/slurm/SlurmMemory.h"
#include "core/model/SpecFields.h"

#include "core/base/InputLimits.h"
#include "core/slurm/SlurmTime.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace scalelab {

namespace {

// "[type:]count" as in --gpus=a100:2; count defaults to 1 only for gres.
struct GpuCount {
    QString type;
    int count = 0;
    bool ok = false;
};

GpuCount parseTypedCount(const QString &text)
{
    GpuCount g;
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() > 2)
        return g;
    const auto n = positiveInt(parts.back());
    if (!n)
        return g;
    g.count = *n;
    g.type = parts.size() == 2 ? parts.front() : QString();
    g.ok = true;
    return g;
}

// --gres=gpu:v100:4,nvme:100 -> the GPU part. count 0 with ok = no GPU in it.
GpuCount parseGres(const QString &text)
{
    GpuCount g;
    g.ok = true;
    for (QString item : text.split(QLatin1Char(','))) {
        item = item.trimmed();
        if (item.startsWith(QLatin1String("gres/")))
            item = item.mid(5);
        item = item.section(QLatin1Char('('), 0, 0);   // gpu:2(S:0-1)
        const QStringList parts = item.split(QLatin1Char(':'));
        if (parts.front() != QLatin1String("gpu"))
            continue;
        if (parts.size() == 1) {
            g.count = 1;
        } else if (auto n = positiveInt(parts.back())) {
            g.count = *n;
            if (parts.size() == 3)
                g.type = parts[1];
        } else if (parts.size() == 2) {
            g.type = parts[1];   // gpu:v100 means one v100
            g.count = 1;
        } else {
            g.ok = false;
        }
    }
    return g;
}

QString memoryText(qint64 mb)
{
    return mb % 1024 == 0 ? QStringLiteral("%1G").arg(mb / 1024) : QStringLiteral("%1M").arg(mb);
}

// Options the JobSpec has no place for: ScaleLab writes its own or leaves
// them to the site.
const QSet<QString> &notImportedOptions()
{
    static const QSet<QString> s = {
        QStringLiteral("output"),       QStringLiteral("error"),      QStringLiteral("qos"),
        QStringLiteral("reservation"),  QStringLiteral("nodelist"),   QStringLiteral("exclude"),
        QStringLiteral("constraint"),   QStringLiteral("exclusive"),  QStringLiteral("array"),
        QStringLiteral("dependency"),   QStringLiteral("chdir"),      QStringLiteral("export"),
        QStringLiteral("hint"),         QStringLiteral("gpu-bind"),   QStringLiteral("mail-type"),
        QStringLiteral("mail-user"),    QStringLiteral("licenses"),   QStringLiteral("tmp"),
        QStringLiteral("distribution"), QStringLiteral("signal"),     QStringLiteral("open-mode"),
        QStringLiteral("requeue"),      QStringLiteral("no-requeue"), QStringLiteral("comment"),
        QStringLiteral("begin"),        QStringLiteral("wckey"),      QStringLiteral("switches"),
    };
    return s;
}

class OptionReader {
public:
    explicit OptionReader(ScriptImport &imp)
        : m_imp(imp)
    {}

    std::optional<int> intOption(const char *name)
    {
        const SbatchOption *o = opt(name);
        if (!o || !o->hasValue)
            return std::nullopt;
        auto v = positiveInt(o->value);
        if (!v)
            add(finding(Severity::Error, QStringLiteral("invalid-value"), specFieldOfOption(o->name), o->line,
                        QStringLiteral("%1=%2 is not a whole number from 1 to %3.")
                            .arg(o->written, InputLimits::quoted(o->value))
                            .arg(kMaxScriptCount)));
        return v;
    }

    void readOptions()
    {
        auto &spec = m_imp.spec;
        auto &r = m_imp.request;
        reportRepeats();
        for (const auto &o : m_imp.options) {
            if (notImportedOptions().contains(o.name) && !carriedSlurmOptions().contains(o.name))
                add(finding(Severity::Info, QStringLiteral("option-not-imported"), QString(), o.line,
                            QStringLiteral("%1 is not part of a ScaleLab job; %2")
                                .arg(o.written, o.name == QLatin1String("output") || o.name == QLatin1String("error")
                                                    ? QStringLiteral("ScaleLab writes its own output file.")
                                                    : QStringLiteral("add it again by hand if the job needs it."))));
        }
        if (auto *o = opt("account"))
            spec.account = o->value;
        if (auto *o = opt("partition"))
            spec.partition = o->value;
        if (auto *o = opt("job-name"))
            spec.jobName = o->value;
        if (auto *o = opt("time")) {
            spec.time = o->value;
            if (!SlurmTime::parseSeconds(o->value))
                add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("time"), o->line,
                            QStringLiteral("%1=%2 is not a Slurm time; use HH:MM:SS or D-HH:MM:SS.")
                                .arg(o->written, InputLimits::quoted(o->value))));
        }
        if (auto *o = opt("nodes"); o && o->hasValue) {
            if (auto n = positiveInt(o->value.section(QLatin1Char('-'), 0, 0)))
                r.nodes = *n;
            else
                add(finding(
                    Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("nodes"), o->line,
                    QStringLiteral("%1=%2 is not a node count.").arg(o->written, InputLimits::quoted(o->value))));
        }
        const auto ntasks = intOption("ntasks");
        const auto tpn = intOption("ntasks-per-node");
        impliedNodes(ntasks, tpn);
        const int nodes = r.effectiveNodes();
        if (ntasks && tpn && r.nodes > 0 && !r.nodesImplied && *ntasks != satMul(*tpn, r.nodes))
            add(finding(Severity::Warning, QStringLiteral("conflicting-options"), QString(),
                        opt("ntasks-per-node")->line,
                        QStringLiteral("--ntasks=%1 and --ntasks-per-node=%2 on %3 node(s) disagree; Slurm takes "
                                       "--ntasks and treats --ntasks-per-node as a maximum. Keep one of them.")
                            .arg(*ntasks)
                            .arg(*tpn)
                            .arg(r.nodes)));
        r.tasksGiven = ntasks || tpn;
        r.tasks = ntasks ? *ntasks : (tpn ? satMul(*tpn, nodes) : nodes);
        r.tasksPerNode = tpn ? *tpn : std::max(1, (r.tasks + nodes - 1) / nodes);
        if (auto c = intOption("cpus-per-task"))
            r.cpusPerTask = *c;
        const auto cpusPerGpu = intOption("cpus-per-gpu");
        r.cpusPerGpu = cpusPerGpu.value_or(0);
        if (cpusPerGpu && r.cpusPerTask > 0)
            add(finding(Severity::Warning, QStringLiteral("conflicting-options"), QLatin1String(SpecField::cpusPerGpu),
                        opt("cpus-per-gpu")->line,
                        QStringLiteral("--cpus-per-gpu and --cpus-per-task both set the CPUs of a task; Slurm rejects "
                                       "or overrides one. Keep one of them.")));
        readGpus();
        // CPUs per GPU: asked for directly, or the task CPUs shared by the node's GPUs.
        if (cpusPerGpu)
            spec.cpusPerGpu = *cpusPerGpu;
        else if (r.cpusPerTask > 0 && r.gpusPerNode > 0)
            spec.cpusPerGpu = std::min(10000, std::max(1, satMul(r.cpusPerTask, r.tasksPerNode) / r.gpusPerNode));
        readMemory();
        spec.gpus = r.gpus;
        spec.nodes = r.nodes;
        if (r.nodes == 0 && r.tasksGiven && r.tasks > 1 && !tpn)
            add(finding(Severity::Warning, QStringLiteral("nodes-unspecified"), QStringLiteral("nodes"),
                        opt("ntasks")->line,
                        QStringLiteral("--ntasks=%1 without --nodes: Slurm may spread the tasks over several nodes%2, "
                                       "while a launcher started once runs on the first node only. Add --nodes=1.")
                            .arg(r.tasks)
                            .arg(opt("gres") ? QStringLiteral(" (and --gres reserves its GPUs on each)") : QString()),
                        Fix{QStringLiteral("nodes"), QStringLiteral("1"), QStringLiteral("set nodes to 1")}));
    }

    void readGpus()
    {
        auto &r = m_imp.request;
        const int nodes = r.effectiveNodes();
        QList<const SbatchOption *> sources;
        if (auto *o = opt("gres"); o && o->hasValue) {
            const GpuCount g = parseGres(o->value);
            if (!g.ok)
                add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("gpus"), o->line,
                            QStringLiteral("--gres=%1 is not a GPU request; use gpu:COUNT or gpu:TYPE:COUNT.")
                                .arg(InputLimits::quoted(o->value))));
            else if (g.count > 0) {
                sources << o;
                r.gpusPerNode = g.count;
                r.gpus = satMul(g.count, nodes);
                r.gpuType = g.type;
            }
        }
        auto typed = [&](const char *name, auto apply) {
            const SbatchOption *o = opt(name);
            if (!o || !o->hasValue)
                return;
            const GpuCount g = parseTypedCount(o->value);
            if (!g.ok) {
                add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("gpus"), o->line,
                            QStringLiteral("%1=%2 is not a GPU count; use COUNT or TYPE:COUNT.")
                                .arg(o->written, InputLimits::quoted(o->value))));
                return;
            }
            sources << o;
            if (sources.size() == 1) {
                apply(g.count);
                r.gpuType = g.type;
            }
        };
        typed("gpus-per-node", [&](int n) {
            r.gpusPerNode = n;
            r.gpus = satMul(n, nodes);
        });
        typed("gpus", [&](int n) {
            r.gpus = n;
            r.gpusPerNode = (n + nodes - 1) / nodes;
        });
        typed("gpus-per-task", [&](int n) {
            r.gpus = satMul(n, r.tasks);
            r.gpusPerNode = satMul(n, r.tasksPerNode);
        });
        if (!sources.isEmpty())
            r.gpuOptionLine = sources.front()->line;
        if (sources.size() > 1)
            add(finding(Severity::Warning, QStringLiteral("conflicting-options"), QStringLiteral("gpus"),
                        sources[1]->line,
                        QStringLiteral("%1 (line %2) and %3 (line %4) both request GPUs; Slurm combines them in ways "
                                       "that are easy to get wrong. Keep only %1.")
                            .arg(sources[0]->written)
                            .arg(sources[0]->line)
                            .arg(sources[1]->written)
                            .arg(sources[1]->line)));
    }

    void readMemory()
    {
        auto &r = m_imp.request;
        QList<const SbatchOption *> given;
        for (const char *name : {"mem", "mem-per-cpu", "mem-per-gpu"})
            if (auto *o = opt(name); o && o->hasValue)
                given << o;
        if (given.isEmpty())
            return;
        if (given.size() > 1)
            add(finding(Severity::Error, QStringLiteral("conflicting-options"), QStringLiteral("memory"),
                        given[1]->line,
                        QStringLiteral("%1 and %2 are mutually exclusive; sbatch refuses the script. Keep one.")
                            .arg(given[0]->written, given[1]->written)));
        const SbatchOption *o = given.front();
        const auto mb = slurmMemoryMB(o->value);
        if (!mb) {
            add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("memory"), o->line,
                        QStringLiteral("%1=%2 is not a memory size; use e.g. 64G or 16000M.")
                            .arg(o->written, InputLimits::quoted(o->value))));
            return;
        }
        if (o->name == QLatin1String("mem")) {
            m_imp.spec.memory = o->value;
            return;
        }
        const int per = o->name == QLatin1String("mem-per-gpu") ? r.gpusPerNode : r.cpusPerNode();
        if (per <= 0)
            return;
        // Both factors are bounded, their product is not: 2^40 T x 8 GPUs
        // overflowed into a negative --mem.
        if (*mb > kMaxMemoryMB / per) {
            add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("memory"), o->line,
                        QStringLiteral("%1=%2 x %3 is more memory than any node has (over %4 TB); check the number "
                                       "and the unit.")
                            .arg(o->written, InputLimits::quoted(o->value))
                            .arg(per)
                            .arg(kMaxMemoryMB / (1024 * 1024))));
            return;
        }
        m_imp.spec.memory = memoryText(*mb * per);
        const QString factor = o->name == QLatin1String("mem-per-gpu") ? QStringLiteral("GPUs per node")
                               : r.cpusPerTask > 0 ? QStringLiteral("CPUs per node: --cpus-per-task x tasks")
                               : r.cpusPerGpu > 0  ? QStringLiteral("CPUs per node: --cpus-per-gpu x GPUs")
                                                   : QStringLiteral("CPUs per node: one per task");
        add(finding(Severity::Info, QStringLiteral("memory-converted"), QStringLiteral("memory"), o->line,
                    QStringLiteral("%1=%2 becomes --mem=%3 per node (%4 %5 x %2).")
                        .arg(o->written, o->value, m_imp.spec.memory)
                        .arg(per)
                        .arg(factor)));
    }

    // --ntasks=32 --ntasks-per-node=8 without --nodes: Slurm allocates 4 nodes.
    void impliedNodes(std::optional<int> ntasks, std::optional<int> tpn)
    {
        auto &r = m_imp.request;
        if (r.nodes > 0 || !ntasks || !tpn || *ntasks <= *tpn)
            return;
        r.nodes = (*ntasks + *tpn - 1) / *tpn;
        r.nodesImplied = true;
        add(finding(Severity::Info, QStringLiteral("nodes-implied"), QStringLiteral("nodes"),
                    opt("ntasks-per-node")->line,
                    QStringLiteral("--ntasks=%1 with --ntasks-per-node=%2 and no --nodes: Slurm allocates %3 nodes.")
                        .arg(*ntasks)
                        .arg(*tpn)
                        .arg(r.nodes)));
    }

    // The same option twice, read the way Slurm's option table
    // (src/common/slurm_opt.c) reads it: --mail-type adds its events to the
    // earlier ones; every other option keeps only the last value.
    void reportRepeats()
    {
        QHash<QString, const SbatchOption *> seen;
        for (const auto &o : m_imp.options) {
            const auto it = seen.find(o.name);
            if (it != seen.end() && (*it)->value != o.value) {
                if (o.name == QLatin1String("mail-type"))
                    add(finding(Severity::Info, QStringLiteral("options-combined"), QString(), o.line,
                                QStringLiteral("%1 on lines %2 and %3: Slurm sends mail for both (%4,%5).")
                                    .arg(o.written)
                                    .arg((*it)->line)
                                    .arg(o.line)
                                    .arg((*it)->value, o.value)));
                else
                    add(finding(
                        Severity::Warning, QStringLiteral("conflicting-options"), specFieldOfOption(o.name), o.line,
                        QStringLiteral("%1 is set twice (lines %2 and %3); sbatch uses the last one (%4). Remove one.")
                            .arg(o.written)
                            .arg((*it)->line)
                            .arg(o.line)
                            .arg(o.value)));
            }
            seen.insert(o.name, &o);
        }
    }

private:
    void add(Diagnostic d) { m_imp.diagnostics << std::move(d); }
    const SbatchOption *opt(const char *name) const { return m_imp.option(QString::fromLatin1(name)); }

    ScriptImport &m_imp;
};

}   // namespace

int ScriptRequest::cpusPerNode() const
{
    if (cpusPerTask > 0)
        return satMul(cpusPerTask, tasksPerNode);
    if (cpusPerGpu > 0 && gpusPerNode > 0)
        return satMul(cpusPerGpu, gpusPerNode);
    return std::max(1, tasksPerNode);
}

std::optional<int> positiveInt(const QString &text)
{
    bool ok = false;
    const int v = text.trimmed().toInt(&ok);
    return ok && v > 0 && v <= kMaxScriptCount ? std::optional<int>(v) : std::nullopt;
}

void readScriptOptions(ScriptImport &imp)
{
    OptionReader(imp).readOptions();
}

}   // namespace scalelab
