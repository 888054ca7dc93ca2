// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QCheckBox;
class QSpinBox;

namespace scalelab {

class AlertSettingsBox;
class AppServices;

// Preferences (AppSettings): poll interval (>= 10 s), notifications, how much
// output the Jobs place keeps, the download cap, and a way to the per-cluster
// connections. Open it with open(); Save applies at once.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(AppServices &services, QWidget *parent = nullptr);

    void save();

private:
    AppServices &m_services;
    QSpinBox *m_poll;
    QCheckBox *m_notify;
    QSpinBox *m_tail;
    QSpinBox *m_fetch;
    AlertSettingsBox *m_alerts;
};

}   // namespace scalelab
