#include "core/scriptimport/LaunchLineParser.h"

#include <QRegularExpression>
#include <QSet>

namespace scalelab {

QString processLauncherName(ProcessLauncher l)
{
    switch (l) {
    case ProcessLauncher::None: return QStringLiteral("none");
    case ProcessLauncher::Torchrun: return QStringLiteral("torchrun");
    case ProcessLauncher::DeepSpeed: return QStringLiteral("deepspeed");
    case ProcessLauncher::Horovodrun: return QStringLiteral("horovodrun");
    case ProcessLauncher::Mpirun: return QStringLiteral("mpirun");
    }
    return {};
}

bool isPythonInterpreter(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("(^|/)python[0-9.]*$"));
    return re.match(word).hasMatch();
}

namespace {

QString baseName(const QString &word)
{
    const int slash = int(word.lastIndexOf(QLatin1Char('/')));
    return slash >= 0 ? word.mid(slash + 1) : word;
}

// Walks the words of one command, layer by layer.
class Walker {
public:
    Walker(const ShellCommand &cmd, const ScriptLine &line) : m_w(cmd.words), m_line(line) {}

    bool atEnd() const { return m_i >= m_w.size(); }
    const QString &peek() const { return m_w[m_i].text; }
    int lineOfCurrent() const { return atEnd() ? m_line.line : m_line.lineAt(m_w[m_i].offset); }
    QString take() { return m_w[m_i++].text; }
    int index() const { return int(m_i); }

    // One option: "--name=value", "--name value", "-xVALUE" or a flag. The
    // caller says which names take a value. Returns false at the first
    // non-option word.
    struct Opt {
        QString name;
        QString value;
        bool hasValue = false;
        int line = 0;
    };
    bool nextOption(const QSet<QString> &takesValue, Opt *opt, const QSet<QString> &shortGlued = {})
    {
        if (atEnd())
            return false;
        const QString w = peek();
        if (w == QLatin1String("--")) {
            ++m_i;
            return false;
        }
        if (!w.startsWith(QLatin1Char('-')) || w.size() < 2)
            return false;
        *opt = Opt{};
        opt->line = lineOfCurrent();
        ++m_i;
        const int eq = int(w.indexOf(QLatin1Char('=')));
        if (w.startsWith(QLatin1String("--")) && eq > 0) {
            opt->name = w.left(eq);
            opt->value = w.mid(eq + 1);
            opt->hasValue = true;
            return true;
        }
        if (!w.startsWith(QLatin1String("--")) && w.size() > 2 && shortGlued.contains(w.left(2))) {
            opt->name = w.left(2);   // -N2, -n4
            opt->value = w.mid(2);
            opt->hasValue = true;
            return true;
        }
        opt->name = w;
        if (takesValue.contains(w) && !atEnd()) {
            opt->value = take();
            opt->hasValue = true;
        }
        return true;
    }

    QStringList rest()
    {
        QStringList out;
        while (!atEnd())
            out << take();
        return out;
    }

private:
    const QList<ShellWord> &m_w;
    const ScriptLine &m_line;
    qsizetype m_i = 0;
};

void takeProgram(Walker &w, LaunchCommand &lc)
{
    lc.programLine = w.lineOfCurrent();
    lc.programWordIndex = w.index();
    lc.program = w.take();
    lc.args = w.rest();
}

int toCount(const QString &text)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    return ok && v > 0 && v <= 100000 ? v : 0;   // beyond any cluster: treated as unknown
}

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

