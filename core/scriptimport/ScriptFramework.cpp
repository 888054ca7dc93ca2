// SPDX-License-Identifier: GPL-3.0-or-later
// The framework of the job, from the evidence the script gives: the
// arguments (--deepspeed, --deepspeed_config), the modules the program
// imports when it is a local file, the program's name, the modules the
// script loads, the names of the variables it exports, and the launcher.
// Evidence that conflicts is named on both sides ("unsure"), never
// silently resolved.
#include "core/scriptimport/ScriptFramework.h"

#include "core/compose/SbatchRenderer.h"
#include "core/model/Launcher.h"

#include <QRegularExpression>

#include <algorithm>

namespace scalelab::scriptimport {

namespace {

// What a clue names: an exact framework, or a family whose member the
// process layout decides (TensorFlow: mirrored or multi-worker; PyTorch:
// DataParallel or DDP).
enum class Family { DeepSpeed, Lightning, Horovod, Jax, TensorFlow, PyTorch };

struct Clue {
    Family family;
    QString said;   // "the program imports jax", for the summary
};

bool exact(Family f)
{
    return f != Family::TensorFlow && f != Family::PyTorch;
}

Framework frameworkOf(Family f)
{
    switch (f) {
    case Family::DeepSpeed:
        return Framework::DeepSpeed;
    case Family::Lightning:
        return Framework::Lightning;
    case Family::Horovod:
        return Framework::Horovod;
    case Family::Jax:
        return Framework::Jax;
    case Family::TensorFlow:
        return Framework::TfMirrored;
    case Family::PyTorch:
        break;
    }
    return Framework::PytorchDdp;
}

QString familyName(Family f)
{
    switch (f) {
    case Family::TensorFlow:
        return QStringLiteral("TensorFlow");
    case Family::PyTorch:
        return QStringLiteral("PyTorch");
    default:
        return frameworkName(frameworkOf(f));
    }
}

// Two clues can describe one job: DeepSpeed, Lightning and Horovod run on
// PyTorch, Horovod on TensorFlow too.
bool compatible(Family a, Family b)
{
    if (a == b)
        return true;
    const auto onTorch = [](Family f) {
        return f == Family::DeepSpeed || f == Family::Lightning || f == Family::Horovod;
    };
    if ((a == Family::PyTorch && onTorch(b)) || (b == Family::PyTorch && onTorch(a)))
        return true;
    return (a == Family::TensorFlow && b == Family::Horovod) || (b == Family::TensorFlow && a == Family::Horovod);
}

// table: words in a program, module or imported package name and the family they name (first match wins)
const QList<QPair<QRegularExpression, Family>> &nameTable()
{
    static const auto ci = QRegularExpression::CaseInsensitiveOption;
    static const QList<QPair<QRegularExpression, Family>> table = {
        {QRegularExpression(QStringLiteral("deepspeed"), ci), Family::DeepSpeed},
        {QRegularExpression(QStringLiteral("lightning"), ci), Family::Lightning},
        {QRegularExpression(QStringLiteral("horovod|(^|[^a-z])hvd([^a-z]|$)"), ci), Family::Horovod},
        {QRegularExpression(QStringLiteral("(^|[^a-z])(jax|jaxlib|flax|optax)([^a-z]|$)"), ci), Family::Jax},
        {QRegularExpression(QStringLiteral("tensorflow|keras|(^|[^a-z0-9])tf2?([^a-z0-9]|$)"), ci), Family::TensorFlow},
        {QRegularExpression(QStringLiteral("torch"), ci), Family::PyTorch},
    };
    return table;
}

std::optional<Family> familyOfName(const QString &name)
{
    for (const auto &[re, family] : nameTable())
        if (re.match(name).hasMatch())
            return family;
    return std::nullopt;
}

// table: prefixes of environment variable names a framework reads
std::optional<Family> familyOfVariable(const QString &name)
{
    static const QList<QPair<QString, Family>> prefixes = {
        {QStringLiteral("HOROVOD_"), Family::Horovod},
        {QStringLiteral("DEEPSPEED_"), Family::DeepSpeed},
        {QStringLiteral("JAX_"), Family::Jax},
        {QStringLiteral("XLA_PYTHON_"), Family::Jax},
        {QStringLiteral("PL_"), Family::Lightning},
        {QStringLiteral("TF_"), Family::TensorFlow},
        {QStringLiteral("PYTORCH_"), Family::PyTorch},
        {QStringLiteral("TORCH_"), Family::PyTorch},
        {QStringLiteral("TORCHELASTIC_"), Family::PyTorch},
    };
    for (const auto &[prefix, family] : prefixes)
        if (name.startsWith(prefix))
            return family;
    return std::nullopt;
}

// The top-level packages a Python file imports, in order, each once.
QStringList importedPackages(const QString &source)
{
    static const QRegularExpression imp(QStringLiteral("^[ \\t]*(?:import|from)[ \\t]+([A-Za-z_][A-Za-z0-9_]*)"),
                                        QRegularExpression::MultilineOption);
    QStringList out;
    for (auto it = imp.globalMatch(source); it.hasNext();)
        if (const QString p = it.next().captured(1); !out.contains(p))
            out << p;
    return out;
}

// Every clue (a noun phrase that "names" a framework in a sentence),
// strongest source first: arguments, the program's imports,
// its name, the modules loaded, the variables exported.
QList<Clue> gatherClues(const LaunchCommand &l, const JobSpec &spec, const std::optional<QString> &programSource)
{
    QList<Clue> clues;
    for (const QString &a : l.args) {
        const QString name = a.section(QLatin1Char('='), 0, 0);
        if (name == QLatin1String("--deepspeed") || name == QLatin1String("--deepspeed_config")
            || name == QLatin1String("--deepspeed-config"))
            clues << Clue{Family::DeepSpeed, QStringLiteral("the argument %1").arg(name)};
        else if (a.contains(QLatin1String("horovod"), Qt::CaseInsensitive))
            clues << Clue{Family::Horovod, QStringLiteral("the arguments name Horovod")};
    }
    if (programSource)
        for (const QString &p : importedPackages(*programSource))
            if (const auto f = familyOfName(p))
                clues << Clue{*f, QStringLiteral("the program's import of %1").arg(p)};
    const QString program = l.program.section(QLatin1Char('/'), -1);
    if (program != QLatin1String("-m"))
        if (const auto f = familyOfName(program))
            clues << Clue{*f, QStringLiteral("the program's name %1").arg(program)};
    for (const QString &m : spec.environment.modules)
        if (const auto f = familyOfName(m))
            clues << Clue{*f, QStringLiteral("module %1").arg(m)};
    for (const auto &[name, value] : spec.environment.variables)
        if (const auto f = familyOfVariable(name))
            clues << Clue{*f, QStringLiteral("the variable %1").arg(name)};
    return clues;
}

// The framework a script composed by ScaleLab names in its header
// ("# Composed by ScaleLab ...", then "# JAX on 8 GPU(s): ...").
std::optional<Framework> composedFramework(const QString &text)
{
    const QStringList head = text.left(4096).split(QLatin1Char('\n')).mid(0, 4);
    for (qsizetype i = 0; i + 1 < head.size(); ++i) {
        if (!head.at(i).startsWith(QLatin1String(kComposedHeader)))
            continue;
        for (Framework f : allFrameworks())
            if (head.at(i + 1).startsWith(QStringLiteral("# %1 on ").arg(frameworkName(f))))
                return f;
    }
    return std::nullopt;
}

// Evidence of a family (TensorFlow or PyTorch) that the launcher's own framework cannot be.
bool familyFitsLauncher(const FrameworkEvidence &e, Framework launcherFramework)
{
    const bool tfLauncher = launcherFramework == Framework::TfMirrored || launcherFramework == Framework::TfMultiWorker;
    const bool torchLauncher = launcherFramework == Framework::PytorchDdp || launcherFramework == Framework::DeepSpeed
                               || launcherFramework == Framework::Lightning
                               || launcherFramework == Framework::DataParallel;
    return e.tensorflow ? !torchLauncher : !tfLauncher;
}

}   // namespace

// A launcher names its framework, unless the evidence names another it starts.
void ScriptFramework::launcherFramework(ScriptImport &imp, const LaunchCommand &l, const FrameworkEvidence &e,
                                        QString *why)
{
    auto &spec = imp.spec;
    const LauncherTraits &row = launcherTraits(*l.launcher);
    spec.launcher = row.composedAs;
    spec.framework = row.framework;
    const bool fits = e.found && e.exact
                      && (launchersFor(e.framework).contains(row.composedAs)
                          || (e.framework == Framework::DeepSpeed && row.argsNameDeepSpeed));
    if (fits) {
        spec.framework = e.framework;
        *why = QStringLiteral("%1 names %2, started by %3").arg(e.said, e.familyName, l.launcherWord);
    } else {
        *why = QStringLiteral("%1 starts the processes").arg(l.launcherWord);
        if (!row.frameworkGuess.isEmpty()) {
            *why = row.frameworkGuess;
            imp.frameworkGuessed = true;
        }
    }
    if (e.found && !fits && (e.exact || !familyFitsLauncher(e, row.framework)))
        imp.frameworkUnsure = QStringLiteral("%1 starts %2, but %3 suggests %4")
                                  .arg(l.launcherWord, frameworkName(row.framework), e.said, e.familyName);
    else if (e.found && !e.conflict.isEmpty())
        imp.frameworkUnsure = QStringLiteral("%1 suggests %2, but %3").arg(e.said, e.familyName, e.conflict);
}

void ScriptFramework::derive(ScriptImport &imp, const LaunchCommand &l, const QString &text,
                             const std::optional<QString> &programSource)
{
    auto &spec = imp.spec;
    const FrameworkEvidence e = weighEvidence(l, text, spec, programSource);
    QString why;
    if (l.launcher) {
        launcherFramework(imp, l, e, &why);
    } else {
        spec.launcher = Launcher::Srun;
        spec.framework = srunFramework(l, imp.request, e, &why);
        imp.frameworkGuessed = true;
        if (!e.conflict.isEmpty())
            imp.frameworkUnsure = QStringLiteral("%1 suggests %2, but %3").arg(e.said, e.familyName, e.conflict);
    }
    imp.frameworkEvidence = why;
    if (!imp.frameworkUnsure.isEmpty())
        imp.diagnostics << finding(
            Severity::Info, QStringLiteral("framework-unsure"), QStringLiteral("framework"), l.line,
            QStringLiteral("The framework is unsure: %1. Imported as %2; change it in the form if the "
                           "program uses the other.")
                .arg(imp.frameworkUnsure, frameworkName(spec.framework)));
    if (imp.frameworkGuessed)
        imp.diagnostics << finding(
            Severity::Info, QStringLiteral("framework-guessed"), QStringLiteral("framework"), l.line,
            QStringLiteral("No launcher names the framework; guessed %1 because %2. Change it if the "
                           "program does something else.")
                .arg(frameworkName(spec.framework), why));
}

// The strongest clue decides: an exact framework before a family, the
// stronger source first; a clue that cannot describe the same job makes
// the choice unsure, with both named.
FrameworkEvidence ScriptFramework::weighEvidence(const LaunchCommand &l, const QString &text, const JobSpec &spec,
                                                 const std::optional<QString> &programSource)
{
    FrameworkEvidence e;
    if (const auto composed = composedFramework(text)) {
        e.found = e.exact = true;
        e.framework = *composed;
        e.familyName = frameworkName(*composed);
        e.said = QStringLiteral("the header ScaleLab wrote");
        return e;
    }
    const QList<Clue> clues = gatherClues(l, spec, programSource);
    const auto decider = std::find_if(clues.begin(), clues.end(), [](const Clue &c) { return exact(c.family); });
    const Clue *d = decider != clues.end() ? &*decider : (clues.isEmpty() ? nullptr : &clues.front());
    if (!d)
        return e;
    e.found = true;
    e.exact = exact(d->family);
    e.framework = frameworkOf(d->family);
    e.familyName = familyName(d->family);
    e.tensorflow = d->family == Family::TensorFlow;
    e.said = d->said;
    for (const Clue &c : clues) {
        if (!compatible(c.family, d->family)) {
            e.conflict = QStringLiteral("%1 suggests %2").arg(c.said, familyName(c.family));
            break;
        }
    }
    return e;
}

Framework ScriptFramework::srunFramework(const LaunchCommand &l, const ScriptRequest &r, const FrameworkEvidence &e,
                                         QString *why)
{
    const QString all = (QStringList{l.program} + l.args).join(QLatin1Char(' '));
    const int perNode = l.underSrun ? std::max(1, l.srunTasksPerNode > 0 ? l.srunTasksPerNode : r.tasksPerNode) : 1;
    const bool acrossNodes = perNode > 1 || (l.underSrun && r.effectiveNodes() > 1);
    if (e.found && e.exact) {
        *why = QStringLiteral("%1 names %2").arg(e.said, e.familyName);
        return e.framework;
    }
    if (all.contains(QLatin1String("multi_worker"), Qt::CaseInsensitive)
        || all.contains(QLatin1String("multiworker"), Qt::CaseInsensitive)) {
        *why = QStringLiteral("the arguments name a multi-worker strategy");
        return Framework::TfMultiWorker;
    }
    if (all.contains(QLatin1String("mirrored"), Qt::CaseInsensitive)) {
        *why = QStringLiteral("the arguments ask for the mirrored distribution strategy");
        return Framework::TfMirrored;
    }
    const QString layout = perNode > 1   ? QStringLiteral("srun starts %1 processes per node").arg(perNode)
                           : acrossNodes ? QStringLiteral("one process per node")
                                         : QStringLiteral("a single process");
    if (e.found && e.conflict.isEmpty()) {
        *why = QStringLiteral("%1 names %2 and %3 runs").arg(e.said, e.familyName, layout);
        if (e.tensorflow)
            return acrossNodes ? Framework::TfMultiWorker : Framework::TfMirrored;
        return acrossNodes ? Framework::PytorchDdp : Framework::DataParallel;
    }
    if (perNode > 1) {
        *why = QStringLiteral("srun starts %1 processes per node, one per GPU, as DDP does").arg(perNode);
        return Framework::PytorchDdp;
    }
    if (l.underSrun && r.effectiveNodes() > 1) {
        *why = QStringLiteral("one process per node drives all of that node's GPUs");
        return Framework::TfMultiWorker;
    }
    *why = r.gpus > 1 ? QStringLiteral("a single process drives all %1 GPUs").arg(r.gpus)
                      : QStringLiteral("a single process on one GPU");
    return Framework::DataParallel;
}

}   // namespace scalelab::scriptimport
