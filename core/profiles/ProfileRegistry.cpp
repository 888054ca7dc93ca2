#include "core/profiles/ProfileRegistry.h"

#include "core/profiles/ProfileLoader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

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
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QStringLiteral("/ScaleLab/profiles");
}

void ProfileRegistry::loadDefaults()
{
    for (const auto &dir : builtInDirectories())
        loadDirectory(dir, false);
    const QString user = userDirectory();
    if (QFileInfo(user).isDir())
        loadDirectory(user, true);
}

void ProfileRegistry::loadDirectory(const QString &dir, bool userDir)
{
    const QFileInfoList files =
        QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name);
    for (const QFileInfo &fi : files) {
        auto result = loadProfileFile(fi.absoluteFilePath());
        for (auto d : result.problems) {
            d.field = fi.absoluteFilePath();
            m_problems << d;
        }
        if (!result.profile)
            continue;
        ClusterProfile p = *result.profile;
        p.userOverride = userDir;
        auto it = std::find_if(m_profiles.begin(), m_profiles.end(),
                               [&](const ClusterProfile &e) { return e.id == p.id; });
        if (it == m_profiles.end()) {
            m_profiles << p;
        } else if (userDir && !it->userOverride) {
            *it = p;   // the user's copy replaces the built-in one
        } else {
            m_problems << Diagnostic{Severity::Warning, QStringLiteral("profile-duplicate-id"), fi.absoluteFilePath(),
                                     0, 0,
                                     QStringLiteral("%1: id \"%2\" is already defined by %3; this file is ignored")
                                         .arg(fi.absoluteFilePath(), p.id, it->filePath),
                                     {}};
        }
    }
    std::sort(m_profiles.begin(), m_profiles.end(),
              [](const ClusterProfile &a, const ClusterProfile &b) { return a.name.localeAwareCompare(b.name) < 0; });
}

const ClusterProfile *ProfileRegistry::find(const QString &id) const
{
    for (const auto &p : m_profiles)
        if (p.id == id)
            return &p;
    return nullptr;
}

} // namespace scalelab
