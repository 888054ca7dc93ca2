// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliMain.h"

#include "app/cli/CliContext.h"
#include "app/cli/CliParser.h"
#include "app/cli/ComposeCommands.h"
#include "app/cli/DiscoverCommands.h"
#include "app/cli/MetricsCommand.h"
#include "app/cli/ReportCommands.h"
#include "app/cli/RunCommands.h"
#include "app/cli/SlurmCommands.h"
#include "app/cli/StoreCommands.h"

#include <QCommandLineParser>

#include <functional>
#include <map>

namespace scalelab {

namespace {

using Command = std::function<int(CliContext &, const QStringList &)>;

int version(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("version"), QStringLiteral("[--json]"),
                QStringLiteral("Prints the version of ScaleLab."));
    if (auto rc = a.parse(ctx, args))
        return *rc;
    if (a.isSet(QStringLiteral("json")))
        ctx.printJson("version", nlohmann::ordered_json{{"version", SCALELAB_VERSION}});
    else
        ctx.out << "scalelab " << SCALELAB_VERSION << "\n";
    return 0;
}

// One line per command: name, function, what it does (for --help).
const std::map<QString, std::pair<Command, const char *>> &commands()
{
    static const std::map<QString, std::pair<Command, const char *>> table = {
        {QStringLiteral("profiles"), {&ComposeCommands::profiles, "list cluster profiles, partitions and limits"}},
        {QStringLiteral("render"),
         {&ComposeCommands::render, "print the sbatch script of a job spec and its diagnostics"}},
        {QStringLiteral("lint"), {&ComposeCommands::lint, "check an existing sbatch script against a profile"}},
        {QStringLiteral("import"),
         {&ComposeCommands::importScript, "turn an existing sbatch script into a job spec (File > Import)"}},
        {QStringLiteral("metrics"), {&MetricsCommand::run, "print the metrics ingest reads from a job output file"}},
        {QStringLiteral("submit"), {&SlurmCommands::submit, "submit a job spec over SSH, exactly once"}},
        {QStringLiteral("study"), {&SlurmCommands::study, "submit a scaling study: one run per GPU count"}},
        {QStringLiteral("status"), {&RunCommands::status, "one poll cycle over all active runs, then exit"}},
        {QStringLiteral("cancel"), {&RunCommands::cancel, "cancel a run's job"}},
        {QStringLiteral("fetch"), {&RunCommands::fetch, "download a run's output and GPU sample files"}},
        {QStringLiteral("runs"), {&RunCommands::runs, "list stored runs (--json includes metrics)"}},
        {QStringLiteral("store"),
         {&StoreCommands::run, "check, back up or restore the run store (check|backup|list|restore)"}},
        {QStringLiteral("report"), {&ReportCommands::report, "write a study's scaling report (PDF, Markdown or CSV)"}},
        {QStringLiteral("discover"),
         {&DiscoverCommands::discover, "read a cluster's Slurm limits over SSH and write its profile"}},
        {QStringLiteral("version"), {&version, "print the version (also -V, --version)"}},
    };
    return table;
}

// Options that belong after a command: named when one is typed before it.
const QStringList kCommandOptions{QStringLiteral("--json"),       QStringLiteral("--connection"),
                                  QStringLiteral("--dry-run"),    QStringLiteral("--profile"),
                                  QStringLiteral("--gpus"),       QStringLiteral("--output"),
                                  QStringLiteral("--ssh-config"), QStringLiteral("--name")};

// Qt's own options (QApplication reads them from argv): accepted, not shown.
const QStringList kQtValueOptions{QStringLiteral("platform"),
                                  QStringLiteral("platformpluginpath"),
                                  QStringLiteral("platformtheme"),
                                  QStringLiteral("plugin"),
                                  QStringLiteral("qwindowgeometry"),
                                  QStringLiteral("qwindowicon"),
                                  QStringLiteral("qwindowtitle"),
                                  QStringLiteral("style"),
                                  QStringLiteral("stylesheet"),
                                  QStringLiteral("session"),
                                  QStringLiteral("display"),
                                  QStringLiteral("geometry"),
                                  QStringLiteral("title")};
const QStringList kQtFlags{QStringLiteral("reverse"), QStringLiteral("widgetcount"), QStringLiteral("nograb"),
                           QStringLiteral("dograb"), QStringLiteral("sync")};

CliMain::Route exitWith(int code)
{
    CliMain::Route r;
    r.kind = CliMain::Route::Kind::Exit;
    r.exitCode = code;
    return r;
}

CliMain::Route commandRoute(const QString &command, const QStringList &args)
{
    CliMain::Route r;
    r.kind = CliMain::Route::Kind::Command;
    r.command = command;
    r.args = args;
    return r;
}

// Prints `text` on stdout; exit 0, or 1 when it could not be written.
CliMain::Route printAndExit(const QString &text)
{
    CliContext ctx;
    ctx.out << text;
    return exitWith(ctx.finishOutput() ? 0 : int(ExitCode::Errors));
}

CliMain::Route unknownCommand(const QString &word)
{
    CliContext ctx;
    QStringList names = CliMain::commandNames();
    names << QStringLiteral("help");
    return exitWith(ctx.unusable(
        QStringLiteral("unknown command \"%1\"%2; see `scalelab --help`").arg(word, didYouMean(word, names))));
}

CliMain::Route commandOrHelp(const QString &word, const QStringList &rest)
{
    if (word == QLatin1String("help")) {
        if (rest.isEmpty())
            return printAndExit(CliMain::usage());
        if (!commands().count(rest.front()))
            return unknownCommand(rest.front());
        return commandRoute(rest.front(), {QStringLiteral("--help")});
    }
    if (!commands().count(word))
        return unknownCommand(word);
    return commandRoute(word, rest);
}

// --json among a command's options (before "--").
bool asksForJson(const QStringList &args)
{
    for (const QString &a : args) {
        if (a == QLatin1String("--"))
            return false;
        if (a == QLatin1String("--json"))
            return true;
    }
    return false;
}

bool haveDisplay(const QCommandLineParser &p)
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
           || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || p.isSet(QStringLiteral("platform"));
}

