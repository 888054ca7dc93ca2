// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LintRules.h"

#include <QRegularExpression>
#include <QHash>
#include <QSet>

#include <algorithm>

// Rules about the script as text: what Slurm reads from a time string,
// where its output goes, placeholders and the ports it fixes. They are
// built for precision: a finding is a warning only when the script itself
// shows the mistake; anything that depends on the world outside the script
// (the submitting shell, a module, the site) is an info.

namespace scalelab {

namespace {

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

}   // namespace

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
            .arg(o->written + (o->written.startsWith(QLatin1String("--")) ? QStringLiteral("=") : QStringLiteral(" "))
                     + v,
                 minutesText(minutes, seconds),
                 v.contains(QLatin1Char(':')) ? QStringLiteral("minutes:seconds") : QStringLiteral("bare minutes"),
                 hoursLike ? QStringLiteral("If %1 hours were meant, write --time=%2. ").arg(minutes).arg(fix)
                           : QString()),
        Fix{QStringLiteral("time"), fix, QStringLiteral("set time to %1").arg(fix)});
}

namespace {

struct Made {
    QString dir;
    int line;
};

// The folders the script creates (mkdir), with the line of each.
QList<Made> madeDirectories(const ScriptImport &imp)
{
    static const QRegularExpression mkdir(QStringLiteral("(?:^|[\\s;&|(])mkdir((?:[ \\t]+[^\\s;&|)]+)+)"));
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
    return made;
}

bool sameDirectory(const Made &m, const QString &dir)
{
    return m.dir == dir || m.dir.endsWith(QLatin1Char('/') + dir) || dir.endsWith(QLatin1Char('/') + m.dir)
           || m.dir.endsWith(QStringLiteral("}/") + dir)
           || (m.dir.startsWith(QLatin1Char('$')) && m.dir.section(QLatin1Char('/'), 1) == dir);
}

// The relative folder an unquoted redirection (>, >>, 2>, &>) of the line
// writes into, one per redirection; "" for files in the working folder,
// absolute paths and targets built from variables.
QList<QPair<QString, int>> redirectFolders(const ScriptLine &sl)
{
    QList<QPair<QString, int>> out;
    const QString &t = sl.text;
    if (t.contains(QLatin1String("((")) || t.contains(QLatin1String("[[")))
        return out;   // '>' compares there
    QChar quote;
    for (int i = 0; i < t.size(); ++i) {
        const QChar c = t.at(i);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else if (c == QLatin1Char('\\') && quote == QLatin1Char('"'))
                ++i;
            continue;
        }
        if (c == QLatin1Char('\\')) {
            ++i;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
        } else if (c == QLatin1Char('>') && (i == 0 || t.at(i - 1) != QLatin1Char('<'))) {
            int k = i + 1;
            if (k < t.size() && (t.at(k) == QLatin1Char('>') || t.at(k) == QLatin1Char('|')))
                ++k;
            while (k < t.size() && (t.at(k) == QLatin1Char(' ') || t.at(k) == QLatin1Char('\t')))
                ++k;
            int end = k;
            while (end < t.size() && !t.at(end).isSpace() && !QStringLiteral(";&|<>()\"'`").contains(t.at(end)))
                ++end;
            const QString target = t.mid(k, end - k);
            const int slash = int(target.lastIndexOf(QLatin1Char('/')));
            if (slash > 0 && !target.startsWith(QLatin1Char('/')) && !target.startsWith(QLatin1Char('~'))
                && !target.contains(QLatin1Char('$')) && (end >= t.size() || t.at(end) != QLatin1Char('$')))
                out.append({target.left(slash).startsWith(QLatin1String("./")) ? target.left(slash).mid(2)
                                                                               : target.left(slash),
                            sl.lineAt(i)});
            i = std::max(i, end - 1);
        }
    }
    return out;
}

}   // namespace

