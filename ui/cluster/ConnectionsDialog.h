// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/discovery/SacctmgrParsers.h"
#include "ui/common/AppSettings.h"

#include <QDialog>
#include <QHash>
#include <QPointer>

#include <memory>

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
class QTemporaryDir;
class QVBoxLayout;

namespace scalelab {

class AppServices;
class ClusterConnection;
class GuiSshCallbacks;
struct SshConnectionSettings;

// How to reach each cluster: an alias of ~/.ssh/config (default: the
// profile's login host alias) or host / user / port / jump host, prefilled
// from the SSH config and the profile. "Test" logs in through a
// ClusterConnection (host key, passphrase and MFA dialogs as in real use)
// and shows Slurm's version and the researcher's accounts and partitions.
class ConnectionsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectionsDialog(AppServices &services, QWidget *parent = nullptr);
    ~ConnectionsDialog() override;

    void selectProfile(const QString &profileId);
    void startTest();
    void cancelTest();
    bool isTesting() const { return m_test != nullptr; }
    QString resultText() const;
    Result<void> save();

    // "account: partition, partition" lines ("all partitions" when none is named)
    // of `sacctmgr -P show assoc ... format=Account,Partition`, read by SacctmgrParsers.
    static QStringList accountLines(const QList<AccountPartitions> &accounts);

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
    Result<SshConnectionSettings> testSettings();   // the form as a connection to try
    void finishTest(bool ok, const QString &text);

    AppServices &m_services;
    QHash<QString, AppSettings::ClusterConnection> m_edited;
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
    ClusterConnection *m_test = nullptr;   // deletes itself once its task ended
    GuiSshCallbacks *m_testCallbacks = nullptr;
    std::shared_ptr<QTemporaryDir> m_testConfigDir;
};

}   // namespace scalelab
