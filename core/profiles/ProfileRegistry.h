#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// Loads every profiles/*.json from the built-in directories and then the user
// profile directory (XDG data dir, "profiles"), where a file with the same id
// overrides a built-in one. A broken file is reported (file, line/column or
// key) and skipped; the others still load.
class ProfileRegistry {
public:
    void loadDefaults();   // built-in dirs + user dir
    void loadDirectory(const QString &dir, bool userDir);

    const QList<ClusterProfile> &profiles() const { return m_profiles; }
    const ClusterProfile *find(const QString &id) const;
    const Diagnostics &problems() const { return m_problems; }   // field = file path

    static QStringList builtInDirectories();
    static QString userDirectory();

private:
    QList<ClusterProfile> m_profiles;
    Diagnostics m_problems;
};

} // namespace scalelab
