#include "core/scriptimport/LintRules.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

// Rules about the script as text: what Slurm reads from a time string, the
// variables it uses, where its output goes and the ports it fixes. They are
// built for precision: a finding is a warning only when the script itself
// shows the mistake; anything that depends on the world outside the script
// (the submitting shell, a module, the site) is an info.

namespace scalelab {

namespace {

bool anyRule(const ScriptImport &imp, const QString &rule, int line)
{
    return std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(),
                       [&](const Diagnostic &d) { return d.rule == rule && (line < 0 || d.line == line); });
}

// Partitions meant for short runs: a few minutes there are on purpose.
bool isShortRunPartition(const QString &name, const Partition *p)
{
    static const QRegularExpression re(QStringLiteral("test|debug|dev|interactive|quick|short"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(name).hasMatch() || (p && p->maxTimeSeconds > 0 && p->maxTimeSeconds <= 3600);
}

QString minutesText(int minutes, int seconds)
{
    QString t = minutes == 1 ? QStringLiteral("1 minute") : QStringLiteral("%1 minutes").arg(minutes);
    if (seconds > 0)
        t += seconds == 1 ? QStringLiteral(" 1 second") : QStringLiteral(" %1 seconds").arg(seconds);
    return t;
}

// Names the environment of a batch job has without the script setting them.
bool isEnvironmentName(const QString &name)
{
    static const QSet<QString> names = {
        "HOME", "USER", "LOGNAME", "PATH", "PWD", "OLDPWD", "HOSTNAME", "HOST", "SHELL", "TMPDIR", "TMP", "TEMP",
        "LANG", "TERM", "RANDOM", "SECONDS", "LINENO", "BASH", "IFS", "PPID", "UID", "EUID", "GROUPS", "OSTYPE",
        "HOSTTYPE", "MACHTYPE", "REPLY", "OPTARG", "OPTIND", "PIPESTATUS", "FUNCNAME", "DISPLAY", "MAIL", "EDITOR",
        "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL",
        "LD_LIBRARY_PATH", "LD_PRELOAD", "LIBRARY_PATH", "CPATH", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE",
        "VIRTUAL_ENV", "MODULEPATH", "MODULESHOME", "LOADEDMODULES", "SCRATCH", "WORK", "WORKDIR", "PROJECT",
        "PROJAPPL", "WRKDIR", "LOCAL_SCRATCH", "LOCAL_WORK", "TMP_DIR", "STORE", "DATA", "CLUSTER", "HF_HOME",
        "TORCH_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "OMP_NUM_THREADS", "NCCL_SOCKET_IFNAME", "MKL_NUM_THREADS",
        "CC", "CXX", "FC", "MPI_HOME", "MPI_ROOT", "CUDA_HOME", "CUDA_PATH", "ROCM_PATH", "NVHPC_ROOT",
        "WITH_CONDA", "JAVA_HOME", "MANPATH", "PKG_CONFIG_PATH", "HOSTFILE", "PE_HOSTFILE", "RANK", "LOCAL_RANK",
        "WORLD_SIZE", "LOCAL_WORLD_SIZE", "NODE_RANK", "GROUP_RANK", "MASTER_ADDR", "MASTER_PORT",
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
    static const QRegularExpression assign(QStringLiteral("(?:^|[\\s;&|({'\"`])([A-Za-z_][A-Za-z0-9_]*)(?:\\[[^\\]]*\\])?\\+?="));
    static const QRegularExpression declared(
        QStringLiteral("\\b(?:export|declare|typeset|local|readonly|unset)((?:[ \\t]+-[A-Za-z]+)*)((?:[ \\t]+[A-Za-z_][A-Za-z0-9_]*)+)"));
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

} // namespace

int editDistance(const QString &a, const QString &b, int cap)
{
    if (std::abs(int(a.size()) - int(b.size())) > cap)
        return cap + 1;
    QList<int> prev(b.size() + 1), cur(b.size() + 1);
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

const Partition *importPartition(const ScriptImport &imp, const ClusterProfile &profile)
{
    return imp.spec.partition.isEmpty() ? profile.defaultPartition() : profile.partition(imp.spec.partition);
}

void lintTimeLimit(ScriptImport &imp, const ClusterProfile &profile)
{
    const SbatchOption *o = imp.option(QStringLiteral("time"));
    if (!o || !o->hasValue || !imp.launch())
        return;
    // Slurm reads "M" as minutes and "M:S" as minutes:seconds; only H:M:S and
    // the day forms say hours. Under ten minutes that way looks like hours meant.
    static const QRegularExpression bare(QStringLiteral("^(\\d{1,2})$"));
    static const QRegularExpression minSec(QStringLiteral("^(\\d{1,2}):(\\d{2})$"));
    const QString v = o->value.trimmed();
    int minutes = 0, seconds = 0;
    QString fix;
    if (const auto m = bare.match(v); m.hasMatch()) {
        minutes = m.captured(1).toInt();
        fix = QStringLiteral("%1:00:00").arg(minutes);
    } else if (const auto m2 = minSec.match(v); m2.hasMatch()) {
        minutes = m2.captured(1).toInt();
        seconds = m2.captured(2).toInt();
        fix = QStringLiteral("%1:%2:00").arg(minutes).arg(m2.captured(2));
    } else {
        return;
    }
    if (minutes >= 10 || seconds >= 60 || (minutes == 0 && seconds == 0))
        return;
    const QString partName = imp.spec.partition;
    if (isShortRunPartition(partName, importPartition(imp, profile)))
        return;
    static const QRegularExpression testJob(QStringLiteral("test|debug|smoke|check|hello|try"),
                                            QRegularExpression::CaseInsensitiveOption);
    if (testJob.match(imp.spec.jobName).hasMatch())
        return;   // a job called "smoke-test" means its few minutes
    const bool hoursLike = v.contains(QLatin1Char(':')) ? minutes > 0 : true;
    imp.diagnostics << finding(
        Severity::Warning, QStringLiteral("time-reads-as-minutes"), QStringLiteral("time"), o->line,
        QStringLiteral("%1 is %2 to Slurm (%3), so the training is stopped after %2. %4Write the hours out in "
                       "H:MM:SS.")
            .arg(o->written + (o->written.startsWith(QLatin1String("--")) ? QStringLiteral("=") : QStringLiteral(" ")) + v,
                 minutesText(minutes, seconds),
                 v.contains(QLatin1Char(':')) ? QStringLiteral("minutes:seconds") : QStringLiteral("bare minutes"),
                 hoursLike ? QStringLiteral("If %1 hours were meant, write --time=%2. ").arg(minutes).arg(fix)
                           : QString()),
        Fix{QStringLiteral("time"), fix, QStringLiteral("set time to %1").arg(fix)});
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
    for (const ScriptLine &sl : imp.lines) {
        for (const Use &u : variableUses(sl.text)) {
            if (set.contains(u.name) || reported.contains(u.name) || isEnvironmentName(u.name))
                continue;
            reported.insert(u.name);
            // Did you mean: a name the script sets that differs by a typo.
            QString best;
            int bestDist = 3;
            const int cap = u.name.size() >= 8 ? 2 : 1;
            if (u.name.size() >= 4) {
                for (const QString &s : set) {
                    const int d = s.compare(u.name, Qt::CaseInsensitive) == 0 ? 0 : editDistance(s, u.name, cap);
                    if (d <= cap && d < bestDist) {
                        bestDist = d;
                        best = s;
                    }
                }
            }
            const int line = sl.lineAt(u.offset);
            if (!best.isEmpty()) {
                imp.diagnostics << finding(
                    Severity::Warning, QStringLiteral("variable-never-set"), QString(), line,
                    QStringLiteral("$%1 is used on line %2 but the script never sets it, so it expands to nothing. "
                                   "Did you mean $%3 (set in the script)?")
                        .arg(u.name)
                        .arg(line)
                        .arg(best));
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

void lintOutputDirectories(ScriptImport &imp)
{
    static const QRegularExpression mkdir(QStringLiteral("(?:^|[\\s;&|(])mkdir((?:[ \\t]+[^\\s;&|)]+)+)"));
    struct Made {
        QString dir;
        int line;
    };
    QList<Made> made;
    for (const ScriptLine &sl : imp.lines) {
        auto it = mkdir.globalMatch(sl.text);
        while (it.hasNext()) {
            const auto m = it.next();
            for (QString w : m.captured(1).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
                if (w.startsWith(QLatin1Char('-')))
                    continue;
                w.remove(QLatin1Char('"')).remove(QLatin1Char('\''));
                while (w.endsWith(QLatin1Char('/')) && w.size() > 1)
                    w.chop(1);
                if (w.startsWith(QLatin1String("./")))
                    w = w.mid(2);
                made << Made{w, sl.lineAt(int(m.capturedStart(1)))};
            }
        }
    }
    for (const char *name : {"output", "error"}) {
        const SbatchOption *o = imp.option(QString::fromLatin1(name));
        if (!o || !o->hasValue || !o->value.contains(QLatin1Char('/')))
            continue;
        QString dir = o->value.section(QLatin1Char('/'), 0, -2);
        if (dir.startsWith(QLatin1String("./")))
            dir = dir.mid(2);
        if (dir.isEmpty() || dir == QLatin1String(".") || dir.contains(QLatin1Char('%')) || dir.contains(QLatin1Char('$')))
            continue;
        if (std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(), [&](const Diagnostic &d) {
                return d.rule == QLatin1String("output-directory-missing") && d.message.contains(dir + QLatin1Char('/'));
            }) && QLatin1String(name) == QLatin1String("error"))
            continue;   // --output already said it about the same directory
        const auto hit = std::find_if(made.begin(), made.end(), [&](const Made &m) {
            return m.dir == dir || m.dir.endsWith(QLatin1Char('/') + dir) || dir.endsWith(QLatin1Char('/') + m.dir)
                   || m.dir.endsWith(QStringLiteral("}/") + dir)
                   || (m.dir.startsWith(QLatin1Char('$')) && m.dir.section(QLatin1Char('/'), 1) == dir);
        });
        if (hit != made.end()) {
            imp.diagnostics << finding(
                Severity::Warning, QStringLiteral("output-directory-missing"), QString(), o->line,
                QStringLiteral("%1=%2 writes into %3/, which Slurm does not create; the mkdir on line %4 comes too "
                               "late, because Slurm opens the file before the script runs. On the first run the job "
                               "fails without any output. Create %3/ before sbatch.")
                    .arg(o->written, o->value, dir)
                    .arg(hit->line));
        } else {
            imp.diagnostics << finding(
                Severity::Info, QStringLiteral("output-directory-missing"), QString(), o->line,
                QStringLiteral("%1=%2: Slurm does not create %3/; it must exist when the job starts, or the job fails "
                               "without output.")
                    .arg(o->written, o->value, dir));
        }
    }
}

void lintPlaceholderValues(ScriptImport &imp)
{
    static const QRegularExpression re(
        QStringLiteral("^(your[_.-]?[A-Za-z0-9_.-]*|[A-Za-z0-9_.-]*[_.-]your[_.-][A-Za-z0-9_.-]*|[A-Za-z0-9_.-]*[xX]{4,}[A-Za-z0-9_.-]*"
                       "|change[_-]?me|replace[_-]?me|account[_-]?name|project[_-]?id|partition[_-]?name|\\.\\.\\.)$"),
        QRegularExpression::CaseInsensitiveOption);
    static const QSet<QString> refused = {"account", "partition", "qos", "reservation", "clusters", "constraint"};
    for (const SbatchOption &o : imp.options) {
        if (!o.hasValue || o.name == QLatin1String("mail-user") || anyRule(imp, QStringLiteral("placeholder-value"), o.line))
            continue;
        if (!re.match(o.value.trimmed()).hasMatch())
            continue;
        const bool fatal = refused.contains(o.name);
        if (!fatal)
            continue;   // a placeholder job name or comment does no harm
        imp.diagnostics << finding(fatal ? Severity::Error : Severity::Warning, QStringLiteral("placeholder-value"),
                                   specFieldOfOption(o.name), o.line,
                                   QStringLiteral("%1=%2 is the example's placeholder, not a real value%3. Put your own.")
                                       .arg(o.written, o.value,
                                            fatal ? QStringLiteral("; sbatch refuses the job") : QString()));
    }
}

void lintFixedPort(ScriptImport &imp, const ClusterProfile &profile)
{
    const LaunchCommand *l = imp.launch();
    if (!l)
        return;
    // torchrun --standalone and single-process jobs choose no port of their own.
    const bool usesPort = (l->launcher == ProcessLauncher::Torchrun && !l->standalone)
                          || l->launcher == ProcessLauncher::DeepSpeed || l->launcher == ProcessLauncher::Accelerate
                          || (l->underSrun && l->isPython());
    if (!usesPort)
        return;
    static const QRegularExpression assign(
        QStringLiteral("(?:^|[\\s;&|(])(?:export\\s+)?([A-Za-z_]*PORT[A-Za-z0-9_]*)=([\"']?)(\\d{2,5})\\2(?=[\\s;&|)]|$)"));
    static const QRegularExpression option(QStringLiteral(
        "--(?:master[_-]port|main[_-]process[_-]port)[= ]([\"']?)(\\d{2,5})\\1(?=[\\s;&|)\\\\]|$)|--rdzv[_-]endpoint[= ]"
        "[\"']?[^\\s:\"']+:(\\d{2,5})[\"']?(?=[\\s;&|)\\\\]|$)"));
    QString port;
    int line = 0;
    for (const ScriptLine &sl : imp.lines) {
        for (const QRegularExpression *re : {&assign, &option}) {
            const auto m = re->match(sl.text);
            if (m.hasMatch() && port.isEmpty()) {
                port = re == &assign ? m.captured(3) : (m.captured(2).isEmpty() ? m.captured(3) : m.captured(2));
                line = sl.lineAt(int(m.capturedStart()));
            }
        }
    }
    if (port.isEmpty())
        return;
    const Partition *p = importPartition(imp, profile);
    const QString partName = !imp.spec.partition.isEmpty() ? imp.spec.partition : p ? p->name : QString();
    if (imp.option(QStringLiteral("exclusive")))
        return;
    if (!p || p->gpusPerNode <= 0 || imp.request.gpusPerNode <= 0) {
        imp.diagnostics << finding(
            Severity::Info, QStringLiteral("fixed-port-shared-node"), QString(), line,
            QStringLiteral("Port %1 is fixed; the profile does not say whether partition %2 shares nodes between jobs, "
                           "so a collision with another job on the same node is not checked.")
                .arg(port, partName.isEmpty() ? QStringLiteral("(default)") : partName));
        return;
    }
    if (p->exclusive || imp.request.gpusPerNode >= p->gpusPerNode)
        return;
    imp.diagnostics << finding(
        Severity::Warning, QStringLiteral("fixed-port-shared-node"), QString(), line,
        QStringLiteral("Port %1 is fixed, and partition %2 shares nodes: this job takes %3 of a node's %4 GPUs, so a "
                       "second job on the same node that uses port %1 fails with \"address already in use\". Derive "
                       "the port from the job id, e.g. MASTER_PORT=$((10000 + SLURM_JOB_ID % 50000)).")
            .arg(port, p->name)
            .arg(imp.request.gpusPerNode)
            .arg(p->gpusPerNode));
}

} // namespace scalelab
