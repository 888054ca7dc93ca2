#include "ScriptImporter.h"

#include "ShellWords.h"
#include "SlurmTime.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace scalelab {

namespace {

Diagnostic finding(Severity sev, const QString &rule, const QString &field, int line, const QString &message,
                   Fix fix = {})
{
    Diagnostic d;
    d.severity = sev;
    d.rule = rule;
    d.field = field;
    d.line = line;
    d.message = message;
    d.fix = std::move(fix);
    return d;
}

std::optional<int> positiveInt(const QString &text)
{
    bool ok = false;
    const int v = text.trimmed().toInt(&ok);
    return ok && v > 0 ? std::optional<int>(v) : std::nullopt;
}

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

std::optional<qint64> memoryMB(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^([0-9]+)([KMGT]?)B?$"), QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const qint64 n = m.captured(1).toLongLong();
    switch (m.captured(2).isEmpty() ? 'M' : m.captured(2).at(0).toUpper().toLatin1()) {
    case 'K': return n / 1024;
    case 'G': return n * 1024;
    case 'T': return n * 1024 * 1024;
    default: return n;
    }
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
        QStringLiteral("output"),   QStringLiteral("error"),       QStringLiteral("qos"),
        QStringLiteral("reservation"), QStringLiteral("nodelist"), QStringLiteral("exclude"),
        QStringLiteral("constraint"), QStringLiteral("exclusive"), QStringLiteral("array"),
        QStringLiteral("dependency"), QStringLiteral("chdir"),     QStringLiteral("export"),
        QStringLiteral("hint"),     QStringLiteral("gpu-bind"),    QStringLiteral("mail-type"),
        QStringLiteral("mail-user"), QStringLiteral("licenses"),   QStringLiteral("tmp"),
        QStringLiteral("distribution"), QStringLiteral("signal"),  QStringLiteral("open-mode"),
        QStringLiteral("requeue"),  QStringLiteral("no-requeue"),  QStringLiteral("comment"),
        QStringLiteral("begin"),    QStringLiteral("wckey"),       QStringLiteral("switches"),
    };
    return s;
}

const QSet<QString> &ignoredCommands()
{
    // Logging, monitoring and control flow: not part of the job's setup.
    static const QSet<QString> s = {
        QStringLiteral("echo"),  QStringLiteral("printf"), QStringLiteral("date"),   QStringLiteral("hostname"),
        QStringLiteral("nvidia-smi"), QStringLiteral("rocm-smi"), QStringLiteral("sleep"), QStringLiteral("wait"),
        QStringLiteral("exit"),  QStringLiteral("true"),   QStringLiteral("false"),  QStringLiteral(":"),
        QStringLiteral("sacct"), QStringLiteral("squeue"), QStringLiteral("scontrol"), QStringLiteral("seff"),
        QStringLiteral("printenv"), QStringLiteral("cat"), QStringLiteral("ls"),     QStringLiteral("pwd"),
        QStringLiteral("which"), QStringLiteral("nproc"),  QStringLiteral("free"),   QStringLiteral("lscpu"),
        QStringLiteral("if"),    QStringLiteral("then"),   QStringLiteral("else"),   QStringLiteral("elif"),
        QStringLiteral("fi"),    QStringLiteral("for"),    QStringLiteral("while"),  QStringLiteral("until"),
        QStringLiteral("do"),    QStringLiteral("done"),   QStringLiteral("case"),   QStringLiteral("esac"),
        QStringLiteral("{"),     QStringLiteral("}"),      QStringLiteral("[["),     QStringLiteral("["),
        QStringLiteral("test"),  QStringLiteral("function"), QStringLiteral("return"), QStringLiteral("shift"),
        QStringLiteral("trap"),  QStringLiteral("tee"),    QStringLiteral("env"),
    };
    return s;
}

bool isAssignment(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    return re.match(word).hasMatch();
}

class Importer {
public:
    Importer(const QString &text, const ClusterProfile &profile) : m_text(text), m_profile(profile) {}

