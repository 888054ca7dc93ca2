#pragma once

#include "ProfileRegistry.h"

#include <QtTest>

namespace scalelab::test {

// The repo's own profiles, loaded exactly as the app loads them.
inline const ProfileRegistry &repoProfiles()
{
    static ProfileRegistry reg = [] {
        ProfileRegistry r;
        r.loadDirectory(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles"), false);
        return r;
    }();
    return reg;
}

inline const ClusterProfile &repoProfile(const QString &id)
{
    const ClusterProfile *p = repoProfiles().find(id);
    if (!p)
        qFatal("profile %s missing from profiles/", qPrintable(id));
    return *p;
}

} // namespace scalelab::test
