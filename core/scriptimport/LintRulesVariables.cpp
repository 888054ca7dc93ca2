// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LintRules.h"

#include "core/scriptimport/NameSuggester.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <array>
#include <optional>

// A variable the script uses but never sets expands to nothing. Only a typo
// of a name the script does set (or a clean --export=NONE environment) makes
// that a warning: anything else may come from the submitting shell, a module
// or a sourced file, and is an info.

namespace scalelab {

namespace {

// Names the environment of a batch job has without the script setting them.
// table: one name per line, then the prefixes of whole families
bool isEnvironmentName(const QString &name)
{
    static const QSet<QString> names = {
        "HOME",
        "USER",
        "LOGNAME",
        "PATH",
        "PWD",
        "OLDPWD",
        "HOSTNAME",
        "HOST",
        "SHELL",
        "TMPDIR",
        "TMP",
        "TEMP",
        "LANG",
        "TERM",
        "RANDOM",
        "SECONDS",
        "LINENO",
        "BASH",
        "IFS",
        "PPID",
        "UID",
        "EUID",
        "GROUPS",
        "OSTYPE",
        "HOSTTYPE",
        "MACHTYPE",
        "REPLY",
        "OPTARG",
        "OPTIND",
        "PIPESTATUS",
        "FUNCNAME",
        "DISPLAY",
        "MAIL",
        "EDITOR",
        "CUDA_VISIBLE_DEVICES",
        "ROCR_VISIBLE_DEVICES",
        "HIP_VISIBLE_DEVICES",
        "GPU_DEVICE_ORDINAL",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "LIBRARY_PATH",
        "CPATH",
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONUSERBASE",
        "VIRTUAL_ENV",
        "MODULEPATH",
        "MODULESHOME",
        "LOADEDMODULES",
        "SCRATCH",
        "WORK",
        "WORKDIR",
        "PROJECT",
        "PROJAPPL",
        "WRKDIR",
        "LOCAL_SCRATCH",
        "LOCAL_WORK",
        "TMP_DIR",
        "STORE",
        "DATA",
        "CLUSTER",
        "HF_HOME",
        "TORCH_HOME",
        "XDG_CACHE_HOME",
        "XDG_RUNTIME_DIR",
        "OMP_NUM_THREADS",
        "NCCL_SOCKET_IFNAME",
        "MKL_NUM_THREADS",
        "CC",
        "CXX",
        "FC",
        "MPI_HOME",
        "MPI_ROOT",
        "CUDA_HOME",
        "CUDA_PATH",
        "ROCM_PATH",
        "NVHPC_ROOT",
        "WITH_CONDA",
        "JAVA_HOME",
        "MANPATH",
        "PKG_CONFIG_PATH",
        "HOSTFILE",
        "PE_HOSTFILE",
        "RANK",
        "LOCAL_RANK",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "NODE_RANK",
        "GROUP_RANK",
        "MASTER_ADDR",
        "MASTER_PORT",
    };
    static const QRegularExpression prefixes(QStringLiteral(
        "^(SLURM|SBATCH|SRUN|SALLOC|PMI|PMIX|OMPI|MPI|I_MPI|BASH|LC|CONDA|LMOD|EB|EBROOT|EBVERSION|SINGULARITY|"
        "APPTAINER|SINGULARITYENV|APPTAINERENV|XDG|SSH|NVIDIA|NV|CRAY|PE|PBS|LSB|SGE|MODULE|_ModuleTable|LUMI|CSC|"
        "TACC|NERSC|OLCF|ALCF|HPC|CINECA|JSC|SCRATCH|FLUX|NCCL|RCCL|TORCH|CUDA|HIP|ROCM|MIOPEN|OMP|KMP|MKL|HF|"
        "TRANSFORMERS|WANDB|FI|UCX|GLOO|PET)_"));
    return names.contains(name) || prefixes.match(name).hasMatch();
}

// One pass over a logical line: the $NAME / ${NAME} uses outside single
// quotes, without a default (${X:-y}) or guard (${X:?}) and not positional.
struct Use {
    QString name;
    int offset;
};

QList<Use> variableUses(const QString &t)
{
    QList<Use> out;
    const int n = int(t.size());
    bool dq = false;
    bool wordStart = true;
    for (int i = 0; i < n; ++i) {
        const QChar c = t.at(i);
        if (c == QLatin1Char('\\')) {
            ++i;
            wordStart = false;
            continue;
        }
        if (c == QLatin1Char('\'') && !dq) {
            const int close = int(t.indexOf(QLatin1Char('\''), i + 1));
            if (close < 0)
                break;
            i = close;
            wordStart = false;
            continue;
        }
        if (c == QLatin1Char('"')) {
            dq = !dq;
            wordStart = false;
            continue;
        }
        if (c == QLatin1Char('#') && wordStart && !dq) {
            const int nl = int(t.indexOf(QLatin1Char('\n'), i));
            if (nl < 0)
                break;
            i = nl;
            wordStart = true;
            continue;
        }
        wordStart = c.isSpace() || c == QLatin1Char(';') || c == QLatin1Char('&') || c == QLatin1Char('|')
                    || c == QLatin1Char('(');
        if (c != QLatin1Char('$') || i + 1 >= n)
            continue;
        const QChar next = t.at(i + 1);
        if (next == QLatin1Char('{')) {
            int k = i + 2;
            while (k < n && (t.at(k).isLetterOrNumber() || t.at(k) == QLatin1Char('_')))
                ++k;
            const QString name = t.mid(i + 2, k - i - 2);
            const QChar after = k < n ? t.at(k) : QChar();
            if (!name.isEmpty() && !name.front().isDigit() && (after == QLatin1Char('}') || after == QLatin1Char('[')))
                out << Use{name, i};
            i = k - 1;
        } else if (next.isLetter() || next == QLatin1Char('_')) {
            int k = i + 1;
            while (k < n && (t.at(k).isLetterOrNumber() || t.at(k) == QLatin1Char('_')))
                ++k;
            out << Use{t.mid(i + 1, k - i - 1), i};
            i = k - 1;
        }
    }
    return out;
}

// Every name the script could set, generously: assignments anywhere (also in
// bash -c strings), export/declare/local/readonly, for/select/read/getopts,
// printf -v, mapfile/readarray.
QSet<QString> namesSet(const QString &all)
{
    QSet<QString> out;
    static const QRegularExpression assign(
        QStringLiteral("(?:^|[\\s;&|({'\"`])([A-Za-z_][A-Za-z0-9_]*)(?:\\[[^\\]]*\\])?\\+?="));
    static const QRegularExpression declared(QStringLiteral("\\b(?:export|declare|typeset|local|readonly|unset)((?:[ "
                                                            "\\t]+-[A-Za-z]+)*)((?:[ \\t]+[A-Za-z_][A-Za-z0-9_]*)+)"));
    static const QRegularExpression loop(QStringLiteral("\\b(?:for|select)\\s+\\(?\\(?\\s*([A-Za-z_][A-Za-z0-9_]*)"));
    static const QRegularExpression read(QStringLiteral("\\b(?:read|mapfile|readarray|getopts)\\b([^;&|\\n]*)"));
    static const QRegularExpression printfV(QStringLiteral("\\bprintf\\s+-v\\s+([A-Za-z_][A-Za-z0-9_]*)"));
    static const QRegularExpression ident(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    for (const QRegularExpression *re : {&assign, &loop, &printfV}) {
        auto it = re->globalMatch(all);
        while (it.hasNext())
            out.insert(it.next().captured(1));
    }
    for (const QRegularExpression *re : {&declared, &read}) {
        auto it = re->globalMatch(all);
        while (it.hasNext()) {
            const auto m = it.next();
            auto words = ident.globalMatch(m.captured(m.lastCapturedIndex()));
            while (words.hasNext())
                out.insert(words.next().captured(0));
        }
    }
    return out;
}

// A module, a sourced file, conda or eval can set anything.
bool hasOutsideSetters(const QString &all)
{
    static const QRegularExpression re(
        QStringLiteral("(?:^|[\\s;&|(])(?:source|\\.|module|ml|conda|mamba|micromamba|eval|spack|set\\s+-a)\\s"));
    return re.match(all).hasMatch();
}

enum class LaunchUse { None, Argument, Image, Program };

// Where a launch uses the variable: as (the start of) its program, its
// container image, or one of its other words.
LaunchUse launchUse(const ScriptImport &imp, const QString &name, int line)
{
    const QString plain = QLatin1Char('$') + name;
    const QString braced = QStringLiteral("${") + name + QLatin1Char('}');
    const auto starts = [&](const QString &word) { return word.startsWith(plain) || word.startsWith(braced); };
    for (const LaunchCommand &l : imp.launches) {
        if (line < l.line || line > std::max(l.line, l.lastLine))
            continue;
        if (starts(l.program) || starts(l.interpreter))
            return LaunchUse::Program;
        return starts(l.container.image) ? LaunchUse::Image : LaunchUse::Argument;
    }
    return LaunchUse::None;
}

// A launch whose program (or container image) is a variable nothing sets
// starts nothing: an error. A module or sourced file may set it: then a
// warning for the program, and the usual info for an image or argument
// (site modules do name images in variables). Any other word of a launch
// is a warning.
std::optional<Diagnostic> unsetInLaunch(const ScriptImport &imp, const QString &name, int line, bool outside)
{
    const LaunchUse use = launchUse(imp, name, line);
    if (use == LaunchUse::None || outside)
        return std::nullopt;
    const bool program = use != LaunchUse::Argument;
    const Severity sev = program && !outside ? Severity::Error : Severity::Warning;
    const QString maybe = outside ? QStringLiteral(" unless a module or file the script loads sets it") : QString();
    return finding(
        sev, QStringLiteral("variable-never-set"), program ? QStringLiteral("program") : QString(), line,
        program ? QStringLiteral("The %4 on line %1 is $%2, which the script never sets: it "
                                 "expands to nothing%3, so the launch starts no program. Set %2 before line %1 "
                                 "or write the program out.")
                      .arg(line)
                      .arg(name, maybe,
                           use == LaunchUse::Image ? QStringLiteral("container image") : QStringLiteral("program"))
                : QStringLiteral("The launch on line %1 passes $%2, which the script never sets: it "
                                 "expands to nothing and the argument is lost (it has to come from the "
                                 "submitting shell). Set %2 in the script.")
                      .arg(line)
                      .arg(name));
}

}   // namespace

int editDistance(const QString &a, const QString &b, int cap)
{
    if (std::abs(int(a.size()) - int(b.size())) > cap)
        return cap + 1;
    // Two rows on the stack for names (the usual words), on the heap beyond.
    constexpr qsizetype kOnStack = 128;
    std::array<int, kOnStack> stackPrev{}, stackCur{};
    QList<int> heapPrev, heapCur;
    int *prev = stackPrev.data();
    int *cur = stackCur.data();
    if (b.size() + 1 > kOnStack) {
        heapPrev.resize(b.size() + 1);
        heapCur.resize(b.size() + 1);
        prev = heapPrev.data();
        cur = heapCur.data();
    }
    for (int j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (int i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        int rowMin = cur[0];
        for (int j = 1; j <= b.size(); ++j) {
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a.at(i - 1) == b.at(j - 1) ? 0 : 1)});
            rowMin = std::min(rowMin, cur[j]);
        }
        if (rowMin > cap)
            return cap + 1;
        std::swap(prev, cur);
    }
    return std::min(prev[b.size()], cap + 1);
}