    ScriptImport run()
    {
        const ParsedSbatchScript parsed = parseSbatchScript(m_text);
        m_imp.diagnostics = parsed.diagnostics;
        m_imp.options = parsed.options;
        m_imp.disabledOptions = parsed.disabledOptions;
        m_imp.ignoredOptions = parsed.ignoredOptions;
        m_imp.spec.profile = m_profile.id;
        attachFields();
        readOptions();
        seedSlurmVariables();
        readCommands(parsed);
        choosePrimary();
        lintScriptImport(m_imp, m_profile);
        return m_imp;
    }

private:
    void add(Diagnostic d) { m_imp.diagnostics << std::move(d); }

    // Parser findings on an option line are about that option's spec field.
    void attachFields()
    {
        for (auto &d : m_imp.diagnostics) {
            if (!d.field.isEmpty() || d.line == 0)
                continue;
            for (const auto &o : m_imp.options)
                if (o.line == d.line && (d.column == 0 || o.column == d.column)) {
                    d.field = specFieldOfOption(o.name);
                    break;
                }
        }
    }

    const SbatchOption *opt(const char *name) const { return m_imp.option(QString::fromLatin1(name)); }

    std::optional<int> intOption(const char *name)
    {
        const SbatchOption *o = opt(name);
        if (!o || !o->hasValue)
            return std::nullopt;
        auto v = positiveInt(o->value);
        if (!v)
            add(finding(Severity::Error, QStringLiteral("invalid-value"), specFieldOfOption(o->name), o->line,
                        QStringLiteral("%1=%2 is not a positive whole number.").arg(o->written, o->value)));
        return v;
    }