void parseSrun(Walker &w, LaunchCommand &lc)
{
    // srun flags that take no value; every other long option without '='
    // takes the next word.
    static const QSet<QString> flags = {
        QStringLiteral("--exclusive"),  QStringLiteral("--label"),      QStringLiteral("--unbuffered"),
        QStringLiteral("--verbose"),    QStringLiteral("--quiet"),      QStringLiteral("--overlap"),
        QStringLiteral("--overcommit"), QStringLiteral("--no-kill"),    QStringLiteral("--pty"),
        QStringLiteral("--exact"),      QStringLiteral("--multi-prog"), QStringLiteral("--oversubscribe"),
        QStringLiteral("--spread-job"), QStringLiteral("--use-min-nodes"), QStringLiteral("--whole"),
        QStringLiteral("--disable-status"), QStringLiteral("--preserve-env"), QStringLiteral("--test-only"),
        QStringLiteral("--kill-on-bad-exit"), QStringLiteral("--contiguous"), QStringLiteral("--hold"),
        QStringLiteral("--immediate"),  QStringLiteral("--no-allocate"), QStringLiteral("--reboot"),
        QStringLiteral("--requeue"),    QStringLiteral("--no-requeue"), QStringLiteral("--get-user-env"),
        QStringLiteral("--propagate"),  QStringLiteral("--nice"),       QStringLiteral("--help"),
        QStringLiteral("--usage"),      QStringLiteral("--version"),    QStringLiteral("--send-libs"),
    };
    static const QSet<QString> shortWithValue = {
        QStringLiteral("-A"), QStringLiteral("-b"), QStringLiteral("-c"), QStringLiteral("-d"), QStringLiteral("-D"),
        QStringLiteral("-e"), QStringLiteral("-i"), QStringLiteral("-J"), QStringLiteral("-m"), QStringLiteral("-M"),
        QStringLiteral("-n"), QStringLiteral("-N"), QStringLiteral("-o"), QStringLiteral("-p"), QStringLiteral("-q"),
        QStringLiteral("-r"), QStringLiteral("-t"), QStringLiteral("-T"), QStringLiteral("-w"), QStringLiteral("-W"),
        QStringLiteral("-x"), QStringLiteral("-C"), QStringLiteral("-G"), QStringLiteral("-B"), QStringLiteral("-S"),
        QStringLiteral("-L"),
    };
    lc.underSrun = true;
    while (!w.atEnd()) {
        const QString word = w.peek();
        if (!word.startsWith(QLatin1Char('-')))
            break;
        QSet<QString> takes = shortWithValue;
        if (word.startsWith(QLatin1String("--")) && !word.contains(QLatin1Char('=')) && !flags.contains(word))
            takes.insert(word);
        Walker::Opt o;
        if (!w.nextOption(takes, &o, shortWithValue))
            break;
        if (o.name == QLatin1String("-n") || o.name == QLatin1String("--ntasks"))
            lc.srunTasks = toCount(o.value);
        else if (o.name == QLatin1String("-N") || o.name == QLatin1String("--nodes"))
            lc.srunNodes = toCount(o.value.section(QLatin1Char('-'), 0, 0));
        else if (o.name == QLatin1String("--ntasks-per-node"))
            lc.srunTasksPerNode = toCount(o.value);
    }
}

void parseMpirun(Walker &w, LaunchCommand &lc, const QString &word)
{
    static const QSet<QString> takes = {
        QStringLiteral("-np"), QStringLiteral("-n"), QStringLiteral("--np"), QStringLiteral("-c"),
        QStringLiteral("-N"), QStringLiteral("-npernode"), QStringLiteral("--npernode"), QStringLiteral("-ppn"),
        QStringLiteral("-H"), QStringLiteral("--host"), QStringLiteral("-host"), QStringLiteral("-hosts"),
        QStringLiteral("-hostfile"), QStringLiteral("--hostfile"), QStringLiteral("-machinefile"),
        QStringLiteral("--machinefile"), QStringLiteral("-f"), QStringLiteral("--map-by"), QStringLiteral("-map-by"),
        QStringLiteral("--bind-to"), QStringLiteral("-bind-to"), QStringLiteral("--rank-by"), QStringLiteral("-x"),
        QStringLiteral("--prefix"), QStringLiteral("-wdir"), QStringLiteral("--wdir"), QStringLiteral("-mca"),
        QStringLiteral("--mca"), QStringLiteral("-genv"), QStringLiteral("-env"), QStringLiteral("--output-filename"),
    };
    lc.launcher = ProcessLauncher::Mpirun;
    lc.launcherWord = word;
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (o.name == QLatin1String("-mca") || o.name == QLatin1String("--mca") || o.name == QLatin1String("-genv")
            || o.name == QLatin1String("-env")) {
            if (!w.atEnd())
                w.take();   // these take two words
        } else if (o.name == QLatin1String("-np") || o.name == QLatin1String("-n") || o.name == QLatin1String("--np")
                   || o.name == QLatin1String("-c")) {
            lc.np = toCount(o.value);
            lc.npText = o.value;
            lc.npLine = o.line;
        } else if (o.name.contains(QLatin1String("host")) || o.name == QLatin1String("-H")
                   || o.name.contains(QLatin1String("machinefile")) || o.name == QLatin1String("-f")) {
            lc.hostfile = true;
        }
    }
}

