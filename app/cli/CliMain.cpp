#include "app/cli/CliMain.h"

#include "app/cli/CliContext.h"
#include "ui/common/ClusterModule.h"
#include "app/cli/ComposeCommands.h"

#include <functional>
#include <map>

namespace scalelab {

namespace {

using Command = std::function<int(CliContext &, const QStringList &)>;

// Commands without a function are the cluster module's (SSH, charts): it is
// loaded only for them, so profiles/render/lint start as fast as they can.
const std::map<QString, std::pair<Command, const char *>> &commands()
{
    static const std::map<QString, std::pair<Command, const char *>> table = {
        {QStringLiteral("profiles"), {&ComposeCommands::profiles, "list cluster profiles, partitions and limits"}},
        {QStringLiteral("render"), {&ComposeCommands::render, "print the sbatch script of a job spec and its diagnostics"}},
        {QStringLiteral("lint"), {&ComposeCommands::lint, "check an existing sbatch script against a profile"}},
        {QStringLiteral("submit"), {nullptr, "submit a job spec over SSH, exactly once"}},
        {QStringLiteral("study"), {nullptr, "submit a scaling study: one run per GPU count"}},
        {QStringLiteral("status"), {nullptr, "one poll cycle over all active runs, then exit"}},
        {QStringLiteral("cancel"), {nullptr, "cancel a run's job"}},
        {QStringLiteral("fetch"), {nullptr, "download a run's output and GPU sample files"}},
        {QStringLiteral("runs"), {nullptr, "list stored runs (--json includes metrics)"}},
        {QStringLiteral("report"), {nullptr, "write a study's scaling report as PDF"}},
        {QStringLiteral("discover"), {nullptr, "read a cluster's Slurm limits over SSH and write its profile"}},
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
    // `profiles check` talks to a cluster: it runs where the SSH commands run.
    const bool check = first == QLatin1String("profiles") && args.value(1) == QLatin1String("check");
    auto it = commands().find(check ? QStringLiteral("discover") : first);
    if (it == commands().end())
        return ctx.unusable(QStringLiteral("unknown command \"%1\" (see `scalelab --help`)").arg(first));
    if (it->second.first && !check)
        return it->second.first(ctx, args.mid(1));
    ClusterModule *module = ClusterModule::instance();
    if (!module)
        return ctx.unusable(QStringLiteral("\"%1\" needs the cluster module: %2").arg(first, ClusterModule::loadError()));
    const int rc = check ? module->runCommand(QStringLiteral("profiles-check"), args.mid(2))
                         : module->runCommand(first, args.mid(1));
    return rc >= 0 ? rc : ctx.unusable(QStringLiteral("the cluster module does not know \"%1\"").arg(first));
}

} // namespace scalelab
