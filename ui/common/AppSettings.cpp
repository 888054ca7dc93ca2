// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/AppSettings.h"

#include "core/base/AtomicFile.h"
#include "core/base/Logging.h"
#include "core/base/PrivateFiles.h"
#include "core/model/ClusterProfile.h"
#include "core/client/PollScheduler.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace scalelab {

namespace {

struct KeyInfo {
    const char *name;
    QVariant defaultValue;
};

const KeyInfo &info(AppSettings::Key key)
{
    using K = AppSettings::Key;
    // One row per key; the enum order does not matter, the switch keeps it total.
    static const KeyInfo poll{"polling/intervalSeconds", PollScheduler::kDefaultSeconds};
    static const KeyInfo notify{"notifications/enabled", true};
    static const KeyInfo tail{"jobs/tailKilobytes", 256};
    static const KeyInfo fetch{"jobs/fetchMegabytes", 64};
    static const KeyInfo lastSpec{"compose/lastSpec", QString()};
    static const KeyInfo lastPath{"compose/lastSpecPath", QString()};
    static const KeyInfo lastModified{"compose/lastSpecModified", false};
    switch (key) {
    case K::LastSpecJson:
        return lastSpec;
    case K::LastSpecPath:
        return lastPath;
    case K::LastSpecModified:
        return lastModified;
    case K::PollIntervalSeconds:
        return poll;
    case K::NotificationsEnabled:
        return notify;
    case K::TailKilobytes:
        return tail;
    case K::FetchMegabytes:
        return fetch;
    }
    return poll;
}

QString clusterGroup(const QString &profileId)
{
    return QStringLiteral("clusters/") + profileId + QLatin1Char('/');
}

// The last save failed: the next use starts from the file again.
bool settingsFailed = false;

}   // namespace

QSettings &AppSettings::settings()
{
    // Re-created when the file named by the environment changes (tests switch files).
    static std::unique_ptr<QSettings> s;
    static QString forFile;
    const QString file = qEnvironmentVariable("SCALELAB_SETTINGS_FILE");
    if (!s || file != forFile || settingsFailed) {
        if (s && !settingsFailed)
            s->sync();
        settingsFailed = false;
        s = file.isEmpty() ? std::make_unique<QSettings>(QStringLiteral("ScaleLab"), QStringLiteral("ScaleLab"))
                           : std::make_unique<QSettings>(file, QSettings::IniFormat);
        // Qt's default, said here because it matters: the file is replaced
        // whole through a temporary (Qt's save file), never written in place, even
        // when that means not writing it.
        s->setAtomicSyncRequired(true);
        forFile = file;
    }
    return *s;
}

Result<void> AppSettings::save()
{
    QSettings &s = settings();
    s.sync();
    if (s.status() == QSettings::NoError)
        return success();
    const QString file = s.fileName();
    const QString why = QFileInfo(file).isDir() ? QStringLiteral("it is a folder")
                        : s.status() == QSettings::AccessError
                            ? QStringLiteral("the folder or the disk refused it (permissions, full disk)")
                            : QStringLiteral("it is not a settings file QSettings can read");
    // QSettings keeps its first error: a fresh one is made for the next try,
    // reading back what the file holds.
    settingsFailed = true;
    return fail(ErrorCode::LocalFile, QStringLiteral("could not write the settings %1: %2").arg(file, why));
}

QString AppSettings::settingsFilePath()
{
    return settings().fileName();
}

QStringList AppSettings::configuredClusters()
{
    QSettings &s = settings();
    s.beginGroup(QStringLiteral("clusters"));
    const QStringList ids = s.childGroups();
    s.endGroup();
    return ids;
}

QString AppSettings::name(Key key)
{
    return QString::fromLatin1(info(key).name);
}
QVariant AppSettings::defaultValue(Key key)
{
    return info(key).defaultValue;
}
QVariant AppSettings::get(Key key)
{
    return settings().value(name(key), defaultValue(key));
}

void AppSettings::set(Key key, const QVariant &value)
{
    settings().setValue(name(key), value);
    if (const auto saved = save(); !saved)
        qCWarning(lcUi).noquote() << saved.errorText();
}

