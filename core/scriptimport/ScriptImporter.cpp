// SPDX-License-Identifier: GPL-3.0-or-later
// The sbatch script importer: the import's steps in order, the program the job is
// built from, and the ScriptImport lookups. Reading the shell commands after the
// header is ScriptCommandReader's, the framework ScriptFramework's.
#include "core/scriptimport/ScriptImporter.h"

#include "core/compose/SbatchRenderer.h"
#include "core/model/SpecFields.h"
#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptFramework.h"
#include "core/scriptimport/ScriptImporterInternal.h"
#include "core/scriptimport/ScriptOptionReader.h"
#include "core/scriptimport/SegmentImport.h"

#include <QHash>

#include <algorithm>
#include <optional>

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
    keepSlurmOptions();
    ScriptCommandReader commands(m_text, m_imp);
    commands.read(parsed);
    m_composed = commands.composed();
    m_setup = commands.setup();
    choosePrimary();
    SegmentImport::read(m_imp);
    lintScriptImport(m_imp, m_profile);
    m_imp.summary = importSummary(m_imp, m_profile);
    return m_imp;
}

// The options a spec carries as they are, in carriedSlurmOptions() order:
// --mail-type lines OR together (as Slurm combines them), others last wins.
void Importer::keepSlurmOptions()
{
    for (const QString &name : carriedSlurmOptions()) {
        QStringList values;
        bool given = false;
        for (const SbatchOption &o : m_imp.options) {
            if (o.name != name)
                continue;
            given = true;
            if (name != QLatin1String("mail-type"))
                values.clear();
            for (const QString &v : o.value.split(QLatin1Char(','), Qt::SkipEmptyParts))
                if (!values.contains(v))
                    values << v;
        }
        if (given)
            m_imp.spec.slurmOptions << qMakePair(name, values.join(QLatin1Char(',')));
    }
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
    // A spec's relative program is looked up under $HOME (SbatchRenderer):
    // "$HOME/train.py" is "train.py" there, and reads back as itself.
    for (const char *home : {"$HOME/", "${HOME}/", "~/"})
        if (spec.program.startsWith(QLatin1String(home)) && spec.program.size() > qsizetype(qstrlen(home)))
            spec.program = spec.program.mid(qstrlen(home));
    spec.args = l->args;
    std::optional<QString> programSource;   // the program's text, when it is a local file
    if (m_context.readProgram && !l->program.isEmpty() && l->program != QLatin1String("-m"))
        programSource = m_context.readProgram(l->program);
    if (!l->container.image.isEmpty())
        spec.environment.container = l->container;
    spec.environment.taskVariables = l->taskVariables;
    // The profile's own --cpu-bind is what ScaleLab writes anyway: not the script's choice.
    for (const QString &b : l->srunBinding)
        if (b != QStringLiteral("--cpu-bind=") + m_profile.cpuBind)
            spec.binding << b;
    // `module` lines first, as the renderer writes them before the loads:
    // their order among the other setup lines never mattered to the modules.
    QStringList moduleSetup;
    for (const auto &c : m_setup) {
        if (c.line < l->line) {
            (c.text.trimmed().startsWith(QLatin1String("module ")) ? moduleSetup : spec.environment.setup) << c.text;
            m_imp.setupLines << c.line;
        }
    }
    spec.environment.setup = moduleSetup + spec.environment.setup;
    ScriptFramework::derive(m_imp, *l, m_text, programSource);
    if (m_composed)
        readComposedDefaults();
}

// What a script ScaleLab composed wrote for fields the spec left empty:
// the derived node and CPU counts (marked) and the default job name are the spec's 0 and "".
void Importer::readComposedDefaults()
{
    auto &spec = m_imp.spec;
    const auto marked = [this](const char *marker) {
        return m_text.contains(QLatin1Char('\n') + QLatin1String(marker) + QLatin1Char('\n'));
    };
    if (marked(kNodesDerivedMarker))
        spec.nodes = 0;
    if (marked(kCpusDerivedMarker))
        spec.cpusPerGpu = 0;
    if (spec.jobName == QStringLiteral("%1-%2gpu").arg(frameworkId(spec.framework)).arg(spec.gpus))
        spec.jobName.clear();
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

ScriptImport importSbatchScript(const QString &text, const ClusterProfile &profile, const ImportContext &context)
{
    return Importer(text, profile, context).run();
}

}   // namespace scalelab
