// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"

#include <QWizardPage>

class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace scalelab {

// "Add your cluster", how to log in: an alias of the SSH config, or host / user / port / jump host.
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

}   // namespace scalelab
