// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/ProfileRegistry.h"

#include "core/base/InputLimits.h"
#include "core/profiles/ProfileLoader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <optional>

namespace scalelab {

QStringList ProfileRegistry::builtInDirectories()
{
    // Found relative to the executable only: installed, bin/../share/scalelab;
    // in a build tree the same path is a link to the sources made by CMake.
    // No absolute path is compiled in, so a build is reproducible and a lone
    // copied binary never reads the build machine's profiles.
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("SCALELAB_PROFILE_DIR"); !env.isEmpty())
        candidates << env;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/scalelab/profiles");
    for (const auto &c : candidates)
        if (QFileInfo(c).isDir())
            return {QDir(c).canonicalPath()};
    return {};
}

QString ProfileRegistry::userDirectory()
{
    if (const QString env = qEnvironmentVariable("SCALELAB_USER_PROFILE_DIR"); !env.isEmpty())
        return env;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/ScaleLab/profiles");
}

QStringList ProfileRegistry::userDirectories()
{
    QStringList dirs{userDirectory()};
    if (qEnvironmentVariable("SCALELAB_USER_PROFILE_DIR").isEmpty())
        dirs << QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
                    + QStringLiteral("/ScaleLab/profiles");
    return dirs;
}

QStringList ProfileRegistry::systemDirectories()
{
    if (const QString env = qEnvironmentVariable("SCALELAB_SYSTEM_PROFILE_DIR"); !env.isEmpty())
        return {env};
    QString xdg = qEnvironmentVariable("XDG_CONFIG_DIRS");
    if (xdg.isEmpty())
        xdg = QStringLiteral("/etc/xdg");
    QStringList dirs;
    for (const QString &d : xdg.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        dirs << d + QStringLiteral("/scalelab/profiles");
    return dirs;
}

int ProfileRegistry::precedence(const QString &origin)
{
    if (origin == QLatin1String("user"))
        return 3;
    if (origin == QLatin1String("system"))
        return 2;
    return 1;
}

void ProfileRegistry::loadDefaults()
{
    for (const auto &dir : builtInDirectories())
        loadDirectory(dir, QStringLiteral("shipped"));
    for (const auto &dir : systemDirectories())
        if (QFileInfo(dir).isDir())
            loadDirectory(dir, QStringLiteral("system"));
    for (const auto &dir : userDirectories())
        if (QFileInfo(dir).isDir())
            loadDirectory(dir, QStringLiteral("user"));
}

void ProfileRegistry::loadDirectory(const QString &dir, bool userDir)
{
    loadDirectory(dir, userDir ? QStringLiteral("user") : QStringLiteral("shipped"));
}

void ProfileRegistry::loadDirectory(const QString &dir, const QString &origin)
{
    const bool userDir = origin != QLatin1String("shipped");
    // Unreadable files too: one the researcher cannot read is reported, not
    // skipped; so are FIFOs, devices, sockets (QDir::System) and folders named
    // *.json, which the reader names instead of passing them over.
    const QFileInfoList files = QDir(dir).entryInfoList(
        {QStringLiteral("*.json")}, QDir::Files | QDir::Dirs | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &fi : files) {
        auto result = loadProfileFile(fi.absoluteFilePath());
        std::optional<Diagnostic> firstError;
        for (auto d : result.problems) {
            d.field = fi.absoluteFilePath();
            m_problems << d;
            if (!firstError && d.severity == Severity::Error)
                firstError = d;
        }
        if (!result.profile) {
            if (firstError && !result.claimedId.isEmpty())
                addBroken({result.claimedId, origin, *firstError, {}, {}});
            continue;
        }
        ClusterProfile p = *result.profile;
        p.userOverride = userDir;
        p.origin = origin;
        if (shadowedByBroken(p))
            continue;
        auto it =
            std::find_if(m_profiles.begin(), m_profiles.end(), [&](const ClusterProfile &e) { return e.id == p.id; });
        if (it == m_profiles.end()) {
            m_profiles << p;
        } else if (precedence(origin) > precedence(it->origin)) {
            *it = p;   // a higher folder's copy replaces the lower one whole
        } else {
            m_problems << Diagnostic{Severity::Warning,
                                     QStringLiteral("profile-duplicate-id"),
                                     fi.absoluteFilePath(),
                                     0,
                                     0,
                                     QStringLiteral("%1: id \"%2\" is already defined by %3; this file is ignored")
                                         .arg(fi.absoluteFilePath(), InputLimits::quoted(p.id), it->filePath),
                                     {}};
        }
    }
    std::sort(m_profiles.begin(), m_profiles.end(),
              [](const ClusterProfile &a, const ClusterProfile &b) { return a.name.localeAwareCompare(b.name) < 0; });
}

void ProfileRegistry::addBroken(BrokenFile broken)
{
    // The profile of a lower folder it was meant to replace goes out of use.
    auto it =
        std::find_if(m_profiles.begin(), m_profiles.end(), [&](const ClusterProfile &e) { return e.id == broken.id; });
    if (it != m_profiles.end() && precedence(it->origin) < precedence(broken.origin)) {
        broken.shadowedOrigin = it->origin;
        broken.shadowedFile = it->filePath;
        m_profiles.erase(it);
    }
    m_broken << broken;
}

bool ProfileRegistry::shadowedByBroken(const ClusterProfile &p)
{
    for (BrokenFile &b : m_broken)
        if (b.id == p.id && precedence(b.origin) > precedence(p.origin)) {
            b.shadowedOrigin = p.origin;
            b.shadowedFile = p.filePath;
            return true;
        }
    return false;
}

QString ProfileRegistry::brokenOverride(const QString &id) const
{
    if (find(id))
        return {};
    for (const BrokenFile &b : m_broken)
        if (b.id == id && !b.shadowedOrigin.isEmpty())
            return QStringLiteral("profile \"%1\" cannot be used: %2 (this %3 file replaces the %4 profile %5; fix "
                                  "it, or remove it to use that one)")
                .arg(id, b.firstError.message, b.origin, b.shadowedOrigin, b.shadowedFile);
    return {};
}

const ClusterProfile *ProfileRegistry::find(const QString &id) const
{
    for (const auto &p : m_profiles)
        if (p.id == id)
            return &p;
    return nullptr;
}

}   // namespace scalelab