// The window's own options (the commands parse theirs with CliParser).
QList<QCommandLineOption> windowOptions()
{
    return {
        QCommandLineOption(QStringList{QStringLiteral("h"), QStringLiteral("help")}),
        QCommandLineOption(QStringList{QStringLiteral("V"), QStringLiteral("version")}),
        QCommandLineOption(QStringLiteral("screenshot"), QString(), QStringLiteral("FILE.png")),
        QCommandLineOption(QStringLiteral("place"), QString(), QStringLiteral("PLACE")),
        QCommandLineOption(QStringLiteral("spec"), QString(), QStringLiteral("SPEC.json")),
        QCommandLineOption(QStringLiteral("size"), QString(), QStringLiteral("WxH")),
        QCommandLineOption(QStringLiteral("dark")),
    };
}

// Qt's own options (-style, -platform, ...), accepted and passed on to Qt.
void addQtOptions(QCommandLineParser &p)
{
    for (const QString &name : kQtValueOptions) {
        QCommandLineOption o(name, QString(), QStringLiteral("VALUE"));
        o.setFlags(QCommandLineOption::HiddenFromHelp);
        p.addOption(o);
    }
    for (const QString &name : kQtFlags) {
        QCommandLineOption o(name, QString());
        o.setFlags(QCommandLineOption::HiddenFromHelp);
        p.addOption(o);
    }
}