void parseContainer(Walker &w, LaunchCommand &lc, const QString &runtime)
{
    static const QSet<QString> takes = {
        QStringLiteral("-B"),       QStringLiteral("--bind"),     QStringLiteral("--mount"), QStringLiteral("-H"),
        QStringLiteral("--home"),   QStringLiteral("--env"),      QStringLiteral("--env-file"), QStringLiteral("--pwd"),
        QStringLiteral("-W"),       QStringLiteral("--workdir"),  QStringLiteral("-o"),       QStringLiteral("--overlay"),
        QStringLiteral("--security"), QStringLiteral("--hostname"), QStringLiteral("--network"),
        QStringLiteral("--network-args"), QStringLiteral("-S"),   QStringLiteral("--scratch"), QStringLiteral("--dns"),
        QStringLiteral("--app"),    QStringLiteral("--add-caps"), QStringLiteral("--drop-caps"),
        QStringLiteral("--fusemount"), QStringLiteral("--apply-cgroups"), QStringLiteral("--no-mount"),
    };
    lc.container.runtime = runtime;
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (o.name == QLatin1String("-B") || o.name == QLatin1String("--bind"))
            lc.container.binds << o.value;
    }
    if (!w.atEnd())
        lc.container.image = w.take();
}

// torchrun / python -m torch.distributed.run|launch options up to the script.
void parseTorchrun(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> flags = {
        QStringLiteral("--standalone"), QStringLiteral("--use_env"), QStringLiteral("--use-env"),
        QStringLiteral("--no_python"),  QStringLiteral("--no-python"), QStringLiteral("--run_path"),
        QStringLiteral("--run-path"),   QStringLiteral("-m"),        QStringLiteral("--module"),
    };
    lc.launcher = ProcessLauncher::Torchrun;
    bool module = false;
    while (!w.atEnd() && w.peek().startsWith(QLatin1Char('-'))) {
        QSet<QString> takes;
        if (!flags.contains(w.peek()))
            takes.insert(w.peek());
        Walker::Opt o;
        if (!w.nextOption(takes, &o))
            break;
        const QString name = QString(o.name).replace(QLatin1Char('-'), QLatin1Char('_'));
        if (name == QLatin1String("__nproc_per_node")) {
            lc.nprocText = o.value;
            lc.nprocPerNode = toCount(o.value);
            lc.nprocLine = o.line;
        } else if (name == QLatin1String("__nnodes")) {
            lc.nnodesText = o.value;
            lc.nnodes = toCount(o.value);
            lc.nnodesLine = o.line;
        } else if (name == QLatin1String("__standalone")) {
            lc.standalone = true;
        } else if (name == QLatin1String("_m") || name == QLatin1String("__module")) {
            module = true;
        }
    }
    if (module) {
        lc.program = QStringLiteral("-m");
        lc.programLine = w.lineOfCurrent();
        lc.programWordIndex = w.index();
        lc.args = w.rest();
    }
}

