// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/ScriptImporter.h"
#include "core/model/SpecFields.h"

#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptOptionReader.h"
#include "core/base/ShellWords.h"
#include "core/slurm/SlurmTime.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace scalelab {

namespace {

const QSet<QString> &ignoredCommands()
{
    // Logging, monitoring and control flow: not part of the job's setup.
    static const QSet<QString> s = {
        QStringLiteral("echo"),     QStringLiteral("printf"),     QStringLiteral("date"),
        QStringLiteral("hostname"), QStringLiteral("nvidia-smi"), QStringLiteral("rocm-smi"),
        QStringLiteral("sleep"),    QStringLiteral("wait"),       QStringLiteral("exit"),
        QStringLiteral("true"),     QStringLiteral("false"),      QStringLiteral(":"),
        QStringLiteral("sacct"),    QStringLiteral("squeue"),     QStringLiteral("scontrol"),
        QStringLiteral("seff"),     QStringLiteral("printenv"),   QStringLiteral("cat"),
        QStringLiteral("ls"),       QStringLiteral("pwd"),        QStringLiteral("which"),
        QStringLiteral("nproc"),    QStringLiteral("free"),       QStringLiteral("lscpu"),
        QStringLiteral("if"),       QStringLiteral("then"),       QStringLiteral("else"),
        QStringLiteral("elif"),     QStringLiteral("fi"),         QStringLiteral("for"),
        QStringLiteral("while"),    QStringLiteral("until"),      QStringLiteral("do"),
        QStringLiteral("done"),     QStringLiteral("case"),       QStringLiteral("esac"),
        QStringLiteral("{"),        QStringLiteral("}"),          QStringLiteral("[["),
        QStringLiteral("["),        QStringLiteral("test"),       QStringLiteral("function"),
        QStringLiteral("return"),   QStringLiteral("shift"),      QStringLiteral("trap"),
        QStringLiteral("tee"),      QStringLiteral("env"),
    };
    return s;
}

bool isAssignment(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    return re.match(word).hasMatch();
}

// The shell splits an unquoted expansion into words: `torchrun $DIST_ARGS
// train.py` passes each option of DIST_ARGS on its own. Words written without
// quotes whose expansion holds blanks are split the same way.
ShellCommand splitUnquotedExpansions(const ShellCommand &cmd, const QString &source)
{
    static const QRegularExpression blanks(QStringLiteral("[ \\t\\n]+"));
    ShellCommand out = cmd;
    out.words.clear();
    for (const ShellWord &w : cmd.words) {
        const QStringView written = QStringView(source).mid(w.offset, std::max(0, w.end - w.offset));
        const bool quoted = written.contains(QLatin1Char('"')) || written.contains(QLatin1Char('\''))
                            || written.contains(QLatin1Char('\\'));
        if (quoted || !written.contains(QLatin1Char('$')) || written.contains(QLatin1String("$("))
            || !w.text.contains(blanks)) {
            out.words << w;
            continue;
        }
        // A command substitution inside the value is known only at run time
        // (one hostname, say): its blanks do not split.
        QString part;
        int depth = 0;
        bool tick = false;
        const int n = int(w.text.size());
        for (int i = 0; i < n; ++i) {
            const QChar c = w.text.at(i);
            if (c == QLatin1Char('`')) {
                tick = !tick;
            } else if (c == QLatin1Char('$') && i + 1 < n && w.text.at(i + 1) == QLatin1Char('(')) {
                part += QLatin1String("$(");
                ++depth;
                ++i;
                continue;
            } else if (c == QLatin1Char('(') && depth > 0) {
                ++depth;
            } else if (c == QLatin1Char(')') && depth > 0) {
                --depth;
            }
            const bool blank = c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n');
            if (blank && depth == 0 && !tick) {
                if (!part.isEmpty())
                    out.words << ShellWord{part, w.offset, w.end};
                part.clear();
            } else {
                part += c;
            }
        }
        if (!part.isEmpty())
            out.words << ShellWord{part, w.offset, w.end};
    }
    return out;
}

class Importer {
public:
    Importer(const QString &text, const ClusterProfile &profile)
        : m_text(text)
        , m_profile(profile)
    {}

    ScriptImport run()
    {
        const ParsedSbatchScript parsed = parseSbatchScript(m_text);
        m_imp.diagnostics = parsed.diagnostics;
        m_imp.options = parsed.options;
        m_imp.disabledOptions = parsed.disabledOptions;
        m_imp.ignoredOptions = parsed.ignoredOptions;
        m_imp.lines = parsed.lines;
        m_imp.spec.profile = m_profile.id;
        attachFields();
        readScriptOptions(m_imp);
        seedSlurmVariables();
        readCommands(parsed);
        choosePrimary();
        lintScriptImport(m_imp, m_profile);
        m_imp.summary = importSummary(m_imp);
        return m_imp;
    }

private:
    void add(Diagnostic d) { m_imp.diagnostics << std::move(d); }

    // Parser findings on an option line are about that option's spec field.
    void attachFields()
    {
        // Options by line, looked up once per finding (a scan of all options
        // per finding is quadratic on scripts made of #SBATCH lines).
        QMultiHash<int, const SbatchOption *> byLine;
        for (auto it = m_imp.options.crbegin(); it != m_imp.options.crend(); ++it)
            byLine.insert(it->line, &*it);   // values() then come out in script order
        for (auto &d : m_imp.diagnostics) {
            if (!d.field.isEmpty() || d.line == 0)
                continue;
            for (auto it = byLine.constFind(d.line); it != byLine.cend() && it.key() == d.line; ++it) {
                const SbatchOption *o = *it;
                if (d.column == 0 || o->column == d.column) {
                    d.field = specFieldOfOption(o->name);
                    break;
                }
            }
        }
    }