namespace {

// "a/b/c" -> "a/b/c", "b/c", "c" (at most 8: deeper paths are not compared further).
QStringList pathSuffixes(const QString &dir)
{
    QStringList out{dir};
    for (qsizetype at = dir.indexOf(QLatin1Char('/')); at >= 0 && out.size() < 8;
         at = dir.indexOf(QLatin1Char('/'), at + 1))
        out << dir.mid(at + 1);
    return out;
}

// The first line that creates each folder, under every tail of its path, so
// a redirection is checked in a few lookups (a scan of every mkdir per
// redirection is quadratic on generated scripts).
QHash<QString, int> madeBySuffix(const QList<Made> &made)
{
    QHash<QString, int> out;
    for (const Made &m : made)
        for (const QString &suffix : pathSuffixes(m.dir))
            if (auto it = out.find(suffix); it == out.end() || *it > m.line)
                out.insert(suffix, m.line);
    return out;
}

bool madeBefore(const QHash<QString, int> &made, const QString &dir, int line)
{
    // The folder itself or one ending in it ($OUT/logs for logs), or a tail of it (logs for run/logs).
    for (const QString &suffix : pathSuffixes(dir))
        if (const auto it = made.constFind(suffix); it != made.cend() && *it <= line)
            return true;
    return false;
}

}   // namespace

void lintRedirectDirectories(ScriptImport &imp)
{
    const QHash<QString, int> made = madeBySuffix(madeDirectories(imp));
    QSet<QString> reported;
    for (const ScriptLine &sl : imp.lines) {
        for (const auto &[dir, line] : redirectFolders(sl)) {
            if (dir.isEmpty() || dir == QLatin1String(".") || dir == QLatin1String("..") || reported.contains(dir))
                continue;
            if (madeBefore(made, dir, line))
                continue;
            reported.insert(dir);
            imp.diagnostics << finding(
                Severity::Warning, QStringLiteral("output-directory-missing"), QString(), line,
                QStringLiteral("Line %1 writes into %2/, which the script never creates before it; in a fresh "
                               "folder the shell reports \"No such file or directory\" and that output is lost. "
                               "Add mkdir -p %2 before line %1.")
                    .arg(line)
                    .arg(dir));
            if (reported.size() > 100)
                return;   // a generated script: enough said
        }
    }
}

void lintOutputDirectories(ScriptImport &imp)
{
    const QList<Made> made = madeDirectories(imp);
    for (const char *name : {"output", "error"}) {
        const SbatchOption *o = imp.option(QString::fromLatin1(name));
        if (!o || !o->hasValue || !o->value.contains(QLatin1Char('/')))
            continue;
        QString dir = o->value.section(QLatin1Char('/'), 0, -2);
        if (dir.startsWith(QLatin1String("./")))
            dir = dir.mid(2);
        if (dir.isEmpty() || dir == QLatin1String(".") || dir.contains(QLatin1Char('%'))
            || dir.contains(QLatin1Char('$')))
            continue;
        if (std::any_of(imp.diagnostics.begin(), imp.diagnostics.end(),
                        [&](const Diagnostic &d) {
                            return d.rule == QLatin1String("output-directory-missing")
                                   && d.message.contains(dir + QLatin1Char('/'));
                        })
            && QLatin1String(name) == QLatin1String("error"))
            continue;   // --output already said it about the same directory
        const auto hit = std::find_if(made.begin(), made.end(), [&](const Made &m) { return sameDirectory(m, dir); });
        if (hit != made.end()) {
            imp.diagnostics << finding(
                Severity::Warning, QStringLiteral("output-directory-missing"), QString(), o->line,
                QStringLiteral("%1=%2 writes into %3/, which Slurm does not create; the mkdir on line %4 comes too "
                               "late, because Slurm opens the file before the script runs. On the first run the job "
                               "fails without any output. Create %3/ before sbatch.")
                    .arg(o->written, o->value, dir)
                    .arg(hit->line));
        } else {
            // A relative folder is the example's own (logs/ beside the
            // script), which a fresh copy lacks; an absolute one names
            // storage that usually exists.
            const bool relative = !dir.startsWith(QLatin1Char('/')) && !dir.startsWith(QLatin1Char('~'));
            imp.diagnostics << finding(
                relative ? Severity::Warning : Severity::Info, QStringLiteral("output-directory-missing"), QString(),
                o->line,
                QStringLiteral("%1=%2: Slurm does not create %3/ and the script never does; it must exist when the "
                               "job starts, or the job fails without output.%4")
                    .arg(o->written, o->value, dir,
                         relative ? QStringLiteral(" Create it (mkdir -p %1) before sbatch.").arg(dir) : QString()));
        }
    }
}

