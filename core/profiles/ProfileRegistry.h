// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/base/Diagnostic.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

// Loads every *.json from the profile folders, in rising precedence:
//   1. shipped   (installed with the program, or the source tree's profiles/)
//   2. system    ($XDG_CONFIG_DIRS/scalelab/profiles, default /etc/xdg/scalelab/profiles: site admins)
//   3. user      (~/.local/share/ScaleLab/profiles and ~/.config/ScaleLab/profiles)
// A profile with the same id in a higher folder replaces the lower one whole;
// two files with one id in the same level: the first (by folder, then name)
// wins and the other is reported. A broken file is reported (file,
// line/column or key) and skipped; the others still load.
class ProfileRegistry {
public:
    void loadDefaults();   // every folder above, lowest first
    void loadDirectory(const QString &dir, bool userDir);
    void loadDirectory(const QString &dir, const QString &origin);   // "shipped", "system" or "user"

    const QList<ClusterProfile> &profiles() const { return m_profiles; }
    const ClusterProfile *find(const QString &id) const;
    const Diagnostics &problems() const { return m_problems; }   // field = file path

    static QStringList builtInDirectories();
    static QString userDirectory();   // where a user's new profiles go (XDG data)
    static QStringList userDirectories();   // XDG data, then XDG config
    static QStringList systemDirectories();   // $SCALELAB_SYSTEM_PROFILE_DIR, else $XDG_CONFIG_DIRS/scalelab/profiles
    static int precedence(const QString &origin);

private:
    QList<ClusterProfile> m_profiles;
    Diagnostics m_problems;
};

}   // namespace scalelab
