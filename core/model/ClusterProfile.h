// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/GpuType.h"
#include "core/model/LoginHost.h"
#include "core/model/Partition.h"
#include "core/model/QosLimits.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// How a site wants GPUs requested in #SBATCH lines.
enum class GpuRequestStyle {
    GresTyped,   // --gres=gpu:v100:4 (per node)
    Gres,   // --gres=gpu:4 (per node)
    GpusPerNode,   // --gpus-per-node=8
    GpusPerTask,   // --gpus-per-task=1
};

QString gpuRequestStyleId(GpuRequestStyle s);
std::optional<GpuRequestStyle> gpuRequestStyleFromId(const QString &id);

struct ProfileNote {
    QString rule;   // diagnostic rule id it raises, e.g. "site-cpus-per-gpu"
    QString text;
    QString source;
    bool operator==(const ProfileNote &) const = default;
};

// One association of the researcher (`sacctmgr show assoc`): the QOS a job
// under that account gets unless it asks another with --qos.
struct UserAssociation {
    QString account;
    QString partition;   // "" = every partition
    QString defaultQos;   // DefaultQOS; "" = none set
    QStringList qos;   // QOS the association may use
    QString source;

    // Slurm's choice: the default QOS, else the only one allowed; "" = not known.
    QString effectiveQos() const
    {
        return !defaultQos.isEmpty() ? defaultQos : qos.size() == 1 ? qos.front() : QString();
    }
    bool operator==(const UserAssociation &) const = default;
};

struct ClusterProfile {
    QString id;
    QString name;
    QString site;
    QString description;
    QString docsUrl;
    QString filePath;   // where it was loaded from
    bool userOverride = false;
    QString origin;   // "user", "system" or "shipped" folder it came from
    QString discovered;   // "ALIAS DATE" for a profile written by `scalelab discover`, else ""
    QString slurmVersion;   // as documented, informational
    bool isTemplate = false;   // "template": true (generic): names no real site, so states no partition or GPU type
    // The SPANK plugins the site runs (Shifter, pyxis ...), as the profile states
    // them with a source; nullopt = not stated, so an unknown option may be theirs.
    std::optional<QStringList> sitePlugins;

    QList<LoginHost> loginHosts;
    QList<GpuType> gpuTypes;
    QList<Partition> partitions;
    QList<QosLimits> qos;   // QOS named by partitions (Partition::qos) and by associations
    QList<UserAssociation> associations;   // the researcher's, as discovered; empty = not described

    bool accountRequired = false;
    QString accountPattern;   // regular expression the account must match
    QString accountExample;
    GpuRequestStyle gpuRequest = GpuRequestStyle::GresTyped;
    bool memoryRequired = false;   // site rejects jobs without --mem
    bool cpusPerGpuBroken = false;   // --cpus-per-gpu breaks GPU-to-GPU comms (LUMI)
    QString containerRuntime = QStringLiteral("singularity");
    QStringList defaultModules;
    // Folders on the cluster that hold container images (as written: $NAME expands there).
    QStringList containerDirs;
    // What the cluster has, as discovered (sources "availableModules" and
    // "containerImages" say the command and date); nullopt = never listed,
    // so nothing is checked against it. SoftwareCatalog reads them.
    std::optional<QStringList> availableModules;   // "name/version", sorted
    std::optional<QStringList> containerImages;   // "<containerDir>/<file>", sorted
    QStringList torchrunArgs;
    QString cpuBind = QStringLiteral(
        "cores");   // srun --cpu-bind value; "none" = leave binding to the site   // extra torchrun flags the site needs (e.g. a distro bug workaround)
    QList<QPair<QString, QString>> defaultVariables;   // e.g. NCCL_SOCKET_IFNAME
    // Where project snapshots go on the cluster when a spec names no remote
    // folder: "$HOME/scalelab", or a path on the site's project scratch
    // (absolute; only a leading $HOME or ~ expands).
    QString remoteProjectFolder = QStringLiteral("$HOME/scalelab");
    QList<ProfileNote> notes;
    QMap<QString, QString> sources;   // site-level settings -> URL

    const Partition *partition(const QString &name) const;
    const Partition *defaultPartition() const;
    const GpuType *gpuType(const QString &id) const;
    const QosLimits *qosNamed(const QString &name) const;
    bool operator==(const ClusterProfile &) const = default;
};

}   // namespace scalelab
