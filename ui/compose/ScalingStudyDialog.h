// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/ClusterProfile.h"
#include "core/model/JobSpec.h"
#include "core/compose/StudyPlanner.h"

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QGroupBox;
class QLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace scalelab {

class AppServices;
class StartCostPanel;

// A scaling study of the composed job: pick GPU counts and how the batch size
// follows them, see every variant (partition, geometry, GPU-hours, findings)
// and submit them as one study. Non-modal.
class ScalingStudyDialog : public QDialog {
    Q_OBJECT
public:
    ScalingStudyDialog(AppServices &services, const JobSpec &base, const ClusterProfile &profile,
                       QWidget *parent = nullptr);

    QList<int> selectedGpuCounts() const;
    void setSelectedGpuCounts(const QList<int> &counts);
    const QList<StudyVariant> &variants() const { return m_variants; }
    QTableWidget *table() const { return m_table; }
    StartCostPanel *startCostPanel() const { return m_startCost; }
    QPushButton *submitButton() const { return m_submitAll; }
    BatchScaling batchScaling() const;
    int repeats() const;
    StudyOrder order() const;
    QSpinBox *repeatsBox() const { return m_repeats; }
    QComboBox *orderCombo() const { return m_order; }
    QLineEdit *nameEdit() const { return m_name; }
    // The stored study names are still being read (the name may change once).
    bool isLoading() const { return !m_namesRead; }
    // After a submit the button stays disabled until the study changes
    // (name, counts, batch, repeats): a double-click never submits twice.
    bool submitted() const { return m_submitted; }

Q_SIGNALS:
    void message(const QString &text);

private:
    void buildStudyFields();
    QGroupBox *buildCountsBox(const Partition *part);
    QGroupBox *buildBatchBox();
    void buildVariantsTable();
    QLayout *buildButtons();
    void connectSignals();
    void replan();
    void submitAll();
    void dryRunAll();
    void estimateStart();
    void showStudyCost();

    AppServices &m_services;
    JobSpec m_base;
    ClusterProfile m_profile;
    QList<StudyVariant> m_variants;
    QList<QCheckBox *> m_counts;
    QString proposedName(const QStringList &taken = {}) const;   // unique among the stored studies and `taken`
    void readStudyNames();
    QStringList m_studyNames;   // the stored studies' (read on the pool) and those submitted here
    QString m_proposed;   // the name last proposed, replaced when the names arrive unless edited
    bool m_namesRead = false;
    QLineEdit *m_name;
    QSpinBox *m_repeats;
    QComboBox *m_order;
    bool m_submitted = false;
    QRadioButton *m_batchNone;
    QRadioButton *m_batchPerGpu;
    QRadioButton *m_batchGlobal;
    QLineEdit *m_batchName;
    QSpinBox *m_batchValue;
    QTableWidget *m_table;
    QLabel *m_totals;
    QLabel *m_log;
    StartCostPanel *m_startCost;
    int m_estimatedGpus = 0;   // the run whose start estimate was asked; 0 = none
    QPushButton *m_dryRunAll;
    QPushButton *m_submitAll;
    int m_dryRunsPending = 0;
};

}   // namespace scalelab