Diagnostic placeholderFinding(const SbatchOption &o, const QString &placeholder)
{
    // The account is the reader's own: a shared example cannot hold one, so
    // its slot is something to fill in, not a mistake in the script.
    if (o.name == QLatin1String("account"))
        return finding(Severity::Info, QStringLiteral("placeholder-value"), specFieldOfOption(o.name), o.line,
                       QStringLiteral("%1=%2 is the example's slot for your project; sbatch refuses the job until it "
                                      "holds yours (an import puts your own account).")
                           .arg(o.written, placeholder));
    return finding(Severity::Error, QStringLiteral("placeholder-value"), specFieldOfOption(o.name), o.line,
                   QStringLiteral("%1=%2 is the example's placeholder, not a real value; sbatch refuses the job. Put "
                                  "your own.")
                       .arg(o.written, placeholder));
}

void lintPlaceholderValues(ScriptImport &imp)
{
    static const QRegularExpression re(
        QStringLiteral("^(your[_.-]?[A-Za-z0-9_.-]*|[A-Za-z0-9_.-]*[_.-]your[_.-][A-Za-z0-9_.-]*|[A-Za-z0-9_.-]*[xX]{4,"
                       "}[A-Za-z0-9_.-]*"
                       "|change[_-]?me|replace[_-]?me|account[_-]?name|project[_-]?id|partition[_-]?name|\\.\\.\\.)$"),
        QRegularExpression::CaseInsensitiveOption);
    static const QSet<QString> refused = {"account", "partition", "qos", "reservation", "clusters", "constraint"};
    // Lines that already have a placeholder finding, looked up per option
    // (a scan of every finding per option was quadratic on long scripts).
    const QString rule = QStringLiteral("placeholder-value");
    QSet<int> flagged;
    for (const Diagnostic &d : imp.diagnostics)
        if (d.rule == rule)
            flagged.insert(d.line);
    for (const SbatchOption &o : imp.options) {
        if (!o.hasValue || o.name == QLatin1String("mail-user") || flagged.contains(o.line))
            continue;
        if (!re.match(o.value.trimmed()).hasMatch())
            continue;
        const bool fatal = refused.contains(o.name);
        if (!fatal)
            continue;   // a placeholder job name or comment does no harm
        flagged.insert(o.line);
        imp.diagnostics << placeholderFinding(o, o.value);
    }
}

void lintFixedPort(ScriptImport &imp, const ClusterProfile &profile)
{
    const LaunchCommand *l = imp.launch();
    if (!l)
        return;
    // torchrun --standalone and single-process jobs choose no port of their own.
    const bool usesPort =
        (l->launcher && launcherTraits(*l->launcher).choosesPort && !l->standalone) || (l->underSrun && l->isPython());
    if (!usesPort)
        return;
    static const QRegularExpression assign(QStringLiteral(
        "(?:^|[\\s;&|(])(?:export\\s+)?([A-Za-z_]*PORT[A-Za-z0-9_]*)=([\"']?)(\\d{2,5})\\2(?=[\\s;&|)]|$)"));
    static const QRegularExpression option(
        QStringLiteral("--(?:master[_-]port|main[_-]process[_-]port)[= "
                       "]([\"']?)(\\d{2,5})\\1(?=[\\s;&|)\\\\]|$)|--rdzv[_-]endpoint[= ]"
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

}   // namespace scalelab