    void readOptions()
    {
        auto &spec = m_imp.spec;
        auto &r = m_imp.request;
        // The same option twice: sbatch keeps the last one.
        QHash<QString, const SbatchOption *> seen;
        for (const auto &o : m_imp.options) {
            if (auto it = seen.find(o.name); it != seen.end() && (*it)->value != o.value)
                add(finding(Severity::Warning, QStringLiteral("conflicting-options"), specFieldOfOption(o.name), o.line,
                            QStringLiteral("%1 is set twice (lines %2 and %3); sbatch uses the last one (%4). Remove one.")
                                .arg(o.written)
                                .arg((*it)->line)
                                .arg(o.line)
                                .arg(o.value)));
            seen.insert(o.name, &o);
            if (notImportedOptions().contains(o.name))
                add(finding(Severity::Info, QStringLiteral("option-not-imported"), QString(), o.line,
                            QStringLiteral("%1 is not part of a ScaleLab job; %2")
                                .arg(o.written,
                                     o.name == QLatin1String("output") || o.name == QLatin1String("error")
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
                            QStringLiteral("%1=%2 is not a Slurm time; use HH:MM:SS or D-HH:MM:SS.").arg(o->written, o->value)));
        }
        if (auto *o = opt("nodes"); o && o->hasValue) {
            if (auto n = positiveInt(o->value.section(QLatin1Char('-'), 0, 0)))
                r.nodes = *n;
            else
                add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("nodes"), o->line,
                            QStringLiteral("%1=%2 is not a node count.").arg(o->written, o->value)));
        }
        const int nodes = r.effectiveNodes();
        const auto ntasks = intOption("ntasks");
        const auto tpn = intOption("ntasks-per-node");
        if (ntasks && tpn && r.nodes > 0 && *ntasks != *tpn * r.nodes)
            add(finding(Severity::Warning, QStringLiteral("conflicting-options"), QString(), opt("ntasks-per-node")->line,
                        QStringLiteral("--ntasks=%1 and --ntasks-per-node=%2 on %3 node(s) disagree; Slurm takes "
                                       "--ntasks and treats --ntasks-per-node as a maximum. Keep one of them.")
                            .arg(*ntasks)
                            .arg(*tpn)
                            .arg(r.nodes)));
        r.tasksGiven = ntasks || tpn;
        r.tasks = ntasks ? *ntasks : (tpn ? *tpn * nodes : nodes);
        r.tasksPerNode = tpn ? *tpn : std::max(1, (r.tasks + nodes - 1) / nodes);
        if (auto c = intOption("cpus-per-task"))
            r.cpusPerTask = *c;
        const auto cpusPerGpu = intOption("cpus-per-gpu");
        if (cpusPerGpu && r.cpusPerTask > 0)
            add(finding(Severity::Warning, QStringLiteral("conflicting-options"), QStringLiteral("cpusPerGpu"),
                        opt("cpus-per-gpu")->line,
                        QStringLiteral("--cpus-per-gpu and --cpus-per-task both set the CPUs of a task; Slurm rejects "
                                       "or overrides one. Keep one of them.")));
        readGpus();
        // CPUs per GPU: asked for directly, or the task CPUs shared by the node's GPUs.
        if (cpusPerGpu)
            spec.cpusPerGpu = *cpusPerGpu;
        else if (r.cpusPerTask > 0 && r.gpusPerNode > 0)
            spec.cpusPerGpu = std::max(1, r.cpusPerTask * r.tasksPerNode / r.gpusPerNode);
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
                            QStringLiteral("--gres=%1 is not a GPU request; use gpu:COUNT or gpu:TYPE:COUNT.").arg(o->value)));
            else if (g.count > 0) {
                sources << o;
                r.gpusPerNode = g.count;
                r.gpus = g.count * nodes;
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
                            QStringLiteral("%1=%2 is not a GPU count; use COUNT or TYPE:COUNT.").arg(o->written, o->value)));
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
            r.gpus = n * nodes;
        });
        typed("gpus", [&](int n) {
            r.gpus = n;
            r.gpusPerNode = (n + nodes - 1) / nodes;
        });
        typed("gpus-per-task", [&](int n) {
            r.gpus = n * r.tasks;
            r.gpusPerNode = n * r.tasksPerNode;
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
            add(finding(Severity::Error, QStringLiteral("conflicting-options"), QStringLiteral("memory"), given[1]->line,
                        QStringLiteral("%1 and %2 are mutually exclusive; sbatch refuses the script. Keep one.")
                            .arg(given[0]->written, given[1]->written)));
        const SbatchOption *o = given.front();
        const auto mb = memoryMB(o->value);
        if (!mb) {
            add(finding(Severity::Error, QStringLiteral("invalid-value"), QStringLiteral("memory"), o->line,
                        QStringLiteral("%1=%2 is not a memory size; use e.g. 64G or 16000M.").arg(o->written, o->value)));
            return;
        }
        if (o->name == QLatin1String("mem")) {
            m_imp.spec.memory = o->value;
            return;
        }
        const int per = o->name == QLatin1String("mem-per-gpu") ? r.gpusPerNode
                                                                 : std::max(1, r.cpusPerTask) * r.tasksPerNode;
        if (per <= 0)
            return;
        m_imp.spec.memory = memoryText(*mb * per);
        add(finding(Severity::Info, QStringLiteral("memory-converted"), QStringLiteral("memory"), o->line,
                    QStringLiteral("%1=%2 becomes --mem=%3 per node (%4 x %2).")
                        .arg(o->written, o->value, m_imp.spec.memory)
                        .arg(per)));
    }

    // What Slurm puts in the job's environment, for $SLURM_* in launch lines.
    void seedSlurmVariables()
    {
        const auto &r = m_imp.request;
        const QString nodes = QString::number(r.effectiveNodes());
        m_vars.insert(QStringLiteral("SLURM_JOB_NUM_NODES"), nodes);
        m_vars.insert(QStringLiteral("SLURM_NNODES"), nodes);
        m_vars.insert(QStringLiteral("SLURM_NTASKS"), QString::number(r.tasks));
        m_vars.insert(QStringLiteral("SLURM_NPROCS"), QString::number(r.tasks));
        if (opt("ntasks-per-node"))
            m_vars.insert(QStringLiteral("SLURM_NTASKS_PER_NODE"), QString::number(r.tasksPerNode));
        if (r.gpusPerNode > 0)
            m_vars.insert(QStringLiteral("SLURM_GPUS_ON_NODE"), QString::number(r.gpusPerNode));
        if (auto *o = opt("gpus-per-node"))
            m_vars.insert(QStringLiteral("SLURM_GPUS_PER_NODE"), o->value);
        if (auto *o = opt("gpus"))
            m_vars.insert(QStringLiteral("SLURM_GPUS"), o->value);
        if (r.cpusPerTask > 0)
            m_vars.insert(QStringLiteral("SLURM_CPUS_PER_TASK"), QString::number(r.cpusPerTask));
        if (!m_imp.spec.jobName.isEmpty())
            m_vars.insert(QStringLiteral("SLURM_JOB_NAME"), m_imp.spec.jobName);
        if (!m_imp.spec.partition.isEmpty())
            m_vars.insert(QStringLiteral("SLURM_JOB_PARTITION"), m_imp.spec.partition);
    }

    struct Candidate {
        int line;
        QString text;
    };

    void readCommands(const ParsedSbatchScript &parsed)
    {
        const VariableLookup lookup = [this](const QString &name) -> std::optional<QString> {
            auto it = m_vars.constFind(name);
            return it == m_vars.cend() ? std::nullopt : std::optional<QString>(*it);
        };
        auto &env = m_imp.spec.environment;
        int depth = 0;   // inside if/for/while/case
        for (const ScriptLine &sl : parsed.lines) {
            const ShellLexResult raw = lexShell(sl.text);
            const ShellLexResult expanded = lexShell(sl.text, lookup);
            if (raw.commands.size() != expanded.commands.size())
                continue;   // cannot happen: expansion does not split words
            for (int c = 0; c < raw.commands.size(); ++c) {
                const ShellCommand &rc = raw.commands[c];
                const ShellCommand &ec = expanded.commands[c];
                if (rc.words.isEmpty() || rc.words.size() != ec.words.size())
                    continue;
                const QString first = rc.words.front().text;
                const int line = sl.lineAt(rc.words.front().offset);
                const QString source = sl.text.mid(rc.words.front().offset,
                                                   rc.words.back().end - rc.words.front().offset);
                if (first == QLatin1String("if") || first == QLatin1String("for") || first == QLatin1String("while")
                    || first == QLatin1String("until") || first == QLatin1String("case"))
                    ++depth;
                else if (first == QLatin1String("fi") || first == QLatin1String("done") || first == QLatin1String("esac"))
                    depth = std::max(0, depth - 1);

                if (first == QLatin1String("export") || first == QLatin1String("declare")
                    || first == QLatin1String("local") || first == QLatin1String("readonly")) {
                    for (int i = 1; i < rc.words.size(); ++i) {
                        const QString &w = rc.words[i].text;
                        if (!isAssignment(w))
                            continue;
                        const int eq = int(w.indexOf(QLatin1Char('=')));
                        const QString name = w.left(eq);
                        m_vars.insert(name, ec.words[i].text.mid(eq + 1));
                        if (first == QLatin1String("export") && depth == 0)
                            env.variables.append({name, w.mid(eq + 1)});
                    }
                    continue;
                }
                if (std::all_of(rc.words.begin(), rc.words.end(), [](const ShellWord &w) { return isAssignment(w.text); })) {
                    for (int i = 0; i < rc.words.size(); ++i) {
                        const int eq = int(rc.words[i].text.indexOf(QLatin1Char('=')));
                        m_vars.insert(rc.words[i].text.left(eq), ec.words[i].text.mid(eq + 1));
                    }
                    if (depth == 0)
                        m_setup << Candidate{line, source};
                    continue;
                }
                if (first == QLatin1String("module") || first == QLatin1String("ml")) {
                    const QString sub = rc.words.size() > 1 ? rc.words[1].text : QString();
                    const bool load = sub == QLatin1String("load") || sub == QLatin1String("add")
                                      || (first == QLatin1String("ml") && !sub.isEmpty() && !sub.startsWith(QLatin1Char('-'))
                                          && sub != QLatin1String("purge") && sub != QLatin1String("use")
                                          && sub != QLatin1String("unload") && sub != QLatin1String("list"));
                    if (load && depth == 0) {
                        for (int i = first == QLatin1String("ml") && sub != QLatin1String("load") ? 1 : 2; i < rc.words.size(); ++i)
                            if (!rc.words[i].text.startsWith(QLatin1Char('-')))
                                env.modules << rc.words[i].text;
                    } else if (sub != QLatin1String("list") && sub != QLatin1String("avail") && depth == 0) {
                        m_setup << Candidate{line, source};   // module use/purge/unload keep their order
                    }
                    continue;
                }
                if (auto lc = parseLaunchCommand(ec, sl, expanded.unresolved)) {
                    // Program arguments keep $SLURM_* as written: they change with the job.
                    if (lc->programWordIndex >= 0) {
                        const int start = lc->program == QLatin1String("-m") ? lc->programWordIndex : lc->programWordIndex + 1;
                        for (int i = 0; i < lc->args.size() && start + i < rc.words.size(); ++i)
                            if (rc.words[start + i].text.contains(QLatin1String("$SLURM_"))
                                || rc.words[start + i].text.contains(QLatin1String("${SLURM_")))
                                lc->args[i] = rc.words[start + i].text;
                    }
                    lc->text = source;
                    m_imp.launches << *lc;
                    continue;
                }
                if (depth == 0 && !ignoredCommands().contains(first) && rc.terminator != QLatin1String("&"))
                    m_setup << Candidate{line, source};
            }
        }
    }

    static int launchScore(const LaunchCommand &l)
    {
        if (l.launcher != ProcessLauncher::None)
            return 3;
        if (l.isPython())
            return l.underSrun ? 2 : 1;
        return 0;
    }

    void choosePrimary()
    {
        auto &spec = m_imp.spec;
        int best = -1;
        int bestScore = -1;
        int candidates = 0;
        for (int i = 0; i < m_imp.launches.size(); ++i) {
            const int s = launchScore(m_imp.launches[i]);
            candidates += s > 0 ? 1 : 0;
            if (s > bestScore) {
                best = i;
                bestScore = s;
            }
        }
        m_imp.primaryLaunch = best;
        const LaunchCommand *l = m_imp.launch();
        if (!l) {
            spec.framework = Framework::DataParallel;
            spec.launcher = Launcher::Srun;
            return;
        }
        if (candidates > 1)
            add(finding(Severity::Info, QStringLiteral("multiple-launch-lines"), QStringLiteral("program"), l->line,
                        QStringLiteral("The script starts several programs; the job is built from line %1. A "
                                       "ScaleLab job runs one program per job.")
                            .arg(l->line)));
        spec.program = l->program;
        spec.args = l->args;
        if (!l->container.image.isEmpty())
            spec.environment.container = l->container;
        for (const auto &c : m_setup)
            if (c.line < l->line)
                spec.environment.setup << c.text;
        deriveFramework(*l);
    }

    void deriveFramework(const LaunchCommand &l)
    {
        auto &spec = m_imp.spec;
        const auto &r = m_imp.request;
        const QString all = (QStringList{l.program} + l.args).join(QLatin1Char(' '));
        const bool mentionsDeepSpeed = all.contains(QLatin1String("--deepspeed"));
        const bool mentionsHorovod = all.contains(QLatin1String("horovod"), Qt::CaseInsensitive);
        const bool mirrored = all.contains(QLatin1String("mirrored"), Qt::CaseInsensitive);
        const bool multiWorker = all.contains(QLatin1String("multi_worker"), Qt::CaseInsensitive)
                                 || all.contains(QLatin1String("multiworker"), Qt::CaseInsensitive);
        QString why;
        switch (l.launcher) {
        case ProcessLauncher::Torchrun:
            spec.framework = Framework::PytorchDdp;
            spec.launcher = Launcher::Torchrun;
            return;
        case ProcessLauncher::DeepSpeed:
            spec.framework = Framework::DeepSpeed;
            spec.launcher = Launcher::DeepSpeed;
            return;
        case ProcessLauncher::Horovodrun:
            spec.framework = Framework::Horovod;
            spec.launcher = Launcher::Horovodrun;
            return;
        case ProcessLauncher::Mpirun:
            spec.launcher = Launcher::Mpirun;
            spec.framework = mentionsDeepSpeed ? Framework::DeepSpeed : Framework::Horovod;
            if (!mentionsDeepSpeed && !mentionsHorovod)
                why = QStringLiteral("mpirun starts the processes; Horovod is the usual framework behind it");
            break;
        case ProcessLauncher::None: {
            spec.launcher = Launcher::Srun;
            const int perNode = l.underSrun ? std::max(1, l.srunTasksPerNode > 0 ? l.srunTasksPerNode : r.tasksPerNode) : 1;
            if (mentionsDeepSpeed) {
                spec.framework = Framework::DeepSpeed;
            } else if (mentionsHorovod) {
                spec.framework = Framework::Horovod;
            } else if (multiWorker) {
                spec.framework = Framework::TfMultiWorker;
                why = QStringLiteral("the arguments name a multi-worker strategy");
            } else if (mirrored) {
                spec.framework = Framework::TfMirrored;
                why = QStringLiteral("the arguments ask for the mirrored distribution strategy");
            } else if (perNode > 1) {
                spec.framework = Framework::PytorchDdp;
                why = QStringLiteral("srun starts %1 processes per node, one per GPU, as DDP does").arg(perNode);
            } else if (l.underSrun && r.effectiveNodes() > 1) {
                spec.framework = Framework::TfMultiWorker;
                why = QStringLiteral("one process per node drives all of that node's GPUs");
            } else {
                spec.framework = Framework::DataParallel;
                why = r.gpus > 1 ? QStringLiteral("a single process drives all %1 GPUs").arg(r.gpus)
                                 : QStringLiteral("a single process on one GPU");
            }
            break;
        }
        }
        if (!why.isEmpty()) {
            m_imp.frameworkGuessed = true;
            add(finding(Severity::Info, QStringLiteral("framework-guessed"), QStringLiteral("framework"), l.line,
                        QStringLiteral("No launcher names the framework; guessed %1 because %2. Change it if the "
                                       "program does something else.")
                            .arg(frameworkName(spec.framework), why)));
        }
    }

    const QString &m_text;
    const ClusterProfile &m_profile;
    ScriptImport m_imp;
    QHash<QString, QString> m_vars;
    QList<Candidate> m_setup;
};

} // namespace

