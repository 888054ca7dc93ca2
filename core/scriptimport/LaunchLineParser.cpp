// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LaunchLineParser.h"

#include "core/scriptimport/LaunchWalker.h"

#include <QRegularExpression>
#include <QSet>

namespace scalelab {

bool isPythonInterpreter(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("(^|/)python[0-9.]*$"));
    return re.match(word).hasMatch();
}

namespace {

using namespace launchparse;

void skipPrefixes(Walker &w)
{
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    while (!w.atEnd()) {
        const QString &word = w.peek();
        if (assignment.match(word).hasMatch() || word == QLatin1String("time") || word == QLatin1String("exec")
            || word == QLatin1String("nohup") || word == QLatin1String("command")) {
            w.take();
        } else if (word == QLatin1String("env") || word == QLatin1String("stdbuf") || word == QLatin1String("numactl")
                   || word == QLatin1String("taskset")) {
            const bool taskset = word == QLatin1String("taskset");
            w.take();
            while (!w.atEnd() && (w.peek().startsWith(QLatin1Char('-')) || assignment.match(w.peek()).hasMatch()))
                w.take();
            if (taskset && !w.atEnd())
                w.take();   // the CPU list
        } else {
            return;
        }
    }
}

// python [opts] (script | -m module | -c code) args
void parsePython(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {QStringLiteral("-W"), QStringLiteral("-X")};
    lc.interpreter = baseName(w.take());
    Walker::Opt o;
    while (!w.atEnd() && w.peek().startsWith(QLatin1Char('-')) && w.peek() != QLatin1String("-m")
           && w.peek() != QLatin1String("-c") && w.peek() != QLatin1String("-")) {
        if (!w.nextOption(takes, &o))
            break;
    }
    if (w.atEnd())
        return;
    if (w.peek() == QLatin1String("-m")) {
        w.take();
        const QString module = w.atEnd() ? QString() : w.peek();
        if (const auto launcher = launcherOfModule(module)) {
            lc.launcherWord = lc.interpreter + QStringLiteral(" -m ") + module;
            lc.legacyTorchLaunch = module == QLatin1String("torch.distributed.launch");
            w.take();
            parseLauncherOptions(w, lc, *launcher);
            if (lc.program.isEmpty() && !w.atEnd())
                takeProgram(w, lc);
            return;
        }
        lc.programLine = w.lineOfCurrent();
        lc.programWordIndex = w.index();
        lc.program = QStringLiteral("-m");
        lc.args = w.rest();
        return;
    }
    takeProgram(w, lc);
}

void parseKernprof(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {
        QStringLiteral("-o"), QStringLiteral("--outfile"),
        QStringLiteral("-s"), QStringLiteral("--setup"),
        QStringLiteral("-u"), QStringLiteral("--unit"),
        QStringLiteral("-p"), QStringLiteral("--prof-mod"),
        QStringLiteral("-i"), QStringLiteral("--output-interval"),
    };
    lc.interpreter = QStringLiteral("kernprof");
    w.take();
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {}
    if (!w.atEnd()) {
        takeProgram(w, lc);
    }
}

}   // namespace

