// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ComposeCommands.h"

#include "app/cli/CliParser.h"

#include "core/base/DiagnosticFormat.h"
#include "core/base/InputLimits.h"
#include "core/model/JobSpecJson.h"
#include "core/compose/SbatchRenderer.h"
#include "core/base/AtomicFile.h"
#include "core/scriptimport/ImportSummary.h"
#include "core/scriptimport/ScriptFile.h"
#include "core/scriptimport/ScriptImporter.h"
#include "core/slurm/SlurmTime.h"

#include <nlohmann/json.hpp>

namespace scalelab {

namespace {

using Json = nlohmann::ordered_json;

std::string s(const QString &q)
{
    return q.toStdString();
}

Json partitionJson(const Partition &p)
{
    Json j;
    j["name"] = s(p.name);
    j["default"] = p.isDefault;
    j["gpuType"] = s(p.gpuType);
    j["gpusPerNode"] = p.gpusPerNode;
    j["cpusPerNode"] = p.cpusPerNode;
    j["memoryPerNodeMB"] = p.memoryPerNodeMB;
    j["minNodes"] = p.minNodes;
    j["maxNodes"] = p.maxNodes;
    j["maxTime"] = p.maxTimeSeconds > 0 ? s(SlurmTime::format(p.maxTimeSeconds)) : std::string("UNLIMITED");
    j["maxGpusPerJob"] = p.maxGpusPerJob;
    j["minGpusPerJob"] = p.minGpusPerJob;
    j["exclusive"] = p.exclusive;
    Json src = Json::object();
    for (auto it = p.sources.begin(); it != p.sources.end(); ++it)
        src[s(it.key())] = s(it.value());
    j["sources"] = src;
    return j;
}

// The profile an import uses: the one asked for, else the site the script
// names most clearly, else generic. *site says which site was recognised.
const ClusterProfile *importProfile(CliContext &ctx, const std::optional<QString> &asked, const QString &text,
                                    const QString &path, std::optional<SiteGuess> *site)
{
    if (asked)
        return ctx.profileFor(*asked);
    const ClusterProfile *generic = ctx.profileFor(QStringLiteral("generic"));
    if (!generic)
        return nullptr;
    const ScriptImport first = ScriptFile::importText(text, path, *generic);
    *site = recogniseSite(first, ctx.profiles().profiles(), generic->id);
    return *site ? ctx.profiles().find((*site)->profileId) : generic;
}

Json importJson(const ScriptImport &imp, const std::optional<SiteGuess> &site, const QString &written)
{
    Json j;
    j["profile"] = s(imp.spec.profile);
    j["recognisedSite"] = site ? Json{{"profile", s(site->profileId)}, {"reasons", Json::array()}} : Json(nullptr);
    if (site)
        for (const QString &r : site->reasons)
            j["recognisedSite"]["reasons"].push_back(s(r));
    j["framework"] = Json{{"id", s(frameworkId(imp.spec.framework))},
                          {"evidence", s(imp.frameworkEvidence)},
                          {"unsure", imp.frameworkUnsure.isEmpty() ? Json(nullptr) : Json(s(imp.frameworkUnsure))}};
    j["spec"] = Json::parse(jobSpecToJson(imp.spec).toStdString());
    j["summary"] = DiagnosticFormat::toJson(imp.summary);
    j["diagnostics"] = DiagnosticFormat::toJson(imp.diagnostics);
    j["output"] = written.isEmpty() ? Json(nullptr) : Json(s(written));
    return j;
}

}   // namespace

int ComposeCommands::profiles(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("profiles"), QStringLiteral("[--json]"),
                QStringLiteral("Lists the cluster profiles (built-in and from %1)\nwith their partitions and limits. "
                               "A broken profile file is reported on stderr\n(file, line or key, and what is wrong) "
                               "and the others are still listed.\n"
                               "Exit code: 0 all profiles loaded (warnings allowed), 1 a profile file has errors.")
                    .arg(ProfileRegistry::userDirectory()));
    a.examples(
        {QStringLiteral("scalelab profiles"), QStringLiteral("scalelab profiles --json | jq -r '.profiles[].id'")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    if (!a.positional().isEmpty())
        return ctx.unusable(QStringLiteral("profiles takes no arguments (see `scalelab profiles --help`)"));
    const bool json = a.isSet(QStringLiteral("json"));
    const auto &reg = ctx.profiles();
    for (const auto &d : reg.problems())
        ctx.err << "scalelab: " << severityName(d.severity) << ": " << d.message << "\n";
    ctx.err.flush();
    if (json) {
        Json arr = Json::array();
        for (const auto &p : reg.profiles()) {
            Json j;
            j["id"] = s(p.id);
            j["name"] = s(p.name);
            j["site"] = s(p.site);
            j["file"] = s(p.filePath);
            j["userOverride"] = p.userOverride;
            j["origin"] = s(p.origin);   // shipped, system or user (profiles/README.md: precedence)
            if (!p.discovered.isEmpty())
                j["discovered"] = s(p.discovered);
            j["gpuRequest"] = s(gpuRequestStyleId(p.gpuRequest));
            j["accountRequired"] = p.accountRequired;
            Json hosts = Json::array();
            for (const auto &h : p.loginHosts)
                hosts.push_back(Json{{"alias", s(h.alias)}, {"hostName", s(h.hostName)}, {"port", h.port}});
            j["loginHosts"] = hosts;
            Json gts = Json::array();
            for (const auto &g : p.gpuTypes)
                gts.push_back(Json{{"id", s(g.id)},
                                   {"model", s(g.model)},
                                   {"vendor", g.vendor == GpuVendor::Amd ? "amd" : "nvidia"},
                                   {"memoryGB", g.memoryGB}});
            j["gpuTypes"] = gts;
            Json parts = Json::array();
            for (const auto &part : p.partitions)
                parts.push_back(partitionJson(part));
            j["partitions"] = parts;
            arr.push_back(j);
        }
        ctx.printJson("profiles", Json{{"profiles", arr}});
        return hasErrors(reg.problems()) ? int(ExitCode::Errors) : int(ExitCode::Ok);
    }
    for (const auto &p : reg.profiles()) {
        ctx.out << p.id << "  " << p.name << "  (" << p.origin
                << (p.discovered.isEmpty() ? QString() : QStringLiteral(", discovered ") + p.discovered) << ")\n";
        for (const auto &part : p.partitions) {
            const GpuType *t = p.gpuType(part.gpuType);
            ctx.out << QStringLiteral("    %1%2 %3 x %4, %5 CPUs, %6 MB/node, nodes %7-%8, max %9")
                           .arg(part.name, part.isDefault ? QStringLiteral("*") : QString())
                           .arg(part.gpusPerNode)
                           .arg(t ? t->id : part.gpuType)
                           .arg(part.cpusPerNode)
                           .arg(part.memoryPerNodeMB)
                           .arg(part.minNodes)
                           .arg(part.maxNodes)
                           .arg(part.maxTimeSeconds > 0 ? SlurmTime::format(part.maxTimeSeconds)
                                                        : QStringLiteral("unlimited"));
            if (part.maxGpusPerJob > 0)
                ctx.out << QStringLiteral(", <= %1 GPUs/job").arg(part.maxGpusPerJob);
            if (part.exclusive)
                ctx.out << ", whole nodes";
            ctx.out << "\n";
        }
    }
    ctx.out.flush();
    // The list above is usable; a broken file is still an error to fix.
    return hasErrors(reg.problems()) ? int(ExitCode::Errors) : int(ExitCode::Ok);
}

int ComposeCommands::render(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("render"), QStringLiteral("[--json] SPEC.json"),
                QStringLiteral("Prints the sbatch script for a job spec on stdout and its diagnostics on stderr.\n"
                               "SPEC.json may be - to read the spec from stdin.\n"
                               "--json prints {\"schema\", \"script\", \"diagnostics\": [...]} instead.\n"
                               "Exit code: 0 no errors (warnings allowed), 1 errors found, 2 unusable input."));
    a.examples({QStringLiteral("scalelab render job.json > job.sbatch"),
                QStringLiteral("scalelab render --json - < job.json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    const bool json = a.isSet(QStringLiteral("json"));
    const QStringList pos = a.positional();
    if (pos.size() != 1)
        return ctx.unusable(QStringLiteral("render needs exactly one SPEC.json (see `scalelab render --help`)"));
    auto spec = ctx.readSpec(pos.front());
    if (!spec)
        return int(ExitCode::Unusable);
    const ClusterProfile *profile = ctx.profileFor(spec->profile);
    if (!profile)
        return int(ExitCode::Unusable);
    const RenderResult r = renderAndValidate(*spec, *profile);
    if (json) {
        Json j;
        j["script"] = s(r.script);
        j["diagnostics"] = DiagnosticFormat::toJson(r.diagnostics);
        ctx.printJson("render", j);
    } else {
        ctx.out << r.script;
        ctx.out.flush();
        for (const auto &d : r.diagnostics)
            ctx.err << DiagnosticFormat::toText(d, CliContext::inputName(pos.front())) << "\n";
        ctx.err.flush();
    }
    return hasErrors(r.diagnostics) ? int(ExitCode::Errors) : int(ExitCode::Ok);
}

int ComposeCommands::lint(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("lint"), QStringLiteral("--profile ID [--json] SCRIPT"),
                QStringLiteral("Reads an existing sbatch script (- for stdin), works out the job it asks for and\n"
                               "reports its mistakes with line numbers. --json prints {\"schema\", \"spec\", "
                               "\"diagnostics\": [...], \"summary\": [...]} (summary: what an\n"
                               "import into ScaleLab changes or drops).\n"
                               "Exit code: 0 no errors (warnings allowed), 1 errors found, 2 unusable input."));
    a.value({QStringLiteral("p"), QStringLiteral("profile")}, QStringLiteral("ID"),
            QStringLiteral("the cluster profile to check against (see `scalelab profiles`)"));
    a.examples({QStringLiteral("scalelab lint job.sh --profile puhti"),
                QStringLiteral("ssh login cat job.sh | scalelab lint --profile mahti --json -")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    const bool json = a.isSet(QStringLiteral("json"));
    const auto profileId = a.value(QStringLiteral("profile"));
    const QStringList pos = a.positional();
    if (pos.size() != 1)
        return ctx.unusable(QStringLiteral("lint needs exactly one SCRIPT (see `scalelab lint --help`)"));
    if (!profileId)
        return ctx.unusable(QStringLiteral("lint needs --profile ID (see `scalelab profiles`)"));
    const ClusterProfile *profile = ctx.profileFor(*profileId);
    if (!profile)
        return int(ExitCode::Unusable);
    const auto raw = ctx.readInput(pos.front());
    if (!raw)
        return int(ExitCode::Unusable);
    ScriptImport imp = ScriptFile::importText(ScriptFile::decode(*raw), pos.front(), *profile);
    // The summary counts every finding; the list shows the first ones.
    const int errors = countOf(imp.diagnostics, Severity::Error);
    const int warnings = countOf(imp.diagnostics, Severity::Warning);
    const int notes = countOf(imp.diagnostics, Severity::Info);
    imp.diagnostics = InputLimits::capDiagnostics(imp.diagnostics, CliContext::inputName(pos.front()));
    if (json) {
        Json j;
        j["spec"] = Json::parse(jobSpecToJson(imp.spec).toStdString());
        j["diagnostics"] = DiagnosticFormat::toJson(imp.diagnostics);
        j["summary"] = DiagnosticFormat::toJson(imp.summary);   // what the import changed or dropped
        ctx.printJson("lint", j);
    } else {
        for (const auto &d : imp.diagnostics)
            ctx.out << DiagnosticFormat::toText(d, CliContext::inputName(pos.front())) << "\n";
        ctx.out << QStringLiteral("%1 error(s), %2 warning(s), %3 note(s)\n").arg(errors).arg(warnings).arg(notes);
        ctx.out.flush();
    }
    return hasErrors(imp.diagnostics) ? int(ExitCode::Errors) : int(ExitCode::Ok);
}

int ComposeCommands::importScript(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("import"), QStringLiteral("[--profile ID] [-o SPEC.json] [--json] SCRIPT"),
                QStringLiteral("Turns an existing sbatch script (- for stdin) into a job spec, as File > Import\n"
                               "does in the window. Without --profile the site the script names is recognised\n"
                               "(else generic). The spec goes to -o SPEC.json or stdout; what the import could\n"
                               "not keep (the summary) and the script's findings go to stderr.\n"
                               "--json prints {\"schema\", \"profile\", \"framework\", \"spec\", \"summary\",\n"
                               "\"diagnostics\", \"output\"}. Exit code: 0 imported, 2 unusable input."));
    a.value({QStringLiteral("p"), QStringLiteral("profile")}, QStringLiteral("ID"),
            QStringLiteral("the cluster profile to import for (see `scalelab profiles`)"));
    a.value({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("SPEC.json"),
            QStringLiteral("where to write the spec"));
    a.examples({QStringLiteral("scalelab import old-job.sh -o job.json"),
                QStringLiteral("scalelab import old-job.sh --profile lumi --json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    ctx.setJsonMode(a.isSet(QStringLiteral("json")));
    const QString out = a.value(QStringLiteral("output")).value_or(QString());
    const QStringList pos = a.positional();
    if (pos.size() != 1)
        return ctx.unusable(QStringLiteral("import needs exactly one SCRIPT (see `scalelab import --help`)"));
    if (!out.isEmpty())
        if (const auto target = AtomicFile::checkTarget(out); !target)
            return ctx.unusable(target.errorText() + QStringLiteral(" Give -o a file in an existing folder."));
    const auto raw = ctx.readInput(pos.front());
    if (!raw)
        return int(ExitCode::Unusable);
    const QString text = ScriptFile::decode(*raw);
    std::optional<SiteGuess> site;
    const ClusterProfile *profile = importProfile(ctx, a.value(QStringLiteral("profile")), text, pos.front(), &site);
    if (!profile)
        return int(ExitCode::Unusable);
    ScriptImport imp = ScriptFile::importText(text, pos.front(), *profile);
    const QString name = CliContext::inputName(pos.front());
    imp.diagnostics = InputLimits::capDiagnostics(imp.diagnostics, name);
    if (!out.isEmpty())
        if (const auto saved = AtomicFile::write(out, jobSpecToJson(imp.spec)); !saved) {
            ctx.err << "scalelab: " << saved.errorText() << "\n";
            return int(ExitCode::Errors);
        }
    if (ctx.jsonMode()) {
        ctx.printJson("import", importJson(imp, site, out));
        return int(ExitCode::Ok);
    }
    if (site)
        ctx.err << QStringLiteral("%1: imported for %2 (%3); give --profile to choose another\n")
                       .arg(name, site->profileName, site->reasons.join(QStringLiteral(", ")));
    for (const auto &d : imp.summary + imp.diagnostics)
        ctx.err << DiagnosticFormat::toText(d, name) << "\n";
    ctx.err.flush();
    if (out.isEmpty())
        ctx.out << jobSpecToJson(imp.spec);
    else
        ctx.out << out << "\n";
    ctx.out.flush();
    return int(ExitCode::Ok);
}

}   // namespace scalelab