void AppSettings::reset(Key key)
{
    settings().remove(name(key));
    if (const auto saved = save(); !saved)
        qCWarning(lcUi).noquote() << saved.errorText();
}

int AppSettings::pollIntervalSeconds()
{
    bool ok = false;
    const int v = get(Key::PollIntervalSeconds).toInt(&ok);
    if (!ok)
        return PollScheduler::kDefaultSeconds;
    return std::clamp(v, PollScheduler::kMinimumSeconds, PollScheduler::kMaximumSeconds);
}

bool AppSettings::notificationsEnabled()
{
    return get(Key::NotificationsEnabled).toBool();
}

int AppSettings::tailBytes()
{
    return std::clamp(get(Key::TailKilobytes).toInt(), 4, 16 * 1024) * 1024;
}

qint64 AppSettings::fetchBytes()
{
    return qint64(std::clamp(get(Key::FetchMegabytes).toInt(), 1, 4096)) * 1024 * 1024;
}

AlertThresholds AppSettings::alertThresholds()
{
    QSettings &s = settings();
    const AlertThresholds d;
    const auto num = [&](const char *key, double fallback, double low, double high) {
        bool ok = false;
        const double v = s.value(QStringLiteral("alerts/") + QLatin1String(key)).toDouble(&ok);
        return ok ? std::clamp(v, low, high) : fallback;
    };
    AlertThresholds t;
    t.idlePercent = num("idlePercent", d.idlePercent, 0, 100);
    t.idleSeconds = num("idleSeconds", d.idleSeconds, 1, 86400);
    t.warmupSeconds = num("warmupSeconds", d.warmupSeconds, 0, 86400);
    t.silentSeconds = num("silentSeconds", d.silentSeconds, 1, 86400);
    t.throughputDrop = num("throughputDrop", d.throughputDrop, 0.01, 0.99);
    t.disabled = s.value(QStringLiteral("alerts/disabled")).toStringList();
    return t;
}

void AppSettings::setAlertThresholds(const AlertThresholds &t)
{
    QSettings &s = settings();
    s.setValue(QStringLiteral("alerts/idlePercent"), t.idlePercent);
    s.setValue(QStringLiteral("alerts/idleSeconds"), t.idleSeconds);
    s.setValue(QStringLiteral("alerts/warmupSeconds"), t.warmupSeconds);
    s.setValue(QStringLiteral("alerts/silentSeconds"), t.silentSeconds);
    s.setValue(QStringLiteral("alerts/throughputDrop"), t.throughputDrop);
    s.setValue(QStringLiteral("alerts/disabled"), t.disabled);
    if (auto e = save(); !e)
        qCWarning(lcUi).noquote() << e.error().message;
}

AppSettings::ClusterConnection AppSettings::clusterConnection(const QString &profileId)
{
    QSettings &s = settings();
    const QString g = clusterGroup(profileId);
    ClusterConnection c;
    c.alias = s.value(g + QStringLiteral("alias")).toString();
    c.hostName = s.value(g + QStringLiteral("hostName")).toString();
    c.user = s.value(g + QStringLiteral("user")).toString();
    c.port = s.value(g + QStringLiteral("port"), 22).toInt();
    c.proxyJump = s.value(g + QStringLiteral("proxyJump")).toString();
    c.identityFile = s.value(g + QStringLiteral("identityFile")).toString();
    return c;
}

Result<void> AppSettings::setClusterConnection(const QString &profileId, const ClusterConnection &c)
{
    QSettings &s = settings();
    const QString g = clusterGroup(profileId);
    auto put = [&](const char *k, const QVariant &v, bool empty) {
        if (empty)
            s.remove(g + QLatin1String(k));
        else
            s.setValue(g + QLatin1String(k), v);
    };
    put("alias", c.alias, c.alias.isEmpty());
    put("hostName", c.hostName, c.hostName.isEmpty());
    put("user", c.user, c.user.isEmpty());
    put("port", c.port, c.port == 22 || c.port <= 0);
    put("proxyJump", c.proxyJump, c.proxyJump.isEmpty());
    put("identityFile", c.identityFile, c.identityFile.isEmpty());
    return save();
}

