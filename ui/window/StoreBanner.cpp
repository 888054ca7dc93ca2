// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/StoreBanner.h"

#include "ui/common/AppServices.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>

namespace scalelab {

StoreBanner::StoreBanner(AppServices &services, QWidget *parent)
    : QFrame(parent)
    , m_services(services)
    , m_text(new QLabel(this))
    , m_retry(new QPushButton(tr("&Retry"), this))
    , m_restore(new QPushButton(tr("Restore last &backup"), this))
    , m_delay(new QTimer(this))
{
    setObjectName(QStringLiteral("storeBanner"));
    setAccessibleName(tr("Run store"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_retry->setObjectName(QStringLiteral("storeRetryButton"));
    m_restore->setObjectName(QStringLiteral("storeRestoreButton"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *lay = new QHBoxLayout(this);
    lay->addWidget(m_text, 1);
    lay->addWidget(m_retry);
    lay->addWidget(m_restore);
    m_delay->setSingleShot(true);
    m_delay->setInterval(300);
    connect(m_delay, &QTimer::timeout, this, &StoreBanner::refresh);
    connect(m_retry, &QPushButton::clicked, &services, &AppServices::openStoreInBackground);
    connect(m_restore, &QPushButton::clicked, this, [this] {
        m_restore->setEnabled(false);
        m_services.runStoreTask(AppServices::StoreTask::RestoreLatest);
    });
    connect(&services, &AppServices::storeTaskFinished, this, [this] { m_restore->setEnabled(true); });
    connect(&services, &AppServices::storeStateChanged, this, [this] {
        if (m_services.storeState() == AppServices::StoreState::Opening && isHidden())
            m_delay->start();   // shown only if the open takes a while
        else
            refresh();
    });
    hide();
}

QString StoreBanner::text() const
{
    return isVisible() ? m_text->text() : QString();
}

void StoreBanner::refresh()
{
    using State = AppServices::StoreState;
    const State state = m_services.storeState();
    if (state == State::Open || state == State::NotOpened) {
        hide();
        return;
    }
    if (state == State::Opening) {
        m_text->setText(tr("Opening the run store… Compose works meanwhile; Jobs and Results fill in when it is "
                           "open. If this lasts, another ScaleLab or program is writing to the store."));
    } else {
        m_text->setText(m_services.storeDamaged()
                            ? m_services.storeError()
                            : tr("The run store could not be opened: %1").arg(m_services.storeError()));
    }
    m_retry->setVisible(state == State::Failed && !m_services.storeDamaged());
    m_restore->setVisible(state == State::Failed && m_services.storeDamaged());
    show();
}

}   // namespace scalelab