void parseDeepSpeed(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {
        QStringLiteral("--num_gpus"), QStringLiteral("--num-gpus"), QStringLiteral("--num_nodes"),
        QStringLiteral("--num-nodes"), QStringLiteral("-H"), QStringLiteral("--hostfile"), QStringLiteral("-i"),
        QStringLiteral("--include"), QStringLiteral("-e"), QStringLiteral("--exclude"), QStringLiteral("--master_port"),
        QStringLiteral("--master_addr"), QStringLiteral("--launcher"), QStringLiteral("--launcher_args"),
        QStringLiteral("--min_elastic_nodes"), QStringLiteral("--max_elastic_nodes"), QStringLiteral("--ssh_port"),
        QStringLiteral("--bind_core_list"), QStringLiteral("--autotuning"), QStringLiteral("--enable_each_rank_log"),
    };
    lc.launcher = ProcessLauncher::DeepSpeed;
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        const QString name = QString(o.name).replace(QLatin1Char('-'), QLatin1Char('_'));
        if (name == QLatin1String("__num_gpus")) {
            lc.nprocText = o.value;
            lc.nprocPerNode = toCount(o.value);
            lc.nprocLine = o.line;
        } else if (name == QLatin1String("__num_nodes")) {
            lc.nnodesText = o.value;
            lc.nnodes = toCount(o.value);
            lc.nnodesLine = o.line;
        } else if (name == QLatin1String("_H") || name == QLatin1String("__hostfile")) {
            lc.hostfile = true;
        }
    }
}

void parseHorovodrun(Walker &w, LaunchCommand &lc)
{
    static const QSet<QString> takes = {
        QStringLiteral("-np"), QStringLiteral("--num-proc"), QStringLiteral("-p"), QStringLiteral("--ssh-port"),
        QStringLiteral("-H"), QStringLiteral("--hosts"), QStringLiteral("--hostfile"), QStringLiteral("--mpi-args"),
        QStringLiteral("--start-timeout"), QStringLiteral("--network-interface"), QStringLiteral("--log-level"),
        QStringLiteral("--timeline-filename"), QStringLiteral("--binding-args"), QStringLiteral("--output-filename"),
        QStringLiteral("--config-file"), QStringLiteral("-i"), QStringLiteral("--ssh-identity-file"),
        QStringLiteral("--min-np"), QStringLiteral("--max-np"), QStringLiteral("--slots"),
        QStringLiteral("--host-discovery-script"), QStringLiteral("--gloo-timeout-seconds"),
        QStringLiteral("--cycle-time-ms"), QStringLiteral("--cache-capacity"), QStringLiteral("--fusion-threshold-mb"),
        QStringLiteral("--num-nccl-streams"), QStringLiteral("--reset-limit"),
    };
    lc.launcher = ProcessLauncher::Horovodrun;
    lc.launcherWord = QStringLiteral("horovodrun");
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
        if (o.name == QLatin1String("-np") || o.name == QLatin1String("--num-proc")) {
            lc.np = toCount(o.value);
            lc.npText = o.value;
            lc.npLine = o.line;
        } else if (o.name == QLatin1String("-H") || o.name == QLatin1String("--hosts")
                   || o.name == QLatin1String("--hostfile") || o.name == QLatin1String("--host-discovery-script")) {
            lc.hostfile = true;
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
        if (module == QLatin1String("torch.distributed.run") || module == QLatin1String("torch.distributed.launch")) {
            lc.launcherWord = lc.interpreter + QStringLiteral(" -m ") + module;
            lc.legacyTorchLaunch = module.endsWith(QLatin1String("launch"));
            w.take();
            parseTorchrun(w, lc);
            if (lc.program.isEmpty() && !w.atEnd()) {
                takeProgram(w, lc);
            }
            return;
        }
        if (module == QLatin1String("deepspeed.launcher.runner") || module == QLatin1String("deepspeed")) {
            lc.launcherWord = lc.interpreter + QStringLiteral(" -m ") + module;
            w.take();
            parseDeepSpeed(w, lc);
            if (!w.atEnd()) {
                takeProgram(w, lc);
            }
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
        QStringLiteral("-o"), QStringLiteral("--outfile"), QStringLiteral("-s"), QStringLiteral("--setup"),
        QStringLiteral("-u"), QStringLiteral("--unit"), QStringLiteral("-p"), QStringLiteral("--prof-mod"),
        QStringLiteral("-i"), QStringLiteral("--output-interval"),
    };
    lc.interpreter = QStringLiteral("kernprof");
    w.take();
    Walker::Opt o;
    while (w.nextOption(takes, &o)) {
    }
    if (!w.atEnd()) {
        takeProgram(w, lc);
    }
}

} // namespace