namespace {

bool walk(Walker &w, LaunchCommand &lc, bool wrapped, int depth);

// Takes a launcher's command words, two for "accelerate launch"; false when
// the second word is another (`accelerate config`).
bool takeCommand(Walker &w, const LauncherTraits &row, const QString &base, LaunchCommand &lc)
{
    for (const auto &command : row.commands) {
        const QStringList words = command.split(QLatin1Char(' '));
        if (words.front() != base)
            continue;
        w.take();
        if (words.size() > 1) {
            if (w.atEnd() || w.peek() != words.at(1))
                return false;
            w.take();
        }
        if (row.launcher != Launcher::Srun)
            lc.launcherWord = command;
        return true;
    }
    return false;
}

// `export A=1 B=$SLURM_PROCID` inside a bash -c string: each NAME=VALUE, as
// written (expanded by the task's own shell). False for any other command.
bool readTaskExports(const ShellCommand &c, QList<QPair<QString, QString>> &out)
{
    static const QRegularExpression assignment(QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$"),
                                               QRegularExpression::DotMatchesEverythingOption);
    const QStringList words = c.texts();
    if (words.size() < 2 || words.front() != QLatin1String("export"))
        return false;
    QList<QPair<QString, QString>> found;
    for (qsizetype i = 1; i < words.size(); ++i) {
        const auto m = assignment.match(words.at(i));
        if (!m.hasMatch())
            return false;
        found << qMakePair(m.captured(1), m.captured(2));
    }
    out << found;
    return true;
}

// bash -c '...': the launch is one of the commands in the string.
bool walkShellString(const QString &code, LaunchCommand &lc, int depth)
{
    ScriptLine sub;
    sub.text = code;
    sub.line = lc.line;
    sub.lastLine = lc.lastLine;
    sub.lineOffsets = {0};
    const ShellLexResult lex = lexShell(code);
    QList<QPair<QString, QString>> exported;   // `export RANK=$SLURM_PROCID` before the program
    for (const auto &c : lex.commands) {
        if (readTaskExports(c, exported))
            continue;
        LaunchCommand trial = lc;
        Walker inner(c, sub);
        if (walk(inner, trial, true, depth + 1) && (trial.isPython() || trial.launcher)) {
            trial.programWordIndex = -1;   // its words are not the script line's
            trial.programLine = lc.line;
            trial.taskVariables = exported;
            lc = trial;
            return true;
        }
    }
    return false;
}

// What one layer of a launch line gave: the launch, proof there is none, or
// a wrapper (srun, a container) with the next layer behind it.
enum class Layer { Launch, NoLaunch, Wrapper };

// torchrun, deepspeed, srun, mpirun ...: srun and per-task launchers wrap the program.
Layer walkLauncher(Walker &w, LaunchCommand &lc, Launcher launcher, const QString &base, bool &wrapped)
{
    const LauncherTraits &row = launcherTraits(launcher);
    if (!takeCommand(w, row, base, lc))
        return Layer::NoLaunch;   // accelerate config, env, test ...
    parseLauncherOptions(w, lc, launcher);
    if (launcher == Launcher::Srun || row.model == ProcessModel::RankPerTask) {
        wrapped = true;   // the program follows, maybe behind a container
        return Layer::Wrapper;
    }
    if (lc.program.isEmpty() && !w.atEnd())
        takeProgram(w, lc);
    return Layer::Launch;
}

// singularity/apptainer exec|run IMAGE ...
Layer walkSingularity(Walker &w, LaunchCommand &lc, const QString &base, bool &wrapped)
{
    w.take();
    if (w.atEnd())
        return Layer::NoLaunch;
    const QString sub = w.take();
    if (sub != QLatin1String("exec") && sub != QLatin1String("run"))
        return Layer::NoLaunch;   // build, pull, inspect ...
    parseContainer(w, lc, base);
    wrapped = true;
    if (sub == QLatin1String("exec"))
        return Layer::Wrapper;
    if (!w.atEnd()) {
        // `run IMG torchrun ...`: the image's runscript usually execs
        // its arguments, so a launcher or interpreter there is the launch.
        const QString next = baseName(w.peek());
        static const QSet<QString> starters = {QStringLiteral("bash"), QStringLiteral("sh"),
                                               QStringLiteral("kernprof")};
        if (launcherOfCommand(next) || starters.contains(next) || isPythonInterpreter(next))
            return Layer::Wrapper;
    }
    lc.programLine = lc.line;
    lc.program = lc.container.image;
    lc.args = w.rest();
    return Layer::Launch;
}

// Any other word: `bash -c '...'` holds the launch in its string; behind a
// wrapper the word is the program; otherwise the line launches nothing.
Layer walkProgram(Walker &w, LaunchCommand &lc, const QString &base, bool wrapped, int depth)
{
    if (base == QLatin1String("bash") || base == QLatin1String("sh")) {
        Walker probe = w;
        probe.take();
        while (!probe.atEnd() && probe.peek().startsWith(QLatin1Char('-')) && !probe.peek().contains(QLatin1Char('c')))
            probe.take();
        if (!probe.atEnd() && probe.peek().startsWith(QLatin1Char('-')) && probe.peek().contains(QLatin1Char('c'))) {
            probe.take();
            if (!probe.atEnd() && walkShellString(probe.peek(), lc, depth))
                return Layer::Launch;
        }
    }
    if (!wrapped)
        return Layer::NoLaunch;
    takeProgram(w, lc);
    return Layer::Launch;
}

Layer walkLayer(Walker &w, LaunchCommand &lc, bool &wrapped, int depth)
{
    const QString word = w.peek();
    const QString base = baseName(word);
    if (const auto launcher = launcherOfCommand(base))
        return walkLauncher(w, lc, *launcher, base, wrapped);
    if (base == QLatin1String("singularity") || base == QLatin1String("apptainer"))
        return walkSingularity(w, lc, base, wrapped);
    if (base == QLatin1String("shifter") || base == QLatin1String("enroot")) {
        w.take();
        if (base == QLatin1String("shifter"))
            parseShifter(w, lc);
        else if (!parseEnrootStart(w, lc))
            return Layer::NoLaunch;
        wrapped = true;
        return Layer::Wrapper;
    }
    if (base == QLatin1String("singularity_wrapper") || base == QLatin1String("apptainer_wrapper")) {
        w.take();
        if (!w.atEnd() && (w.peek() == QLatin1String("exec") || w.peek() == QLatin1String("run")))
            w.take();
        lc.containerWrapper = base;
        wrapped = true;
        return Layer::Wrapper;
    }
    if (isPythonInterpreter(word)) {
        parsePython(w, lc);
        return Layer::Launch;
    }
    if (base == QLatin1String("kernprof")) {
        parseKernprof(w, lc);
        return Layer::Launch;
    }
    return walkProgram(w, lc, base, wrapped, depth);
}

// Unwraps one layer after the other; false when no program launch is found.
bool walk(Walker &w, LaunchCommand &lc, bool wrapped, int depth)
{
    for (int layer = 0; layer < 12 && !w.atEnd() && depth < 4; ++layer) {
        skipPrefixes(w);
        if (w.atEnd())
            break;
        const Layer found = walkLayer(w, lc, wrapped, depth);
        if (found != Layer::Wrapper)
            return found == Layer::Launch;
    }
    return wrapped;
}

}   // namespace

std::optional<LaunchCommand> parseLaunchCommand(const ShellCommand &command, const ScriptLine &line,
                                                const QStringList &unresolved)
{
    LaunchCommand lc;
    lc.line = command.words.isEmpty() ? line.line : line.lineAt(command.words.front().offset);
    lc.lastLine = line.lastLine;
    lc.text = line.text;
    lc.unresolved = unresolved;
    Walker w(command, line);
    if (!walk(w, lc, false, 0))
        return std::nullopt;
    return lc;
}

}   // namespace scalelab
