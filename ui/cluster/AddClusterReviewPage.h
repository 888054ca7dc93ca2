// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/base/Result.h"
#include "core/model/ClusterProfile.h"

#include <QWizardPage>

class QLabel;
class QLineEdit;
class QTableWidget;

namespace scalelab {

// "Add your cluster", what was found, with its source; values can be edited before saving.
class AddClusterReviewPage : public QWizardPage {
    Q_OBJECT
public:
    explicit AddClusterReviewPage(QWidget *parent = nullptr);

    void setProfile(const ClusterProfile &profile, const Diagnostics &diagnostics);
    // The profile with the researcher's edits (ids, names, table values);
    // or an InvalidValue error saying what cannot be used (naming partition and field).
    Result<ClusterProfile> editedProfile() const;

    QTableWidget *table() const { return m_table; }
    QLineEdit *idEdit() const { return m_id; }
    // Row of (partition, field) in the table, -1 when absent.
    int rowOf(const QString &partition, const QString &field) const;
    void showProblem(const QString &text);

    bool isComplete() const override;
    bool validatePage() override;

private:
    void addRow(const QString &partition, const QString &field, const QString &value, const QString &source,
                bool editable);

    ClusterProfile m_profile;
    QLineEdit *m_id;
    QLineEdit *m_name;
    QTableWidget *m_table;
    QLabel *m_notes;
    QLabel *m_problem;
};

}   // namespace scalelab