QString AppSettings::effectiveAlias(const QString &profileId, const ClusterProfile *profile)
{
    const ClusterConnection c = clusterConnection(profileId);
    if (!c.hostName.isEmpty())
        return generatedAlias(profileId);
    if (!c.alias.isEmpty())
        return c.alias;
    if (profile && !profile->loginHosts.isEmpty() && !profile->loginHosts.first().alias.isEmpty())
        return profile->loginHosts.first().alias;
    return profileId;
}

Result<void> AppSettings::checkIdentityFile(const QString &path)
{
    if (path.contains(QLatin1Char('"')) || path.contains(QLatin1Char('\n')) || path.contains(QLatin1Char('\r')))
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("key file %1: a path with quotes or line breaks cannot be written to an SSH config")
                        .arg(path));
    if (!path.startsWith(QLatin1Char('/')) && !path.startsWith(QLatin1String("~/")))
        return fail(ErrorCode::InvalidValue,
                    QStringLiteral("key file %1: give the full path (/home/… or ~/.ssh/…)").arg(path));
    return success();
}

QString AppSettings::userSshConfigPath()
{
    return SshConfigFile::defaultPath();
}

QString AppSettings::generatedConfigPath()
{
    const QString file = qEnvironmentVariable("SCALELAB_SETTINGS_FILE");
    const QString dir = file.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
                                       : QFileInfo(file).absolutePath();
    return dir + QStringLiteral("/scalelab-ssh_config");
}

QString AppSettings::sshConfigPath()
{
    const QStringList groups = [] {
        QSettings &s = settings();
        s.beginGroup(QStringLiteral("clusters"));
        const QStringList g = s.childGroups();
        s.endGroup();
        return g;
    }();
    for (const QString &id : groups)
        if (!clusterConnection(id).hostName.isEmpty() && QFileInfo::exists(generatedConfigPath()))
            return generatedConfigPath();
    return userSshConfigPath();
}

Result<void> AppSettings::writeGeneratedConfig()
{
    QSettings &s = settings();
    s.beginGroup(QStringLiteral("clusters"));
    const QStringList groups = s.childGroups();
    s.endGroup();
    // Our entries first: in ssh_config the first value obtained wins. The
    // researcher's own config follows, so ProxyJump aliases and identities
    // there still apply.
    QString text = QStringLiteral("# Written by ScaleLab (Settings > Connections). Changes here are overwritten.\n");
    for (const QString &id : groups) {
        const ClusterConnection c = clusterConnection(id);
        if (c.hostName.isEmpty())
            continue;
        for (const auto &[what, value] :
             {std::pair{QStringLiteral("host"), c.hostName}, std::pair{QStringLiteral("user"), c.user},
              std::pair{QStringLiteral("jump host"), c.proxyJump}}) {
            if (value.isEmpty())
                continue;
            if (const QString e = SshConfigFile::validateName(what, value); !e.isEmpty())
                return fail(ErrorCode::InvalidValue, QStringLiteral("cluster %1: %2").arg(id, e));
        }
        text += QStringLiteral("\nHost %1\n  HostName %2\n").arg(generatedAlias(id), c.hostName);
        if (!c.user.isEmpty())
            text += QStringLiteral("  User %1\n").arg(c.user);
        if (c.port > 0 && c.port != 22)
            text += QStringLiteral("  Port %1\n").arg(c.port);
        if (!c.proxyJump.isEmpty())
            text += QStringLiteral("  ProxyJump %1\n").arg(c.proxyJump);
        if (!c.identityFile.isEmpty()) {
            if (const auto key = checkIdentityFile(c.identityFile); !key)
                return fail(ErrorCode::InvalidValue, QStringLiteral("cluster %1: %2").arg(id, key.errorText()));
            text += QStringLiteral("  IdentityFile \"%1\"\n").arg(c.identityFile);
        }
    }
    text += QStringLiteral("\nMatch all\n  Include %1\n").arg(userSshConfigPath());
    const QString path = generatedConfigPath();
    // Owner only, like the researcher's own ~/.ssh/config: AtomicFile keeps
    // the mode of the file it replaces.
    if (auto made = PrivateFiles::makeDirectory(QFileInfo(path).absolutePath()); !made)
        return made;
    if (auto made = PrivateFiles::makeFile(path); !made)
        return made;
    return AtomicFile::write(path, text.toUtf8());
}

}   // namespace scalelab
