// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/Alerts.h"

#include <QFrame>
#include <QList>

class QLabel;
class QPushButton;

namespace scalelab {

// The banner over Jobs' table while live alerts wait (ClusterService::
// bannerAlerts): the newest alert's title, evidence and action, how many more,
// and Cancel job (of the newest alert's run, asked first by Jobs) / Dismiss.
// After a start it summarises what was raised while the window was closed.
class AlertBanner : public QFrame {
    Q_OBJECT
public:
    explicit AlertBanner(QWidget *parent = nullptr);

    // Shows `alerts` (hidden when empty); `away`: raised while the window was closed.
    void showAlerts(const QList<AlertRecord> &alerts, bool away);
    qint64 runId() const { return m_runId; }   // the run Cancel job acts on
    QLabel *textLabel() const { return m_text; }
    QPushButton *cancelButton() const { return m_cancel; }

Q_SIGNALS:
    void cancelRequested(qint64 runId);
    void dismissed();

private:
    QLabel *m_text;
    QPushButton *m_cancel;
    QPushButton *m_dismiss;
    qint64 m_runId = 0;
};

}   // namespace scalelab
