// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "ui/common/ClusterDiscovery.h"

#include <QWizardPage>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace scalelab {

// The pages of "Add your cluster" (AddClusterWizard). They hold widgets and
// the researcher's edits; the wizard runs the connection.

class AddClusterIntroPage : public QWizardPage {
    Q_OBJECT
public:
    explicit AddClusterIntroPage(QWidget *parent = nullptr);
};

// An alias of the SSH config, or host / user / port / jump host.
class AddClusterConnectPage : public QWizardPage {
    Q_OBJECT
public:
    explicit AddClusterConnectPage(const QString &sshConfig, QWidget *parent = nullptr);

    bool aliasMode() const;
    QString alias() const;
    QString host() const;
    QString user() const;
    int port() const;
    QString jump() const;
    // A form that cannot be tried fails (InvalidValue) naming the field to fix.
    Result<void> check() const;

    QComboBox *aliasCombo() const { return m_alias; }
    QRadioButton *hostModeButton() const { return m_hostMode; }
    QLineEdit *hostEdit() const { return m_host; }

    bool isComplete() const override;
    bool validatePage() override;

private:
    void updateResolved();
    void updateMode();

    QString m_sshConfig;
    QRadioButton *m_aliasMode;
    QRadioButton *m_hostMode;
    QComboBox *m_alias;
    QLabel *m_resolved;
    QLineEdit *m_host;
    QLineEdit *m_user;
    QSpinBox *m_port;
    QLineEdit *m_jump;
    QLabel *m_problem;
};

// Host key check, connection test and discovery, as they happen.
class AddClusterDiscoverPage : public QWizardPage {
    Q_OBJECT
public:
    explicit AddClusterDiscoverPage(QWidget *parent = nullptr);

    void setRunning(bool running);
    void appendLine(const QString &line);
    void clearLog();
    void setOutcome(const std::optional<DiscoveryOutcome> &outcome);
    QString logText() const;
    QPushButton *retryButton() const { return m_retry; }

    bool isComplete() const override;

Q_SIGNALS:
    void started();   // initializePage or Retry: the wizard connects

protected:
    void initializePage() override;
    void cleanupPage() override;

private:
    QPlainTextEdit *m_log;
    QProgressBar *m_progress;
    QPushButton *m_retry;
    bool m_running = false;
    bool m_done = false;
};

// What was found, with its source; values can be edited before saving.
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
