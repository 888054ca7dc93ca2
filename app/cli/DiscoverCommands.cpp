// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/DiscoverCommands.h"

#include "core/base/AtomicFile.h"
#include "app/cli/CliCluster.h"
#include "app/cli/CliContext.h"
#include "app/cli/CliParser.h"
#include "app/cli/SlurmCommandSupport.h"
#include "core/base/DiagnosticFormat.h"
#include "core/base/PrivateFiles.h"
#include "core/client/RemoteExecutor.h"
#include "core/discovery/ProfileCheck.h"
#include "core/discovery/ProfileJson.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/sshconfig/SshConfigFile.h"
#include "ui/common/ClusterDiscovery.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace scalelab {

namespace {

using Json = nlohmann::ordered_json;

struct Discovered {
    int exitCode = 0;   // 2 = could not connect or run
    BuiltProfile built;
};

// Connects like every other command and discovers as the window does
// (runDiscovery): one round trip after the login, a second one only to list
// the images of the container folders a profile names.
Discovered discoverOver(CliContext &ctx, const QString &alias, const QString &sshConfig, bool acceptNew,
                        const ClusterProfile *site, const QList<ClusterProfile> &known)
{
    Discovered d;
    CliCluster cluster(ctx, alias, sshConfig, acceptNew);
    if (!cluster.connect()) {
        d.exitCode = 2;
        return d;
    }
    const DiscoveryOutcome out =
        runDiscovery(cluster.executor(), alias, sshConfig.isEmpty() ? SshConfigFile::defaultPath() : sshConfig,
                     site ? std::optional<ClusterProfile>(*site) : std::nullopt, known);
    if (!out.ok()) {
        ctx.err << "scalelab: " << alias << ": " << out.error << "\n";
        ctx.err.flush();
        d.exitCode = 2;
        return d;
    }
    d.built = out.built;
    return d;
}

QString cachePath(const QString &id)
{
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    if (base.isEmpty())
        base = QDir::homePath() + QStringLiteral("/.cache");
    return base + QStringLiteral("/ScaleLab/discovered/") + id + QStringLiteral(".json");
}

Result<void> writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    return AtomicFile::write(path, data);
}

// The profile as text: one line per partition, then the findings.
void printDiscovered(CliContext &ctx, const Discovered &d, const QString &alias, const QString &profilePath)
{
    const ClusterProfile &p = d.built.profile;
    ctx.out << "Discovered " << p.id << " (Slurm " << p.slurmVersion << ") on " << alias << ":\n";
    for (const auto &part : p.partitions) {
        ctx.out << QStringLiteral("  %1%2 %3 x %4 GPU/node, %5 CPUs, %6 MB, nodes %7-%8, max time %9")
                       .arg(part.name, part.isDefault ? QStringLiteral("*") : QString())
                       .arg(part.gpusPerNode)
                       .arg(part.gpuType)
                       .arg(part.cpusPerNode)
                       .arg(part.memoryPerNodeMB)
                       .arg(part.minNodes)
                       .arg(part.maxNodes)
                       .arg(part.isKnown(QStringLiteral("maxTime"))
                                ? (part.maxTimeSeconds ? QString::number(part.maxTimeSeconds) + QStringLiteral(" s")
                                                       : QStringLiteral("UNLIMITED"))
                                : QStringLiteral("not known"));
        if (!part.qos.isEmpty())
            ctx.out << ", QOS " << part.qos;
        ctx.out << "\n";
    }
    for (const auto &diag : d.built.diagnostics)
        ctx.out << "  " << severityName(diag.severity) << ": " << diag.message << "\n";
    ctx.out << "Profile: " << profilePath << "\n";
    ctx.out.flush();
}

}   // namespace

