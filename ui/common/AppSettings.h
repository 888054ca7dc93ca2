// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/model/Alerts.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>

class QSettings;

namespace scalelab {

struct ClusterProfile;

// The app's preferences as a typed table over QSettings: every key has one
// name and one default here, so no caller spells a settings path or repeats
// a default. Used on the GUI thread only.
//
// Storage: $SCALELAB_SETTINGS_FILE (INI) when set — tests point it at a temp
// file — else QSettings' native place for "ScaleLab/ScaleLab".
class AppSettings {
public:
    enum class Key {
        PollIntervalSeconds,   // base interval of the squeue/sacct cycle (>= 10 s)
        NotificationsEnabled,   // desktop notification when a run ends
        TailKilobytes,   // how much of a running job's output the Jobs place keeps
        FetchMegabytes,   // per-file cap when outputs are downloaded after the end
        LastSpecJson,   // the Compose form when the window closed (profile included), "" = none
        LastSpecPath,   // the spec file it came from, "" = unsaved
        LastSpecModified,   // it differed from that file
    };

    static QVariant get(Key key);
    // Sets and saves; a save that fails is logged (scalelab.ui) and said by save().
    static void set(Key key, const QVariant &value);
    // Writes pending changes: QSettings replaces the file whole through a
    // temporary in its folder. The file and the reason when it could not.
    static Result<void> save();
    static void reset(Key key);
    static QVariant defaultValue(Key key);
    static QString name(Key key);   // the QSettings path, e.g. "polling/intervalSeconds"

    // Typed shortcuts (clamped to what the rest of the app accepts).
    static int pollIntervalSeconds();
    static bool notificationsEnabled();
    static int tailBytes();
    static qint64 fetchBytes();
    // The live alerts' thresholds and switched-off rules ("alerts/..."; the
    // window's Settings and `scalelab status`). Windows in seconds.
    static AlertThresholds alertThresholds();
    static void setAlertThresholds(const AlertThresholds &t);

    // Per cluster (profile id). The connection of a cluster is an alias of
    // the OpenSSH client config; without a stored one the profile's first
    // login host alias is used. When the researcher entered host/user/port
    // instead, ConnectionsDialog stores them and the alias names a generated
    // config entry (see generatedConfigPath()).
    struct ClusterConnection {
        QString alias;   // "" = the profile default
        QString hostName;   // "" = use the alias as it is in the SSH config
        QString user;
        int port = 22;
        QString proxyJump;
        QString identityFile;   // private key file (IdentityFile); "" = the SSH config's or agent's
    };
    static ClusterConnection clusterConnection(const QString &profileId);
    static Result<void> setClusterConnection(const QString &profileId, const ClusterConnection &c);
    // Profile ids with a stored connection (the researcher configured them).
    static QStringList configuredClusters();
    // The alias to connect with: stored alias, else the profile's first login host alias, else the id.
    static QString effectiveAlias(const QString &profileId, const ClusterProfile *profile);
    // $SCALELAB_SSH_CONFIG, else ~/.ssh/config, unless explicit hosts were
    // entered, in which case the generated file (which Includes that one).
    static QString sshConfigPath();
    static QString userSshConfigPath();
    // Whether `path` can be written as an IdentityFile line (InvalidValue: why not).
    static Result<void> checkIdentityFile(const QString &path);
    static QString generatedConfigPath();
    // The settings file: $SCALELAB_SETTINGS_FILE or QSettings' native file.
    static QString settingsFilePath();
    // Rewrites the generated config from every cluster with an explicit host.
    static Result<void> writeGeneratedConfig();
    static QString generatedAlias(const QString &profileId) { return QStringLiteral("scalelab-") + profileId; }

private:
    static QSettings &settings();
};

}   // namespace scalelab
