// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/AlertBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSet>

namespace scalelab {

AlertBanner::AlertBanner(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel)
    , m_cancel(new QPushButton(tr("Cancel job…")))
    , m_dismiss(new QPushButton(tr("Dismiss")))
{
    setObjectName(QStringLiteral("alertBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, QColor(0xfd, 0xec, 0xea));
    pal.setColor(QPalette::WindowText, QColor(0x5c, 0x10, 0x0a));
    setPalette(pal);
    m_text->setObjectName(QStringLiteral("alertText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cancel->setObjectName(QStringLiteral("alertCancelButton"));
    m_dismiss->setObjectName(QStringLiteral("alertDismissButton"));
    auto *row = new QHBoxLayout(this);
    row->addWidget(m_text, 1);
    row->addWidget(m_cancel);
    row->addWidget(m_dismiss);
    connect(m_cancel, &QPushButton::clicked, this, [this] { Q_EMIT cancelRequested(m_runId); });
    connect(m_dismiss, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT dismissed();
    });
    hide();
}

void AlertBanner::showAlerts(const QList<AlertRecord> &alerts, bool away)
{
    if (alerts.isEmpty()) {
        m_runId = 0;
        hide();
        return;
    }
    const AlertRecord &a = alerts.last();
    m_runId = a.runId;
    QSet<qint64> runs;
    for (const AlertRecord &x : alerts)
        runs.insert(x.runId);
    QString text;
    if (away)
        text =
            tr("While you were away: %n alert(s) on %1 run(s). Newest: ", nullptr, int(alerts.size())).arg(runs.size());
    text += tr("Run %1 — %2: %3.\n%4").arg(a.runId).arg(a.title, a.evidence, a.action);
    if (!away && alerts.size() > 1)
        text += tr("\n(%n more alert(s) before it)", nullptr, int(alerts.size() - 1));
    m_text->setText(text);
    m_cancel->setToolTip(tr("scancel run %1's job (asks first)").arg(a.runId));
    show();
}

}   // namespace scalelab