const SbatchOption *ScriptImport::option(const QString &name) const
{
    for (auto it = options.crbegin(); it != options.crend(); ++it)
        if (it->name == name)
            return &*it;
    return nullptr;
}

int ScriptImport::lineOf(const QString &field) const
{
    auto optLine = [this](std::initializer_list<const char *> names) {
        for (const char *n : names)
            if (const SbatchOption *o = option(QString::fromLatin1(n)))
                return o->line;
        return 0;
    };
    if (field == QLatin1String("gpus"))
        return request.gpuOptionLine;
    if (field == QLatin1String("nodes")) {
        const int l = optLine({"nodes"});
        return l ? l : request.gpuOptionLine;
    }
    if (field == QLatin1String("cpusPerGpu"))
        return optLine({"cpus-per-gpu", "cpus-per-task"});
    if (field == QLatin1String("memory"))
        return optLine({"mem", "mem-per-gpu", "mem-per-cpu"});
    if (field == QLatin1String("partition"))
        return optLine({"partition"});
    if (field == QLatin1String("time"))
        return optLine({"time"});
    if (field == QLatin1String("account"))
        return optLine({"account"});
    if (field == QLatin1String("jobName"))
        return optLine({"job-name"});
    const LaunchCommand *l = launch();
    if (field == QLatin1String("framework") || field == QLatin1String("launcher") || field == QLatin1String("args"))
        return l ? l->line : 0;
    if (field == QLatin1String("program"))
        return l ? (l->programLine ? l->programLine : l->line) : 0;
    return 0;
}

