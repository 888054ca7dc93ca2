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
// line/column or key) and skipped; the others still load. A broken file that
// would replace a profile of a lower folder (same id, or named <id>.json when
// its id cannot be read) is never quietly replaced by that profile: the id is
// unusable until the file is fixed or removed (brokenOverride).
class ProfileRegistry {
public:
    void loadDefaults();   // every folder above, lowest first
    void loadDirectory(const QString &dir, bool userDir);
    void loadDirectory(const QString &dir, const QString &origin);   // "shipped", "system" or "user"

    const QList<ClusterProfile> &profiles() const { return m_profiles; }
    const ClusterProfile *find(const QString &id) const;
    const Diagnostics &problems() const { return m_problems; }   // field = file path
    // For an id whose override is broken (and no usable file of that level or
    // above gives it): one line for everyone asking for the profile, naming the
    // broken file with its first error (line and column) and the profile it
    // replaces; "" otherwise.
    QString brokenOverride(const QString &id) const;

    static QStringList builtInDirectories();
    static QString userDirectory();   // where a user's new profiles go (XDG data)
    static QStringList userDirectories();   // XDG data, then XDG config
    static QStringList systemDirectories();   // $SCALELAB_SYSTEM_PROFILE_DIR, else $XDG_CONFIG_DIRS/scalelab/profiles
    static int precedence(const QString &origin);

private:
    // A broken file and the lower profile it keeps out of use.
    struct BrokenFile {
        QString id;   // ProfileLoadResult::claimedId
        QString origin;
        Diagnostic firstError;
        QString shadowedOrigin;   // "" while it shadows nothing
        QString shadowedFile;
    };
    void addBroken(BrokenFile broken);
    bool shadowedByBroken(const ClusterProfile &p);   // true: not to be used

    QList<ClusterProfile> m_profiles;
    Diagnostics m_problems;
    QList<BrokenFile> m_broken;
};

}   // namespace scalelab
