// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/ClusterDiscovery.h"

#include "core/base/AtomicFile.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "core/base/PrivateFiles.h"
#include "core/client/RemoteExecutor.h"
#include "core/discovery/DiscoveryScript.h"
#include "core/model/SoftwareCatalog.h"
#include "core/discovery/ProfileJson.h"
#include "core/profiles/ProfileLoader.h"
#include "core/profiles/ProfileRegistry.h"
#include "core/sshconfig/SshConfigFile.h"
#include "core/store/RunStore.h"
#include "ui/common/StoreTaskQueue.h"

#include <QDate>
#include <QDir>
#include <QRandomGenerator>

namespace scalelab {

DiscoveryOutcome runDiscovery(RemoteExecutor &ex, const QString &alias, const QString &sshConfig,
                              const std::optional<ClusterProfile> &site, const QList<ClusterProfile> &known)
{
    DiscoveryOutcome out;
    out.alias = alias;
    // A fresh nonce per run: cluster output cannot forge a section marker.
    const DiscoveryScript script(QString::number(QRandomGenerator::system()->generate64(), 16));
    const RemoteResult r = ex.run(script.argv(), 120000);
    if (!r.transportOk()) {
        out.error = r.transportError;
        return out;
    }
    DiscoveryScript::Parsed parsed = script.parse(r.out, alias, QDate::currentDate().toString(Qt::ISODate));
    const SshHostConfig host = SshConfigFile::load(sshConfig).resolve(alias);
    parsed.input.login.alias = alias;
    parsed.input.login.hostName = host.hostName;
    parsed.input.login.port = host.port;
    parsed.input.login.user = host.user;
    parsed.input.login.proxyJump = host.hasProxyJump() ? host.proxyJump : QString();
    const ClusterProfile *siteProfile = site ? &*site : ProfileBuilder::matchSite(parsed.input, known);
    // The images of the container folders the site's profile names: a second
    // command, only when it names some, before the profile is built once.
    if (const QStringList dirs = siteProfile ? siteProfile->containerDirs : QStringList(); !dirs.isEmpty()) {
        const RemoteResult images = ex.run(DiscoveryScript::imageListingArgv(dirs), 60000);
        if (images.transportOk() && images.exitCode == 0)
            parsed.input.containerImages = SoftwareCatalog::parseImageListing(QString::fromUtf8(images.out));
        else
            parsed.diagnostics << finding(Severity::Warning, QStringLiteral("discovery-command-failed"),
                                          QStringLiteral("containerImages"), 0,
                                          QStringLiteral("Listing the container folders %1 on %2 failed; which "
                                                         "images exist stays unknown.")
                                              .arg(dirs.join(QStringLiteral(", ")), alias));
    }
    out.built = ProfileBuilder::build(parsed.input, siteProfile);
    out.built.diagnostics = parsed.diagnostics + out.built.diagnostics;
    return out;
}

Result<QString> saveUserProfile(const ClusterProfile &profile)
{
    const QString dir = ProfileRegistry::userDirectory();
    if (auto made = PrivateFiles::makeDirectory(dir); !made)
        return fail(made.error());
    const QString file = QDir(dir).filePath(profile.id + QStringLiteral(".json"));
    const QByteArray data = ProfileJson::write(profile);
    // Read it back before it replaces anything: a file that would not load
    // is never written (it would hide a good profile of the same id).
    const ProfileLoadResult check = loadProfile(data, file);
    if (!check.profile) {
        QStringList why;
        for (const Diagnostic &d : check.problems)
            why << d.message;
        return fail(
            ErrorCode::InvalidValue,
            QObject::tr("the profile was not saved, it would not load: %1").arg(why.join(QStringLiteral("; "))));
    }
    if (const auto saved = AtomicFile::write(file, data); !saved)
        return fail(ErrorCode::LocalFile, QObject::tr("the profile was not saved: %1").arg(saved.errorText()));
    return file;
}

ClusterProfile refreshedProfile(const ClusterProfile &current, const ClusterProfile &fromCluster)
{
    ClusterProfile p = fromCluster;
    p.id = current.id;
    p.name = current.name;
    if (!current.description.isEmpty())
        p.description = current.description;
    return p;
}

QString whyClusterConfigured(AppServices &services, bool storeHasRuns)
{
    if (const QStringList ids = AppSettings::configuredClusters(); !ids.isEmpty())
        return QStringLiteral("a connection is stored for %1").arg(ids.first());
    if (storeHasRuns)
        return QStringLiteral("the run store has runs");
    const QStringList hosts = SshConfigFile::load(AppSettings::userSshConfigPath()).hostAliases();
    for (const ClusterProfile &p : services.profiles().profiles()) {
        if (p.origin == QLatin1String("user") || p.origin == QLatin1String("system"))
            return QStringLiteral("%1 profile %2 (%3)").arg(p.origin, p.id, p.filePath);
        if (p.id == QLatin1String("generic"))
            continue;   // its login alias is an example ("mycluster"), not a site
        for (const LoginHost &h : p.loginHosts)
            if (!h.alias.isEmpty() && hosts.contains(h.alias))
                return QStringLiteral("the SSH config has Host %1 of profile %2").arg(h.alias, p.id);
    }
    return {};
}

void askWhyClusterConfigured(AppServices &services, QObject *context, std::function<void(const QString &why)> done)
{
    services.storeTasks().run(
        context, [](RunStore &store) { return store.newestRunId(); },   // one row, not every run
        [&services, done = std::move(done)](const Result<qint64> &newest) {
            done(whyClusterConfigured(services, newest.ok() && *newest > 0));
        });
}

}   // namespace scalelab
