// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/cluster/AddClusterDiscoverPage.h"

#include "ui/cluster/AddClusterLabels.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace scalelab {

AddClusterDiscoverPage::AddClusterDiscoverPage(QWidget *parent)
    : QWizardPage(parent)
    , m_log(new QPlainTextEdit(this))
    , m_progress(new QProgressBar(this))
    , m_retry(new QPushButton(tr("Try again"), this))
{
    setTitle(tr("Connect and discover"));
    setSubTitle(tr("Host key check, login, then read-only Slurm commands (one round trip)."));
    m_log->setObjectName(QStringLiteral("discoverLog"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_progress->setRange(0, 0);
    m_retry->setObjectName(QStringLiteral("retryButton"));
    auto *lay = new QVBoxLayout(this);
    lay->addWidget(m_log, 1);
    auto *row = new QHBoxLayout;
    row->addWidget(m_progress, 1);
    row->addWidget(m_retry);
    lay->addLayout(row);
    connect(m_retry, &QPushButton::clicked, this, &AddClusterDiscoverPage::started);
    setRunning(false);
}

void AddClusterDiscoverPage::initializePage()
{
    m_done = false;
    Q_EMIT started();
}

void AddClusterDiscoverPage::cleanupPage()
{
    m_done = false;
}

void AddClusterDiscoverPage::setRunning(bool running)
{
    m_running = running;
    m_progress->setVisible(running);
    m_retry->setVisible(!running && !m_done);
    Q_EMIT completeChanged();
}

void AddClusterDiscoverPage::appendLine(const QString &line)
{
    m_log->appendPlainText(line);
}

void AddClusterDiscoverPage::clearLog()
{
    m_log->clear();
}

QString AddClusterDiscoverPage::logText() const
{
    return m_log->toPlainText();
}

void AddClusterDiscoverPage::setOutcome(const std::optional<DiscoveryOutcome> &outcome)
{
    m_done = outcome && outcome->ok() && !outcome->built.profile.partitions.isEmpty();
    setRunning(false);
}

bool AddClusterDiscoverPage::isComplete() const
{
    return m_done && !m_running;
}

}   // namespace scalelab
