// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace scalelab {

// Beside the partition picker (Compose) and in the study dialog: what the job
// costs (JobCost / StudyCost's words, computed in core) and, on demand, when
// it would start in each partition that fits (ClusterService::estimateStart).
// It draws text only.
class StartCostPanel : public QWidget {
    Q_OBJECT
public:
    explicit StartCostPanel(QWidget *parent = nullptr);

    void setCost(const QString &text);
    void setEstimate(const QString &text, bool ok);
    void setAsking();
    // The job changed since the estimate shown: it is no longer this job's.
    void setStale();
    void setAskEnabled(bool enabled, const QString &tip);

    QLabel *costLabel() const { return m_cost; }
    QLabel *estimateLabel() const { return m_estimate; }
    QPushButton *askButton() const { return m_ask; }

Q_SIGNALS:
    void estimateRequested();

private:
    QLabel *m_cost;
    QLabel *m_estimate;
    QPushButton *m_ask;
};

}   // namespace scalelab
