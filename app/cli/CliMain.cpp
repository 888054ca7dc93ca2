#include "app/cli/CliMain.h"

#include "app/cli/CliContext.h"
#include "app/cli/ComposeCommands.h"
#include "app/cli/ReportCommands.h"
#include "app/cli/SlurmCommands.h"

#include <functional>
#include <map>

namespace scalelab {

namespace {

using Command = std::function<int(CliContext &, const QStringList &)>;

const std::map<QString, std::pair<Command, const char *>> &commands()
{
    static const std::map<QString, std::pair<Command, const char *>> table = {
        {QStringLiteral("profiles"), {&ComposeCommands::profiles, "list cluster profiles, partitions and limits"}},
        {QStringLiteral("render"), {&ComposeCommands::render, "print the sbatch script of a job spec and its diagnostics"}},
        {QStringLiteral("lint"), {&ComposeCommands::lint, "check an existing sbatch script against a profile"}},
        {QStringLiteral("submit"), {&SlurmCommands::submit, "submit a job spec over SSH, exactly once"}},
        {QStringLiteral("study"), {&SlurmCommands::study, "submit a scaling study: one run per GPU count"}},
        {QStringLiteral("status"), {&SlurmCommands::status, "one poll cycle over all active runs, then exit"}},
        {QStringLiteral("cancel"), {&SlurmCommands::cancel, "cancel a run's job"}},
        {QStringLiteral("fetch"), {&SlurmCommands::fetch, "download a run's output and GPU sample files"}},
        {QStringLiteral("runs"), {&SlurmCommands::runs, "list stored runs (--json includes metrics)"}},
        {QStringLiteral("report"), {&ReportCommands::report, "write a study's scaling report as PDF"}},
    };
    return table;
}

} // namespace

QString CliMain::usage()
{
    QString u = QStringLiteral(
        "Usage: scalelab                 open the window\n"
        "       scalelab <command> ...   run headless\n"
        "       scalelab --screenshot FILE.png [--place compose|jobs|results] [--spec SPEC.json] [--size WxH]\n\n"
        "Commands:\n");
    for (const auto &[name, cmd] : commands())
        u += QStringLiteral("  %1%2\n").arg(name, -10).arg(QString::fromLatin1(cmd.second));
    u += QStringLiteral("\nEvery command has its own --help. Exit codes: 0 ok (warnings allowed), 1 errors found,\n"
                        "2 unusable input (unreadable or malformed file, unknown profile or key).\n");
    return u;
}

bool CliMain::needsGuiApplication(const QStringList &args)
{
    // Charts are drawn with QPainter on images: the report needs a GUI
    // application object, but never a display.
    return !args.isEmpty() && args.front() == QLatin1String("report") && !args.contains(QStringLiteral("--help"));
}

bool CliMain::isCliInvocation(const QStringList &args)
{
    if (args.isEmpty())
        return false;
    const QString &first = args.front();
    return commands().count(first) > 0 || first == QLatin1String("--help") || first == QLatin1String("-h")
        || first == QLatin1String("--version") || first == QLatin1String("help") || !first.startsWith(QLatin1String("--"));
}

int CliMain::run(const QStringList &args)
{
    CliContext ctx;
    const QString first = args.front();
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        ctx.out << usage();
        return 0;
    }
    if (first == QLatin1String("--version")) {
        ctx.out << "scalelab " << SCALELAB_VERSION << "\n";
        return 0;
    }
    auto it = commands().find(first);
    if (it == commands().end())
        return ctx.unusable(QStringLiteral("unknown command \"%1\" (see `scalelab --help`)").arg(first));
    return it->second.first(ctx, args.mid(1));
}

} // namespace scalelab