int DiscoverCommands::discover(CliContext &ctx, const QStringList &args)
{
    CliParser a(
        QStringLiteral("discover"), QStringLiteral("[--output FILE] [--json] ALIAS"),
        QStringLiteral("Reads the cluster's Slurm facts (scontrol, sacctmgr; read-only, one round trip) and\n"
                       "builds a profile in the shipped schema, every value with its source and date. The\n"
                       "profile is cached in ~/.cache/ScaleLab/discovered/; --output writes it where you\n"
                       "want (e.g. the user profile folder).\n"
                       "Exit code: 0 profile built, 1 no GPU partition found, 2 cannot connect or unusable input."));
    a.value({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("FILE"),
            QStringLiteral("write the profile here too"));
    a.value({QStringLiteral("ssh-config")}, QStringLiteral("FILE"),
            QStringLiteral("OpenSSH config to read the alias from"));
    a.flag({QStringLiteral("accept-new-host-key")}, QStringLiteral("trust a host key seen for the first time"));
    a.examples(
        {QStringLiteral("scalelab discover mycluster --output ~/.local/share/ScaleLab/profiles/mycluster.json")});
    if (auto rc = a.parse(ctx, args))
        return *rc;
    const QString output = a.value(QStringLiteral("output")).value_or(QString());
    const QString sshConfig = a.value(QStringLiteral("ssh-config")).value_or(QString());
    if (const QString e = cli::sshConfigProblem(sshConfig); !e.isEmpty())
        return ctx.unusable(e);
    const bool acceptNew = a.isSet(QStringLiteral("accept-new-host-key"));
    const bool json = a.isSet(QStringLiteral("json"));
    const QStringList pos = a.positional();
    if (pos.size() != 1)
        return ctx.unusable(QStringLiteral("discover: give exactly one SSH alias (see `scalelab discover --help`)"));
    const QString alias = pos.front();
    if (const QString bad = SshConfigFile::validateName(QStringLiteral("alias"), alias); !bad.isEmpty())
        return ctx.unusable(bad);

    const Discovered d = discoverOver(ctx, alias, sshConfig, acceptNew, nullptr, ctx.profiles().profiles());
    if (d.exitCode)
        return d.exitCode;
    const QByteArray profileJson = ProfileJson::write(d.built.profile);
    const QString cache = cachePath(d.built.profile.id);
    // ScaleLab's own cache: created owner-only (the profile names accounts);
    // AtomicFile keeps the mode of the file it replaces.
    Result<void> cached = PrivateFiles::makeDirectory(QFileInfo(cache).absolutePath());
    if (cached)
        cached = PrivateFiles::makeFile(cache);
    if (cached)
        cached = writeFile(cache, profileJson);
    if (!output.isEmpty())
        if (const auto written = writeFile(output, profileJson); !written) {
            ctx.err << "scalelab: " << written.errorText() << "\n";   // output not written: exit 1, as every command
            return int(ExitCode::Errors);
        }
    if (json) {
        Json j;
        j["profile"] = Json::parse(profileJson.toStdString());
        j["cache"] = cached ? cache.toStdString() : std::string();
        j["output"] = output.toStdString();
        j["diagnostics"] = DiagnosticFormat::toJson(d.built.diagnostics);
        ctx.printJson("discover", j);
    } else {
        printDiscovered(ctx, d, alias, output.isEmpty() ? cache : output);
    }
    return hasErrors(d.built.diagnostics) ? int(ExitCode::Errors) : 0;
}

int DiscoverCommands::profilesCheck(CliContext &ctx, const QStringList &args)
{
    CliParser a(QStringLiteral("profiles check"), QStringLiteral("[--connection ALIAS] [--json] ID"),
                QStringLiteral("Compares profile ID with the live cluster (the limits Slurm states) and lists each\n"
                               "difference.\nExit code: 0 none, 1 differences, 2 cannot connect or unknown profile."));
    a.value({QStringLiteral("connection")}, QStringLiteral("ALIAS"),
            QStringLiteral("SSH alias (default: the profile's login host)"));
    a.value({QStringLiteral("ssh-config")}, QStringLiteral("FILE"),
            QStringLiteral("OpenSSH config to read the alias from"));
    a.flag({QStringLiteral("accept-new-host-key")}, QStringLiteral("trust a host key seen for the first time"));
    if (auto rc = a.parse(ctx, args))
        return *rc;
    QString alias = a.value(QStringLiteral("connection")).value_or(QString());
    const QString sshConfig = a.value(QStringLiteral("ssh-config")).value_or(QString());
    if (const QString e = cli::sshConfigProblem(sshConfig); !e.isEmpty())
        return ctx.unusable(e);
    const bool acceptNew = a.isSet(QStringLiteral("accept-new-host-key"));
    const bool json = a.isSet(QStringLiteral("json"));
    const QStringList pos = a.positional();
    if (pos.size() != 1)
        return ctx.unusable(QStringLiteral("profiles check: give exactly one profile id"));
    const ClusterProfile *profile = ctx.profileFor(pos.front());
    if (!profile)
        return int(ExitCode::Unusable);
    if (alias.isEmpty() && !profile->loginHosts.isEmpty())
        alias = profile->loginHosts.front().alias;
    if (const QString bad = SshConfigFile::validateName(QStringLiteral("alias"), alias); !bad.isEmpty())
        return ctx.unusable(bad);
    const Discovered d = discoverOver(ctx, alias, sshConfig, acceptNew, profile, {});
    if (d.exitCode)
        return d.exitCode;
    const auto diffs = ProfileCheck::compare(*profile, d.built.profile);
    if (json) {
        Json arr = Json::array();
        for (const auto &x : diffs)
            arr.push_back(Json{{"partition", x.partition.toStdString()},
                               {"field", x.field.toStdString()},
                               {"profile", x.profileValue.toStdString()},
                               {"cluster", x.clusterValue.toStdString()},
                               {"source", x.source.toStdString()}});
        Json j{{"profile", profile->id.toStdString()}, {"connection", alias.toStdString()}, {"differences", arr}};
        ctx.printJson("profiles.check", j);
    } else {
        if (diffs.isEmpty())
            ctx.out << "Profile " << profile->id << " agrees with " << alias << ".\n";
        else
            ctx.out << "Profile " << profile->id << " differs from " << alias << " in " << diffs.size()
                    << " place(s):\n";
        for (const auto &x : diffs)
            ctx.out << QStringLiteral("  %1 %2: profile %3, cluster %4  (%5)\n")
                           .arg(x.partition, x.field, x.profileValue, x.clusterValue, x.source);
        ctx.out.flush();
    }
    return diffs.isEmpty() ? 0 : int(ExitCode::Errors);
}

}   // namespace scalelab
