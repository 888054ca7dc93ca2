// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/JobSpec.h"
#include "core/model/LaunchGeometry.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace scalelab {

class EnvironmentEditor;
class SegmentsEditor;
class StartCostPanel;
class ProfileRegistry;
struct ClusterProfile;

// The job form: every JobSpec field as a widget, choices filtered by the
// selected profile and partition. It knows nothing about rendering; the
// Compose place re-renders on edited().
class JobForm : public QWidget {
    Q_OBJECT
public:
    explicit JobForm(const ProfileRegistry &profiles, QWidget *parent = nullptr);

    JobSpec spec() const;
    void setSpec(const JobSpec &spec);   // does not emit edited()
    // An imported script's partition stays selected when the profile changes
    // (shown as "not in this profile" there) until another one is chosen.
    void keepPartitionAcrossProfiles(const QString &partition) { m_keptPartition = partition; }
    const ClusterProfile *profile() const;
    // The profile folders were read again: the list is rebuilt, the spec kept.
    void reloadProfiles();

    // Derived values shown in the form (e.g. "auto (2)" nodes).
    void showGeometry(const LaunchGeometry &g);

    // Spec field key (Diagnostic::field) -> the widget that edits it.
    QWidget *fieldWidget(const QString &field) const;
    // Focuses the field's widget and frames it until clearMarks().
    bool focusField(const QString &field, Severity severity);
    void clearMarks();
    // The validator's findings the form shows beside its fields (segments').
    void showFindings(const Diagnostics &diagnostics);
    SegmentsEditor *segmentsEditor() const { return m_segments; }

    // Items of profileCombo() for profile files that failed to load carry
    // true in this role (and are disabled, with the problems as tooltip).
    static constexpr int kBrokenProfileRole = Qt::UserRole + 1;
    QComboBox *profileCombo() const { return m_profile; }
    QComboBox *partitionCombo() const { return m_partition; }
    QSpinBox *gpusSpin() const { return m_gpus; }
    QLineEdit *timeEdit() const { return m_time; }
    // Cost and start estimate, under the partition picker (filled by the Compose place).
    StartCostPanel *startCostPanel() const { return m_startCost; }

Q_SIGNALS:
    void edited();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createFields();
    void layOutGroups();
    void setFieldOrder();
    void connectFields();
    void buildProfiles();
    void addBrokenProfiles();
    void fillPartitions(const ClusterProfile *p, const QString &selected);
    void fillLaunchers(Framework f, std::optional<Launcher> selected);
    void updatePartitionInfo();
    QString partitionInfoText(const ClusterProfile &profile, const Partition &p) const;
    // The limits line keeps the height of the profile's tallest at its width:
    // the fields below it never move when the partition changes.
    void reservePartitionInfoHeight();
    void onProfileChanged();
    void changed();

    const ProfileRegistry &m_profiles;
    QComboBox *m_profile;
    QComboBox *m_partition;
    QLabel *m_partitionInfo;
    StartCostPanel *m_startCost;
    QSpinBox *m_gpus;
    QSpinBox *m_nodes;
    QComboBox *m_framework;
    QComboBox *m_launcher;
    QLineEdit *m_time;
    QLineEdit *m_account;
    QLineEdit *m_jobName;
    QLineEdit *m_program;
    QLineEdit *m_args;
    QSpinBox *m_cpusPerGpu;
    QLineEdit *m_memory;
    QSpinBox *m_sampling;
    QLineEdit *m_metricDirs;
    QLineEdit *m_projectFolder;   // JobSpec::project
    QLineEdit *m_remoteFolder;
    // An imported script's own #SBATCH options (qos, reservation ...): no
    // field of their own, kept so the script shows and submits them.
    QList<QPair<QString, QString>> m_slurmOptions;
    QStringList m_binding;   // srun's --cpu-bind/--gpu-bind of the script
    QList<QPair<QString, QString>> m_taskVariables;   // RANK=$SLURM_PROCID of a bash -c wrapper
    SegmentsEditor *m_segments;   // JobSpec::segments
    EnvironmentEditor *m_env;
    QHash<QString, QWidget *> m_fields;
    QList<QWidget *> m_marked;
    bool m_updating = false;
    QString m_keptPartition;
};

}   // namespace scalelab
