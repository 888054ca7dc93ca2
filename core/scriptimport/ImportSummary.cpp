// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/ImportSummary.h"

#include "core/model/LaunchGeometry.h"
#include "core/model/SpecFields.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

// What a researcher should know after an import: the job in the form is not
// the script, and the differences are listed here rather than discovered
// after the first run.

namespace scalelab {

namespace {

Diagnostic note(const QString &rule, const QString &field, int line, const QString &message)
{
    return finding(Severity::Info, rule, field, line, message);
}

// "data/train", "configs/a.yaml", "./run.py": a path the job resolves against
// its working directory. Not options, variables, absolute paths or URLs.
bool isRelativePath(const QString &word)
{
    if (word.isEmpty() || word.startsWith(QLatin1Char('/')) || word.startsWith(QLatin1Char('$'))
        || word.startsWith(QLatin1Char('~')) || word.startsWith(QLatin1Char('-')) || word.contains(QLatin1String("://"))
        || word.contains(QLatin1Char('$')) || word.contains(QLatin1Char(' ')) || word == QLatin1String("-m"))
        return false;
    static const QRegularExpression file(
        QStringLiteral("(^\\.{1,2}/|/|\\.(py|sh|yaml|yml|json|toml|cfg|ini|txt|csv|sif|pt|pth|ckpt)$)"));
    static const QRegularExpression number(QStringLiteral("^[0-9.:/eE+-]+$"));   // 1/2, 3e-4, 10:00
    return file.match(word).hasMatch() && !number.match(word).hasMatch();
}

QString optionLines(const QList<const SbatchOption *> &opts)
{
    QStringList out;
    for (const SbatchOption *o : opts)
        out << QStringLiteral("%1 (line %2)").arg(o->written).arg(o->line);
    return out.join(QStringLiteral(", "));
}

}   // namespace

std::optional<SiteGuess> recogniseSite(const ScriptImport &imp, const QList<ClusterProfile> &profiles,
                                       const QString &currentId)
{
    QString text;
    for (const ScriptLine &sl : imp.lines)
        text += sl.text + QLatin1Char('\n');
    auto score = [&](const ClusterProfile &p, QStringList *reasons) {
        int s = 0;
        if (!imp.spec.partition.isEmpty() && p.partition(imp.spec.partition)) {
            s += 2;
            reasons->append(QStringLiteral("partition %1").arg(imp.spec.partition));
        }
        if (!imp.spec.account.isEmpty() && !p.accountPattern.isEmpty()) {
            const QRegularExpression re(p.accountPattern);
            if (re.isValid() && re.match(imp.spec.account).hasMatch()) {
                s += 2;
                reasons->append(QStringLiteral("account %1").arg(imp.spec.account));
            }
        }
        // The modules already counted in a set: a script loading ten thousand
        // modules must not search its list of reasons for each.
        QSet<QString> counted;
        for (const QString &m : imp.spec.environment.modules)
            for (const QString &d : p.defaultModules)
                if (m.section(QLatin1Char('/'), 0, 0).compare(d.section(QLatin1Char('/'), 0, 0), Qt::CaseInsensitive)
                        == 0
                    && !counted.contains(m)) {
                    counted.insert(m);
                    s += 1;
                    reasons->append(QStringLiteral("module %1").arg(m));
                }
        // A site's name in a path or module ("/appl/local/lumi", "LUMI/23.09").
        if (p.id.size() >= 3
            && QRegularExpression(QStringLiteral("(^|[^A-Za-z])%1([^A-Za-z]|$)").arg(QRegularExpression::escape(p.id)),
                                  QRegularExpression::CaseInsensitiveOption)
                   .match(text)
                   .hasMatch()) {
            s += 1;
            reasons->append(QStringLiteral("\"%1\" in the commands").arg(p.id));
        }
        if (!imp.request.gpuType.isEmpty() && std::any_of(p.gpuTypes.begin(), p.gpuTypes.end(), [&](const GpuType &g) {
                return g.id == imp.request.gpuType;
            })) {
            s += 1;
            reasons->append(QStringLiteral("GPU type %1").arg(imp.request.gpuType));
        }
        return s;
    };
    int currentScore = 0;
    std::optional<SiteGuess> best;
    int bestScore = 0;
    bool tie = false;
    for (const ClusterProfile &p : profiles) {
        QStringList reasons;
        const int s = score(p, &reasons);
        if (p.id == currentId) {
            currentScore = s;
            continue;
        }
        if (s > bestScore) {
            best = SiteGuess{p.id, p.name.isEmpty() ? p.id : p.name, reasons};
            bestScore = s;
            tie = false;
        } else if (s == bestScore && s > 0) {
            tie = true;
        }
    }
    if (!best || tie || bestScore < 2 || bestScore <= currentScore)
        return std::nullopt;
    return best;
}

namespace {

// #SBATCH options the job has no place for, and --chdir.
void noteDroppedOptions(const ScriptImport &imp, Diagnostics &out)
{
    static const QSet<QString> kept = {"account",    "partition",       "job-name",      "time",         "nodes",
                                       "ntasks",     "ntasks-per-node", "cpus-per-task", "cpus-per-gpu", "gres",
                                       "gpus",       "gpus-per-node",   "gpus-per-task", "mem",          "mem-per-cpu",
                                       "mem-per-gpu"};
    QList<const SbatchOption *> dropped;
    for (const SbatchOption &o : imp.options)
        if (!kept.contains(o.name) && !carriedSlurmOptions().contains(o.name))
            dropped << &o;
    if (!dropped.isEmpty())
        out << note(QStringLiteral("import-dropped"), QString(), dropped.front()->line,
                    QStringLiteral("Not carried over (ScaleLab writes its own output files and leaves the rest to "
                                   "you): %1.")
                        .arg(optionLines(dropped)));
    if (const SbatchOption *o = imp.option(QStringLiteral("chdir")))
        out << note(QStringLiteral("relative-path"), QString(), o->line,
                    QStringLiteral("%1=%2 is dropped: the job runs in ScaleLab's run directory, so relative paths no "
                                   "longer start from %2.")
                        .arg(o->written, o->value));
}

// Commands: kept as setup, turned into modules/variables, the launch, or left out.
void noteLeftOutCommands(const ScriptImport &imp, Diagnostics &out)
{
    const JobSpec &spec = imp.spec;
    const LaunchCommand *l = imp.launch();
    QStringList leftOut;
    QSet<QString> leftOutSeen;   // a script of distinct commands: no list search per line
    int firstLeftOut = 0;
    static const QRegularExpression moduleLine(QStringLiteral("^\\s*(module|ml)\\s"));
    static const QRegularExpression exportLine(QStringLiteral("^\\s*export\\s"));
    // A line is kept as setup when one of its commands became a setup entry
    // (looked up by line: comparing every line with every entry was
    // quadratic), or when it repeats an entry word for word.
    const QSet<QString> setupTexts(spec.environment.setup.cbegin(), spec.environment.setup.cend());
    for (const ScriptLine &sl : imp.lines) {
        if (l && sl.line <= l->line && sl.lastLine >= l->line)
            continue;
        const QString first = sl.text.trimmed();
        const auto entry = std::lower_bound(imp.setupLines.cbegin(), imp.setupLines.cend(), sl.line);
        const bool setup = (entry != imp.setupLines.cend() && *entry <= sl.lastLine) || setupTexts.contains(first);
        if (setup || moduleLine.match(sl.text).hasMatch() || exportLine.match(sl.text).hasMatch())
            continue;
        // The command word: up to the first blank (a regex built per line cost
        // half of a whole lint, compiled anew each time).
        const qsizetype blank =
            std::find_if(first.begin(), first.end(), [](QChar c) { return c.isSpace(); }) - first.begin();
        const QString word = first.left(blank);
        if (!leftOutSeen.contains(word)) {
            leftOutSeen.insert(word);
            leftOut << word;
        }
        if (!firstLeftOut)
            firstLeftOut = sl.line;
    }
    if (!leftOut.isEmpty())
        out << note(QStringLiteral("import-dropped"), QString(), firstLeftOut,
                    QStringLiteral("Commands left out of the job (logging, monitoring, control flow or after the "
                                   "launch): %1. Add them as setup lines if the job needs them.")
                        .arg(leftOut.mid(0, 8).join(QStringLiteral(", "))
                             + (leftOut.size() > 8 ? QStringLiteral(" ...") : QString())));
}

// What became of the launch: a launcher replaced, a wrapper left out, arguments only sbatch knows.
void noteChangedLaunch(const ScriptImport &imp, const LaunchCommand *l, Diagnostics &out)
{
    const JobSpec &spec = imp.spec;
    if (l->launcher && !launcherTraits(*l->launcher).composable)
        out << note(QStringLiteral("import-changed"), QStringLiteral("launcher"), l->line,
                    QStringLiteral("%1 becomes %2: ScaleLab starts the same torch.distributed workers itself, "
                                   "one per GPU.")
                        .arg(l->launcherWord, launcherId(launcherTraits(*l->launcher).composedAs)));
    if (!l->containerWrapper.isEmpty())
        out << note(QStringLiteral("import-changed"), QStringLiteral("environment.container.image"), l->line,
                    QStringLiteral("%1 chooses its image from the loaded module; ScaleLab keeps the modules but not "
                                   "the wrapper. Set the container image if the job needs it.")
                        .arg(l->containerWrapper));
    static const QRegularExpression scriptArgs(QStringLiteral("^\\$(\\*|@|\\{[@*]\\})$"));
    const QStringList words = QStringList{spec.program} + spec.args;
    if (std::any_of(words.begin(), words.end(), [](const QString &w) { return scriptArgs.match(w).hasMatch(); }))
        out << note(QStringLiteral("import-changed"), QStringLiteral("args"), l->line,
                    QStringLiteral("The script passes on its own arguments ($@ / $*); they are only known when "
                                   "sbatch is run. Put the arguments in the form."));
    if (std::any_of(spec.args.begin(), spec.args.end(),
                    [](const QString &w) { return w.contains(QLatin1String("$(")) || w.contains(QLatin1Char('`')); }))
        out << note(QStringLiteral("import-changed"), QStringLiteral("args"), l->line,
                    QStringLiteral("An argument computes a value with $(...) or `...`; ScaleLab passes it as written, "
                                   "not computed. Put the value in the form."));
    if (std::any_of(words.begin(), words.end(), [](const QString &w) { return w.contains(QLatin1Char('\n')); }))
        out << note(QStringLiteral("import-changed"), QStringLiteral("args"), l->line,
                    QStringLiteral("The command spans several lines inside a quoted string; ScaleLab keeps the "
                                   "program and its arguments, one argument per word. Check them in the form."));
}

// Relative paths of the program and its arguments: they resolve on the cluster, not where the script was.
void noteRelativePaths(const ScriptImport &imp, const LaunchCommand *l, Diagnostics &out)
{
    const JobSpec &spec = imp.spec;
    QStringList relative;
    if (isRelativePath(spec.program) && isRelativePath(l->program) && l->containerWrapper.isEmpty())
        relative << spec.program;
    for (const QString &a : spec.args) {
        const QString v =
            a.contains(QLatin1Char('=')) && a.startsWith(QLatin1Char('-')) ? a.section(QLatin1Char('='), 1) : a;
        if (isRelativePath(v) && !relative.contains(v))
            relative << v;
    }
    if (!relative.isEmpty())
        out << note(QStringLiteral("relative-path"), QStringLiteral("program"),
                    l->programLine ? l->programLine : l->line,
                    QStringLiteral("Relative paths: %1. They resolve against the job's working directory on the "
                                   "cluster (ScaleLab's run directory; the program is looked up under $HOME), not the "
                                   "folder the script was written in. Use full paths on the cluster.")
                        .arg(relative.join(QStringLiteral(", "))));
}

// The request the composed job makes (ScaleLab's geometry for the spec)
// against the script's own: each count that changes, with both values.
void noteResources(const ScriptImport &imp, const ClusterProfile &profile, Diagnostics &out)
{
    if (!imp.launch())
        return;
    const ScriptRequest &r = imp.request;
    const LaunchGeometry g = computeGeometry(imp.spec, profile);
    const int nodes = r.effectiveNodes();
    struct Count {
        const char *name;
        const char *field;
        long long script;
        long long composed;
    };
    const Count counts[] = {
        {"nodes", "nodes", nodes, g.nodes},
        {"gpus", "gpus", r.gpus, static_cast<long long>(g.gpusPerNode) * g.nodes},
        {"tasks", "launcher", r.tasks, static_cast<long long>(g.tasksPerNode) * g.nodes},
        {"cpus", SpecField::cpusPerGpu, static_cast<long long>(r.cpusPerNode()) * nodes,
         static_cast<long long>(g.cpusPerTask) * g.tasksPerNode * g.nodes},
    };
    QStringList changed;
    const char *field = nullptr;
    for (const Count &c : counts) {
        if (c.script == c.composed)
            continue;
        changed << QStringLiteral("%1 %2 -> %3").arg(QLatin1String(c.name)).arg(c.script).arg(c.composed);
        field = field ? field : c.field;
    }
    field = field ? field : "nodes";
    if (r.nodes == 0 && !r.nodesImplied)
        changed << QStringLiteral("nodes not given (Slurm picks) -> %1").arg(g.nodes);
    if (!changed.isEmpty())
        out << note(QStringLiteral("import-resources"), QLatin1String(field), imp.lineOf(QLatin1String(field)),
                    QStringLiteral("The job ScaleLab composes asks Slurm for other counts than the script (%1): "
                                   "one task per GPU or per node as %2 starts it, and CPUs from the form. Check "
                                   "them in the form.")
                        .arg(changed.join(QStringLiteral(", ")), frameworkName(imp.spec.framework)));
}

// Which evidence decided the framework, and both sides when it conflicts.
void noteFramework(const ScriptImport &imp, const LaunchCommand *l, Diagnostics &out)
{
    const QString name = frameworkName(imp.spec.framework);
    out << note(QStringLiteral("import-framework"), QStringLiteral("framework"), l->line,
                imp.frameworkUnsure.isEmpty()
                    ? QStringLiteral("Framework %1: %2.").arg(name, imp.frameworkEvidence)
                    : QStringLiteral("Framework unsure: %1. Imported as %2 (%3); check it in the form.")
                          .arg(imp.frameworkUnsure, name, imp.frameworkEvidence));
}

}   // namespace

Diagnostics importSummary(const ScriptImport &imp, const ClusterProfile &profile)
{
    Diagnostics out;
    noteResources(imp, profile, out);
    noteDroppedOptions(imp, out);
    noteLeftOutCommands(imp, out);
    const LaunchCommand *l = imp.launch();
    if (!l)
        return out;
    noteFramework(imp, l, out);
    noteChangedLaunch(imp, l, out);
    noteRelativePaths(imp, l, out);
    return out;
}

}   // namespace scalelab