    const SbatchOption *opt(const char *name) const { return m_imp.option(QString::fromLatin1(name)); }

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
        if (opt("gpus-per-node") && r.gpusPerNode > 0)   // "a100:4" in the option, "4" to the launcher
            m_vars.insert(QStringLiteral("SLURM_GPUS_PER_NODE"), QString::number(r.gpusPerNode));
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
                const QString source =
                    sl.text.mid(rc.words.front().offset, rc.words.back().end - rc.words.front().offset);
                if (first == QLatin1String("if") || first == QLatin1String("for") || first == QLatin1String("while")
                    || first == QLatin1String("until") || first == QLatin1String("case"))
                    ++depth;
                else if (first == QLatin1String("fi") || first == QLatin1String("done")
                         || first == QLatin1String("esac"))
                    depth = std::max(0, depth - 1);

                if (first == QLatin1String("export") || first == QLatin1String("declare")
                    || first == QLatin1String("local") || first == QLatin1String("readonly")) {
                    bool verbatim = false;
                    for (int i = 1; i < rc.words.size(); ++i) {
                        const QString &w = rc.words[i].text;
                        if (!isAssignment(w))
                            continue;
                        const int eq = int(w.indexOf(QLatin1Char('=')));
                        const QString name = w.left(eq);
                        m_vars.insert(name, ec.words[i].text.mid(eq + 1));
                        // $(...), $((...)), `...` and values built from setup
                        // variables only mean something to the shell: the line
                        // is kept as written instead of becoming a quoted value.
                        if (needsShell(w.mid(eq + 1)))
                            verbatim = true;
                        else if (first == QLatin1String("export") && depth == 0)
                            env.variables.append({name, w.mid(eq + 1)});
                    }
                    if (verbatim && depth == 0) {
                        m_setup << Candidate{line, source};
                        for (int i = 1; i < rc.words.size(); ++i)
                            if (isAssignment(rc.words[i].text))
                                m_shellVars.insert(
                                    rc.words[i].text.left(int(rc.words[i].text.indexOf(QLatin1Char('=')))));
                    }
                    continue;
                }
                if (std::all_of(rc.words.begin(), rc.words.end(),
                                [](const ShellWord &w) { return isAssignment(w.text); })) {
                    for (int i = 0; i < rc.words.size(); ++i) {
                        const int eq = int(rc.words[i].text.indexOf(QLatin1Char('=')));
                        m_vars.insert(rc.words[i].text.left(eq), ec.words[i].text.mid(eq + 1));
                        m_shellVars.insert(rc.words[i].text.left(eq));
                    }
                    if (depth == 0)
                        m_setup << Candidate{line, source};
                    continue;
                }
                if (first == QLatin1String("module") || first == QLatin1String("ml")) {
                    const QString sub = rc.words.size() > 1 ? rc.words[1].text : QString();
                    const bool load =
                        sub == QLatin1String("load") || sub == QLatin1String("add")
                        || (first == QLatin1String("ml") && !sub.isEmpty() && !sub.startsWith(QLatin1Char('-'))
                            && sub != QLatin1String("purge") && sub != QLatin1String("use")
                            && sub != QLatin1String("unload") && sub != QLatin1String("list"));
                    if (load && depth == 0) {
                        for (int i = first == QLatin1String("ml") && sub != QLatin1String("load") ? 1 : 2;
                             i < rc.words.size(); ++i)
                            if (!rc.words[i].text.startsWith(QLatin1Char('-')))
                                env.modules << rc.words[i].text;
                    } else if (sub != QLatin1String("list") && sub != QLatin1String("avail") && depth == 0) {
                        m_setup << Candidate{line, source};   // module use/purge/unload keep their order
                    }
                    continue;
                }
                const ShellCommand split = splitUnquotedExpansions(ec, sl.text);
                const bool wasSplit = split.words.size() != ec.words.size();
                if (auto lc = parseLaunchCommand(split, sl, expanded.unresolved)) {
                    // Program arguments keep $SLURM_* as written: they change with the job.
                    if (lc->programWordIndex >= 0 && !wasSplit) {
                        const int start =
                            lc->program == QLatin1String("-m") ? lc->programWordIndex : lc->programWordIndex + 1;
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
        case ProcessLauncher::Accelerate:
            // accelerate launch starts torch.distributed workers as torchrun does.
            spec.framework = mentionsDeepSpeed ? Framework::DeepSpeed : Framework::PytorchDdp;
            spec.launcher = Launcher::Torchrun;
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
            const int perNode =
                l.underSrun ? std::max(1, l.srunTasksPerNode > 0 ? l.srunTasksPerNode : r.tasksPerNode) : 1;
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

    // A value the shell has to compute, or one built from a variable that
    // only the setup lines define.
    bool needsShell(const QString &value) const
    {
        if (value.contains(QLatin1String("$(")) || value.contains(QLatin1Char('`')))
            return true;
        static const QRegularExpression ref(QStringLiteral("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)"));
        auto it = ref.globalMatch(value);
        while (it.hasNext())
            if (m_shellVars.contains(it.next().captured(1)))
                return true;
        return false;
    }

    const QString &m_text;
    const ClusterProfile &m_profile;
    QSet<QString> m_shellVars;   // set by setup lines, not by exported variables
    ScriptImport m_imp;
    QHash<QString, QString> m_vars;
    QList<Candidate> m_setup;
};

}   // namespace

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
    if (field == QLatin1String(SpecField::cpusPerGpu))
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
        {QStringLiteral("cpus-per-gpu"), QLatin1String(SpecField::cpusPerGpu)},
        {QStringLiteral("cpus-per-task"), QLatin1String(SpecField::cpusPerGpu)},
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

}   // namespace scalelab