// An option that is neither ours nor Qt's: exit 2, with the closest one named.
CliMain::Route unknownOption(const QCommandLineParser &p, const QList<QCommandLineOption> &own)
{
    CliContext ctx;
    const QStringList unknown = p.unknownOptionNames();
    if (unknown.isEmpty())
        return exitWith(ctx.unusable(QStringLiteral("%1 see `scalelab --help`").arg(p.errorText())));
    const QString typed = (unknown.front().size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + unknown.front();
    QStringList known;
    for (const auto &o : own)
        known << QStringLiteral("--") + o.names().back();
    const QString best = closestMatch(typed, known + kCommandOptions);
    QString hint;
    if (!best.isEmpty())
        hint = kCommandOptions.contains(best)
                   ? QStringLiteral(" (did you mean \"%1\"? It goes after a command: scalelab runs %1)").arg(best)
                   : QStringLiteral(" (did you mean \"%1\"?)").arg(best);
    return exitWith(ctx.unusable(QStringLiteral("unknown option %1%2; see `scalelab --help`").arg(typed, hint)));
}

// The window's options checked: the route, or exit 2 naming the bad one.
CliMain::Route windowRoute(const QCommandLineParser &p)
{
    using Route = CliMain::Route;
    Route r;
    r.kind = Route::Kind::Window;
    WindowOptions &o = r.window;
    o.screenshot = p.value(QStringLiteral("screenshot"));
    o.spec = p.value(QStringLiteral("spec"));
    o.dark = p.isSet(QStringLiteral("dark")) || qEnvironmentVariable("SCALELAB_DARK") == QLatin1String("1");
    if (p.isSet(QStringLiteral("place"))) {
        o.place = p.value(QStringLiteral("place"));
        if (o.place != QLatin1String("compose") && o.place != QLatin1String("jobs")
            && o.place != QLatin1String("results"))
            return exitWith(CliContext().unusable(
                QStringLiteral("--place must be compose, jobs or results, not \"%1\"").arg(o.place)));
    }
    if (p.isSet(QStringLiteral("size"))) {
        const QStringList wh = p.value(QStringLiteral("size")).split(QLatin1Char('x'));
        const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
        if (wh.size() != 2 || w < 200 || h < 150 || w > 8000 || h > 8000)
            return exitWith(CliContext().unusable(
                QStringLiteral("--size must be WIDTHxHEIGHT, e.g. 1280x800 (200x150 to 8000x8000)")));
        o.size = QSize(w, h);
    }
    // A screenshot is drawn offscreen; the window itself needs somewhere to appear.
    if (o.screenshot.isEmpty() && !haveDisplay(p))
        return exitWith(
            CliContext().unusable(QStringLiteral("no display: use a headless command, see scalelab --help")));
    return r;
}

}   // namespace

QStringList CliMain::commandNames()
{
    QStringList names;
    for (const auto &[name, cmd] : commands())
        names << name;
    return names;
}