QString specFieldOfOption(const QString &option)
{
    static const QHash<QString, QString> map = {
        {QStringLiteral("account"), QStringLiteral("account")},
        {QStringLiteral("partition"), QStringLiteral("partition")},
        {QStringLiteral("job-name"), QStringLiteral("jobName")},
        {QStringLiteral("time"), QStringLiteral("time")},
        {QStringLiteral("nodes"), QStringLiteral("nodes")},
        {QStringLiteral("gres"), QStringLiteral("gpus")},
        {QStringLiteral("gpus"), QStringLiteral("gpus")},
        {QStringLiteral("gpus-per-node"), QStringLiteral("gpus")},
        {QStringLiteral("gpus-per-task"), QStringLiteral("gpus")},
        {QStringLiteral("cpus-per-gpu"), QStringLiteral("cpusPerGpu")},
        {QStringLiteral("cpus-per-task"), QStringLiteral("cpusPerGpu")},
        {QStringLiteral("mem"), QStringLiteral("memory")},
        {QStringLiteral("mem-per-cpu"), QStringLiteral("memory")},
        {QStringLiteral("mem-per-gpu"), QStringLiteral("memory")},
    };
    return map.value(option);
}

ScriptImport importSbatchScript(const QString &text, const ClusterProfile &profile)
{
    return Importer(text, profile).run();
}

} // namespace scalelab
