// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/AppSettings.h"

#include <QDialog>
#include <QHash>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QFormLayout;
class QTreeWidget;
class QVBoxLayout;

namespace scalelab {

class AppServices;
class ConnectionTest;

// How to reach each cluster: an alias of ~/.ssh/config (default: the
// profile's login host alias) or host / user / port / jump host, prefilled
// from the SSH config and the profile. "Test" logs in through a
// ConnectionTest and shows Slurm's version and the researcher's accounts and
// partitions.
class ConnectionsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectionsDialog(AppServices &services, QWidget *parent = nullptr);
    ~ConnectionsDialog() override;

    void selectProfile(const QString &profileId);
    void startTest();
    void cancelTest();
    bool isTesting() const;
    QString resultText() const;
    Result<void> save();

    // Every profile with how it is reached and its state this session.
    QTreeWidget *overview() const { return m_overview; }
    QString currentProfile() const { return m_current; }
    void refreshOverview();

Q_SIGNALS:
    void testFinished(bool ok);

private:
    void buildProfileRow(QVBoxLayout *layout);
    void buildConnectBox(QVBoxLayout *layout);
    void addConfigNote(QVBoxLayout *layout);
    void buildTestRow(QVBoxLayout *layout);
    void buildButtons(QVBoxLayout *layout);
    void connectFields();
    void loadForm(const QString &profileId);
    void storeForm();
    void updateResolved();
    void updateMode();
    void finishTest(bool ok, const QString &text);

    AppServices &m_services;
    QHash<QString, AppSettings::ClusterConnection> m_edited;
    // Per profile, what its last test in this dialog found and the details it
    // tested: the overview's state, until the details change.
    struct Tested {
        QString details;   // detailsKey() of what was tested
        QString state;
    };
    QHash<QString, Tested> m_tested;
    static QString detailsKey(const AppSettings::ClusterConnection &c);
    QString m_current;
    QComboBox *m_profile;
    QRadioButton *m_aliasMode;
    QRadioButton *m_hostMode;
    QLineEdit *m_alias;
    QLabel *m_resolved;
    QLineEdit *m_host;
    QLineEdit *m_user;
    QSpinBox *m_port;
    QLineEdit *m_jump;
    QLineEdit *m_key;
    QFormLayout *m_form = nullptr;
    QTreeWidget *m_overview;
    QPushButton *m_testButton;
    QPushButton *m_cancelButton;
    QProgressBar *m_progress;
    QPlainTextEdit *m_result;
    ConnectionTest *m_tester = nullptr;
};

}   // namespace scalelab
