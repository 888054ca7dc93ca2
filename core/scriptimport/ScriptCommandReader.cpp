// SPDX-License-Identifier: GPL-3.0-or-later
// The sbatch script importer's shell reader: the commands after the #SBATCH header,
// read into variables (Slurm's own seeded first), modules, setup lines and launch
// lines. The rest of the import is in ScriptImporter.cpp.
#include "core/scriptimport/ScriptCommandReader.h"

#include "core/compose/SbatchRenderer.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <optional>

namespace scalelab::scriptimport {

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

}   // namespace

void ScriptCommandReader::read(const ParsedSbatchScript &parsed)
{
    seedSlurmVariables();
    findComposedLines();
    readCommands(parsed);
}

// What Slurm puts in the job's environment, for $SLURM_* in launch lines.
void ScriptCommandReader::seedSlurmVariables()
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

void ScriptCommandReader::readCommands(const ParsedSbatchScript &parsed)
{
    const VariableLookup lookup = [this](const QString &name) -> std::optional<QString> {
        auto it = m_vars.constFind(name);
        return it == m_vars.cend() ? std::nullopt : std::optional<QString>(*it);
    };
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
            const QString source = sl.text.mid(rc.words.front().offset, rc.words.back().end - rc.words.front().offset);
            const CommandSource at{sl.lineAt(rc.words.front().offset), source};
            if (first == QLatin1String("if") || first == QLatin1String("for") || first == QLatin1String("while")
                || first == QLatin1String("until") || first == QLatin1String("case"))
                ++depth;
            else if (first == QLatin1String("fi") || first == QLatin1String("done") || first == QLatin1String("esac"))
                depth = std::max(0, depth - 1);
            if (m_composed && !m_specLines.contains(at.line)) {
                rememberValues(rc, ec);   // ScaleLab's own line: only its launch and values are read
                if (depth == 0)   // the GPU sampler's srun is inside an if
                    readLaunch(rc, ec, sl, expanded, source);
                continue;
            }
            if (readDeclaration(rc, ec, at, depth) || readAssignments(rc, ec, at, depth) || readModule(rc, at, depth)
                || readLaunch(rc, ec, sl, expanded, source))
                continue;
            if (depth == 0 && !ignoredCommands().contains(first) && rc.terminator != QLatin1String("&"))
                m_setup << at;
        }
    }
}

// The lines of a script ScaleLab composed that came from the spec: those
// after each of the renderer's markers up to the next comment or blank line.
void ScriptCommandReader::findComposedLines()
{
    const QStringList lines = m_text.split(QLatin1Char('\n'));
    m_composed = lines.size() > 1 && lines.at(1).startsWith(QLatin1String(kComposedHeader));
    if (!m_composed)
        return;
    static const QSet<QString> markers = {QLatin1String(kModuleSetupMarker), QLatin1String(kModulesMarker),
                                          QLatin1String(kVariablesMarker), QLatin1String(kSetupMarker)};
    bool inSpec = false;
    for (int i = 0; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        if (markers.contains(line) || line == QLatin1String(kDefaultModulesMarker)) {
            inSpec = line != QLatin1String(kDefaultModulesMarker);
            continue;
        }
        if (line.isEmpty() || line.startsWith(QLatin1String("# ")))
            inSpec = false;
        else if (inSpec)
            m_specLines.insert(i + 1);
    }
}

// NAME=value of a command, plain or after export, as known values for later lines.
void ScriptCommandReader::rememberValues(const ShellCommand &rc, const ShellCommand &ec)
{
    for (int i = 0; i < rc.words.size(); ++i) {
        const QString &w = rc.words[i].text;
        if (i == 0 && w == QLatin1String("export"))
            continue;
        if (!isAssignment(w))
            return;
        const int eq = int(w.indexOf(QLatin1Char('=')));
        m_vars.insert(w.left(eq), ec.words[i].text.mid(eq + 1));
    }
}