QString CliMain::usage()
{
    QString u = QStringLiteral(
        "Usage: scalelab                           open the window\n"
        "       scalelab COMMAND [options] [ARGS]  run headless (no display needed)\n"
        "       scalelab help COMMAND              a command's options and examples\n"
        "       scalelab --screenshot FILE.png [--place PLACE] [--spec SPEC.json] [--size WxH] [--dark]\n\n"
        "Commands:\n");
    for (const auto &[name, cmd] : commands())
        u += QStringLiteral("  %1%2\n").arg(name, -10).arg(QString::fromLatin1(cmd.second));
    u += QStringLiteral("  %1%2\n")
             .arg(QStringLiteral("help"), -10)
             .arg(QStringLiteral("this help, or a command's: scalelab help submit"));
    u += QStringLiteral(
        "\nOptions:\n"
        "  -h, --help             this help\n"
        "  -V, --version          print the version\n"
        "  --screenshot FILE.png  draw the window offscreen into a PNG and quit\n"
        "  --place PLACE          compose, jobs or results (default compose)\n"
        "  --spec SPEC.json       open this job spec in Compose\n"
        "  --size WxH             window size (default 1280x800)\n"
        "  --dark                 dark palette\n"
        "  Qt's own options (-style, -platform, ...) are passed on to Qt.\n\n"
        "Every command takes --help, and --json to print one JSON object with a \"schema\" field\n"
        "on stdout. A file argument may be - for stdin; -- ends the options.\n\n"
        "Examples:\n"
        "  scalelab render job.json > job.sbatch\n"
        "  scalelab lint old-job.sh --profile puhti\n"
        "  scalelab import old-job.sh -o job.json\n"
        "  scalelab submit --dry-run job.json\n"
        "  scalelab study job.json --gpus 1,2,4,8 --name \"resnet scaling\"\n"
        "  scalelab status --connection puhti\n"
        "  scalelab runs --json | jq '.runs[] | {id, jobName, state}'\n"
        "  scalelab report 3 -o study3.pdf\n"
        "  scalelab store check\n\n"
        "Environment:\n"
        "  SCALELAB_DATA_DIR          run store and fetched outputs (default ~/.local/share/ScaleLab)\n"
        "  SCALELAB_SSH_CONFIG        OpenSSH config naming the clusters (default ~/.ssh/config)\n"
        "  SCALELAB_USER_PROFILE_DIR  your own cluster profiles (default ~/.local/share/ScaleLab/profiles)\n"
        "  SCALELAB_PROFILE_DIR       use these built-in profiles instead of the installed ones\n"
        "  SCALELAB_SETTINGS_FILE     the window's settings file\n"
        "  SCALELAB_TOTP_COMMAND      a command printing the one-time code for MFA logins\n"
        "  SCALELAB_DARK=1            dark palette in the window\n"
        "  DISPLAY, WAYLAND_DISPLAY, QT_QPA_PLATFORM   where the window is shown\n\n"
        "Exit codes: 0 ok (warnings allowed); 1 errors found, a remote command failed, the output\n"
        "could not be written or the run store cannot be opened; 2 unusable input (unreadable or\n"
        "malformed file, unknown command, option, profile or key) or no display for the window.\n");
    return u;
}

CliMain::Route CliMain::route(const QStringList &args)
{
    // A first word that is not an option is a command ("-" alone is not an option).
    if (!args.isEmpty() && (!args.front().startsWith(QLatin1Char('-')) || args.front() == QLatin1String("-")))
        return commandOrHelp(args.front(), args.mid(1));

    QCommandLineParser p;
    // Qt's options are single-dash words (-style); ours are long or -h/-V.
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QList<QCommandLineOption> own = windowOptions();
    p.addOptions(own);
    addQtOptions(p);
    if (!p.parse(QStringList{QStringLiteral("scalelab")} + args)) {
        return unknownOption(p, own);
    }
    const QStringList positional = p.positionalArguments();
    if (p.isSet(QStringLiteral("help"))) {
        if (positional.isEmpty())
            return printAndExit(usage());
        return commandOrHelp(QStringLiteral("help"), positional.mid(0, 1));
    }
    if (p.isSet(QStringLiteral("version")))
        return printAndExit(QStringLiteral("scalelab %1\n").arg(QStringLiteral(SCALELAB_VERSION)));
    if (!positional.isEmpty())
        return commandOrHelp(positional.front(), positional.mid(1));

    return windowRoute(p);
}

bool CliMain::needsGuiApplication(const QString &command)
{
    return command == QLatin1String("report");
}

int CliMain::run(const QString &command, const QStringList &args)
{
    CliContext ctx;
    // `profiles check` compares a profile with the live cluster (over SSH).
    const bool check = command == QLatin1String("profiles") && args.value(0) == QLatin1String("check");
    const auto it = commands().find(command);
    int rc = check                    ? DiscoverCommands::profilesCheck(ctx, args.mid(1))
             : it == commands().end() ? ctx.unusable(QStringLiteral("unknown command \"%1\"").arg(command))
                                      : it->second.first(ctx, args);
    // --json promises one JSON object on stdout, failures included.
    if (rc != int(ExitCode::Ok) && asksForJson(args) && !ctx.printedJson())
        ctx.printJsonError(check ? "profiles.check" : qPrintable(command), rc);
    // A result that never reached its reader is not a success.
    if (!ctx.finishOutput() && rc == int(ExitCode::Ok))
        rc = int(ExitCode::Errors);
    return rc;
}

}   // namespace scalelab
