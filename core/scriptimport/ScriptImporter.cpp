// SPDX-License-Identifier: GPL-3.0-or-later
// The sbatch script importer: the import's steps in order, the program the job is
// built from and its framework, and the ScriptImport lookups. Reading the shell
// commands after the header is in ScriptImporterCommands.cpp.
#include "core/scriptimport/ScriptImporter.h"

#include "core/model/SpecFields.h"
#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptImporterInternal.h"
#include "core/scriptimport/ScriptOptionReader.h"

#include <QHash>

#include <algorithm>

namespace scalelab {

namespace scriptimport {

ScriptImport Importer::run()
{
    ParsedSbatchScript parsed = parseSbatchScript(m_text);
    // Moved, not shared: attachFields() writes to them, and a shared list
    // would be copied whole (one finding per line on hostile scripts).
    m_imp.diagnostics = std::move(parsed.diagnostics);
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

// Parser findings on an option line are about that option's spec field.
void Importer::attachFields()
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

int Importer::launchScore(const LaunchCommand &l)
{
    if (l.launcher)
        return 3;
    if (l.isPython())
        return l.underSrun ? 2 : 1;
    return 0;
}

void Importer::choosePrimary()
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
    for (const auto &c : m_setup) {
        if (c.line < l->line) {
            spec.environment.setup << c.text;
            m_imp.setupLines << c.line;
        }
    }
    deriveFramework(*l);
}

void Importer::deriveFramework(const LaunchCommand &l)
{
    auto &spec = m_imp.spec;
    const QString all = (QStringList{l.program} + l.args).join(QLatin1Char(' '));
    const bool mentionsDeepSpeed = all.contains(QLatin1String("--deepspeed"));
    QString why;
    if (l.launcher) {
        // The launcher names the framework, unless the arguments name another.
        const LauncherTraits &row = launcherTraits(*l.launcher);
        spec.launcher = row.composedAs;
        spec.framework = row.argsNameDeepSpeed && mentionsDeepSpeed ? Framework::DeepSpeed : row.framework;
        const bool named = mentionsDeepSpeed || all.contains(frameworkId(row.framework), Qt::CaseInsensitive);
        if (!row.frameworkGuess.isEmpty() && !named)
            why = row.frameworkGuess;
    } else {
        spec.launcher = Launcher::Srun;
        spec.framework = srunFramework(l, &why);
    }
    if (!why.isEmpty()) {
        m_imp.frameworkGuessed = true;
        add(finding(Severity::Info, QStringLiteral("framework-guessed"), QStringLiteral("framework"), l.line,
                    QStringLiteral("No launcher names the framework; guessed %1 because %2. Change it if the "
                                   "program does something else.")
                        .arg(frameworkName(spec.framework), why)));
    }
}

}   // namespace scriptimport

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

using scriptimport::Importer;

ScriptImport importSbatchScript(const QString &text, const ClusterProfile &profile)
{
    return Importer(text, profile).run();
}

}   // namespace scalelab