// export/declare/local/readonly NAME=value: a variable, exported to the job's environment when plain.
bool ScriptCommandReader::readDeclaration(const ShellCommand &rc, const ShellCommand &ec, const CommandSource &at,
                                          int depth)
{
    const QString first = rc.words.front().text;
    if (first != QLatin1String("export") && first != QLatin1String("declare") && first != QLatin1String("local")
        && first != QLatin1String("readonly"))
        return false;
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
            m_imp.spec.environment.variables.append({name, w.mid(eq + 1)});
    }
    if (verbatim && depth == 0) {
        m_setup << at;
        for (int i = 1; i < rc.words.size(); ++i)
            if (isAssignment(rc.words[i].text))
                m_shellVars.insert(rc.words[i].text.left(int(rc.words[i].text.indexOf(QLatin1Char('=')))));
    }
    return true;
}

// NAME=value NAME2=value2 alone: shell variables of the setup.
bool ScriptCommandReader::readAssignments(const ShellCommand &rc, const ShellCommand &ec, const CommandSource &at,
                                          int depth)
{
    if (!std::all_of(rc.words.begin(), rc.words.end(), [](const ShellWord &w) { return isAssignment(w.text); }))
        return false;
    for (int i = 0; i < rc.words.size(); ++i) {
        const int eq = int(rc.words[i].text.indexOf(QLatin1Char('=')));
        m_vars.insert(rc.words[i].text.left(eq), ec.words[i].text.mid(eq + 1));
        m_shellVars.insert(rc.words[i].text.left(eq));
    }
    if (depth == 0)
        m_setup << at;
    return true;
}

// module load / ml NAME: the environment's modules; other module commands stay setup lines in order.
bool ScriptCommandReader::readModule(const ShellCommand &rc, const CommandSource &at, int depth)
{
    const QString first = rc.words.front().text;
    if (first != QLatin1String("module") && first != QLatin1String("ml"))
        return false;
    const QString sub = rc.words.size() > 1 ? rc.words[1].text : QString();
    const bool load = sub == QLatin1String("load") || sub == QLatin1String("add")
                      || (first == QLatin1String("ml") && !sub.isEmpty() && !sub.startsWith(QLatin1Char('-'))
                          && sub != QLatin1String("purge") && sub != QLatin1String("use")
                          && sub != QLatin1String("unload") && sub != QLatin1String("list"));
    if (load && depth == 0) {
        for (int i = first == QLatin1String("ml") && sub != QLatin1String("load") ? 1 : 2; i < rc.words.size(); ++i)
            if (!rc.words[i].text.startsWith(QLatin1Char('-'))) {
                m_imp.spec.environment.modules << rc.words[i].text;
                if (!m_imp.moduleLines.contains(rc.words[i].text))
                    m_imp.moduleLines.insert(rc.words[i].text, at.line);
            }
    } else if (sub != QLatin1String("list") && sub != QLatin1String("avail") && depth == 0) {
        m_setup << at;   // module use/purge/unload keep their order
    }
    return true;
}

// A launch (srun, torchrun, mpirun, python ...).
bool ScriptCommandReader::readLaunch(const ShellCommand &rc, const ShellCommand &ec, const ScriptLine &sl,
                                     const ShellLexResult &expanded, const QString &source)
{
    const ShellCommand split = splitUnquotedExpansions(ec, sl.text);
    const bool wasSplit = split.words.size() != ec.words.size();
    auto lc = parseLaunchCommand(split, sl, expanded.unresolved);
    if (!lc)
        return false;
    // Program arguments keep $SLURM_* as written: they change with the job.
    if (lc->programWordIndex >= 0 && !wasSplit) {
        const int start = lc->program == QLatin1String("-m") ? lc->programWordIndex : lc->programWordIndex + 1;
        for (int i = 0; i < lc->args.size() && start + i < rc.words.size(); ++i)
            if (rc.words[start + i].text.contains(QLatin1String("$SLURM_"))
                || rc.words[start + i].text.contains(QLatin1String("${SLURM_")))
                lc->args[i] = rc.words[start + i].text;
    }
    lc->text = source;
    m_imp.launches << *lc;
    return true;
}

// A value the shell has to compute, or one built from a variable that
// only the setup lines define.
bool ScriptCommandReader::needsShell(const QString &value) const
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

}   // namespace scalelab::scriptimport