void lintUnsetVariables(ScriptImport &imp)
{
    QString all;
    for (const ScriptLine &sl : imp.lines)
        all += sl.text + QLatin1Char('\n');
    const QSet<QString> set = namesSet(all);
    const bool outside = hasOutsideSetters(all);
    const SbatchOption *exp = imp.option(QStringLiteral("export"));
    const bool cleanEnv = exp && exp->value.trimmed().startsWith(QLatin1String("NONE"), Qt::CaseInsensitive);
    QSet<QString> reported;
    NameSuggester suggester(set);
    for (const ScriptLine &sl : imp.lines) {
        for (const Use &u : variableUses(sl.text)) {
            if (set.contains(u.name) || reported.contains(u.name) || isEnvironmentName(u.name))
                continue;
            reported.insert(u.name);
            if (reported.size() > 100)
                return;   // a generated or hostile script: enough said
            // Did you mean: a name the script sets that differs by a typo
            // (bounded work: see NameSuggester).
            const QString best = suggester.suggest(u.name);
            const int line = sl.lineAt(u.offset);
            if (!best.isEmpty()) {
                imp.diagnostics << finding(
                    Severity::Warning, QStringLiteral("variable-never-set"), QString(), line,
                    QStringLiteral("$%1 is used on line %2 but the script never sets it, so it expands to nothing. "
                                   "Did you mean $%3 (set in the script)?")
                        .arg(u.name)
                        .arg(line)
                        .arg(best));
            } else if (const auto d = unsetInLaunch(imp, u.name, line, outside)) {
                imp.diagnostics << *d;
            } else if (cleanEnv && !outside) {
                imp.diagnostics << finding(
                    Severity::Warning, QStringLiteral("variable-never-set"), QString(), line,
                    QStringLiteral("$%1 is used on line %2 but nothing sets it: --export=NONE keeps the submitting "
                                   "shell's variables out and the script loads no module or file that could. Set it "
                                   "in the script.")
                        .arg(u.name)
                        .arg(line));
            } else {
                imp.diagnostics << finding(
                    Severity::Info, QStringLiteral("variable-never-set"), QString(), line,
                    QStringLiteral("$%1 (line %2) is not set in the script; it has to come from %3, or it expands "
                                   "to nothing.")
                        .arg(u.name)
                        .arg(line)
                        .arg(outside ? QStringLiteral("a module or file the script loads, or the submitting shell")
                                     : QStringLiteral("the submitting shell (sbatch copies its environment)")));
            }
        }
    }
}

}   // namespace scalelab
