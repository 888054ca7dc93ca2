// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compose/StartCostPanel.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>

namespace scalelab {

StartCostPanel::StartCostPanel(QWidget *parent)
    : QWidget(parent)
    , m_cost(new QLabel(this))
    , m_estimate(new QLabel(this))
    , m_ask(new QPushButton(tr("When would it start?"), this))
{
    m_cost->setObjectName(QStringLiteral("jobCost"));
    m_cost->setAccessibleName(tr("Cost"));
    m_cost->setWordWrap(true);
    m_cost->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_estimate->setObjectName(QStringLiteral("startEstimate"));
    m_estimate->setAccessibleName(tr("Start estimate"));
    m_estimate->setWordWrap(true);
    m_estimate->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ask->setObjectName(QStringLiteral("estimateStart"));
    m_ask->setAccessibleName(tr("When would it start?"));
    m_ask->setToolTip(tr("Ask Slurm when the job would start in each partition that fits it (sbatch --test-only, "
                         "nothing submitted); answers are kept a few minutes"));
    auto *lay = new QGridLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(new QLabel(tr("Cost:"), this), 0, 0, Qt::AlignTop);
    lay->addWidget(m_cost, 0, 1, 1, 2);
    lay->addWidget(new QLabel(tr("Starts:"), this), 1, 0, Qt::AlignTop);
    lay->addWidget(m_estimate, 1, 1);
    lay->addWidget(m_ask, 1, 2, Qt::AlignTop);
    lay->setColumnStretch(1, 1);
    setStale();
    connect(m_ask, &QPushButton::clicked, this, &StartCostPanel::estimateRequested);
}

void StartCostPanel::setCost(const QString &text)
{
    m_cost->setText(text);
}

void StartCostPanel::setEstimate(const QString &text, bool ok)
{
    m_estimate->setText(text);
    m_estimate->setForegroundRole(ok ? QPalette::WindowText : QPalette::PlaceholderText);
}

void StartCostPanel::setAsking()
{
    m_estimate->setText(tr("asking Slurm (sbatch --test-only)…"));
    m_estimate->setForegroundRole(QPalette::PlaceholderText);
}

void StartCostPanel::setStale()
{
    m_estimate->setText(tr("not asked yet for this job"));
    m_estimate->setForegroundRole(QPalette::PlaceholderText);
}

void StartCostPanel::setAskEnabled(bool enabled, const QString &tip)
{
    m_ask->setEnabled(enabled);
    if (!tip.isEmpty())
        m_ask->setToolTip(tip);
}

}   // namespace scalelab
