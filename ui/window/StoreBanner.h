// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;
class QTimer;

namespace scalelab {

class AppServices;

// A line above the places while the run store is opened on the pool (after
// a moment, so a quick open never flashes), or why it could not be: busy
// (another ScaleLab or program holds it: Retry) or damaged (Restore last
// backup), whether the damage was found at the open or later (a read or
// write answered "corrupt", a check). The places stay usable meanwhile.
class StoreBanner : public QFrame {
    Q_OBJECT
public:
    explicit StoreBanner(AppServices &services, QWidget *parent = nullptr);
    QString text() const;

private:
    void refresh();

    AppServices &m_services;
    QLabel *m_text;
    QPushButton *m_retry;
    QPushButton *m_restore;
    QTimer *m_delay;
};

}   // namespace scalelab