namespace {

bool walk(Walker &w, LaunchCommand &lc, bool wrapped, int depth);

// bash -c '...': the launch is one of the commands in the string.
bool walkShellString(const QString &code, LaunchCommand &lc, int depth)
{
    ScriptLine sub;
    sub.text = code;
    sub.line = lc.line;
    sub.lastLine = lc.lastLine;
    sub.lineOffsets = {0};
    const ShellLexResult lex = lexShell(code);
    for (const auto &c : lex.commands) {
        LaunchCommand trial = lc;
        Walker inner(c, sub);
        if (walk(inner, trial, true, depth + 1) && (trial.isPython() || trial.launcher != ProcessLauncher::None)) {
            trial.programWordIndex = -1;   // its words are not the script line's
            trial.programLine = lc.line;
            lc = trial;
            return true;
        }
    }
    return false;
}

// Unwraps one layer after the other; false when no program launch is found.
bool walk(Walker &w, LaunchCommand &lc, bool wrapped, int depth)
{
    for (int layer = 0; layer < 12 && !w.atEnd() && depth < 4; ++layer) {
        skipPrefixes(w);
        if (w.atEnd())
            break;
        const QString word = w.peek();
        const QString base = baseName(word);
        if (base == QLatin1String("srun")) {
            w.take();
            parseSrun(w, lc);
            wrapped = true;
        } else if (base == QLatin1String("mpirun") || base == QLatin1String("mpiexec") || base == QLatin1String("orterun")) {
            w.take();
            parseMpirun(w, lc, base);
            wrapped = true;
        } else if (base == QLatin1String("singularity") || base == QLatin1String("apptainer")) {
            w.take();
            if (w.atEnd())
                return false;
            const QString sub = w.take();
            if (sub != QLatin1String("exec") && sub != QLatin1String("run"))
                return false;   // build, pull, inspect ...
            parseContainer(w, lc, base);
            wrapped = true;
            if (sub == QLatin1String("run")) {
                lc.programLine = lc.line;
                lc.program = lc.container.image;
                lc.args = w.rest();
                return true;
            }
        } else if (base == QLatin1String("singularity_wrapper") || base == QLatin1String("apptainer_wrapper")) {
            w.take();
            if (!w.atEnd() && (w.peek() == QLatin1String("exec") || w.peek() == QLatin1String("run")))
                w.take();
            lc.containerWrapper = base;
            wrapped = true;
        } else if (base == QLatin1String("torchrun") || base == QLatin1String("torch-distributed-run")) {
            lc.launcherWord = base;
            w.take();
            parseTorchrun(w, lc);
            if (lc.program.isEmpty() && !w.atEnd())
                takeProgram(w, lc);
            return true;
        } else if (base == QLatin1String("deepspeed")) {
            lc.launcherWord = base;
            w.take();
            parseDeepSpeed(w, lc);
            if (!w.atEnd())
                takeProgram(w, lc);
            return true;
        } else if (base == QLatin1String("horovodrun")) {
            w.take();
            parseHorovodrun(w, lc);
            wrapped = true;
        } else if (isPythonInterpreter(word)) {
            parsePython(w, lc);
            return true;
        } else if (base == QLatin1String("kernprof")) {
            parseKernprof(w, lc);
            return true;
        } else {
            const bool shell = base == QLatin1String("bash") || base == QLatin1String("sh");
            if (shell) {
                Walker probe = w;
                probe.take();
                while (!probe.atEnd() && probe.peek().startsWith(QLatin1Char('-')) && !probe.peek().contains(QLatin1Char('c')))
                    probe.take();
                if (!probe.atEnd() && probe.peek().startsWith(QLatin1Char('-')) && probe.peek().contains(QLatin1Char('c'))) {
                    probe.take();
                    if (!probe.atEnd() && walkShellString(probe.peek(), lc, depth))
                        return true;
                }
            }
            if (!wrapped)
                return false;
            takeProgram(w, lc);
            return true;
        }
    }
    return wrapped;
}

} // namespace

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

} // namespace scalelab
