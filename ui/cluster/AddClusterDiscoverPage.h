// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/ClusterDiscovery.h"

#include <optional>

#include <QWizardPage>

class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace scalelab {

// "Add your cluster": host key check, connection test and discovery, as they
// happen (the wizard runs the connection).
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

}   // namespace scalelab
