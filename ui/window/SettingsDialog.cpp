// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/SettingsDialog.h"

#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/ClusterService.h"
#include "ui/window/AlertSettingsBox.h"
#include "core/client/PollScheduler.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QMessageBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace scalelab {

SettingsDialog::SettingsDialog(AppServices &services, QWidget *parent)
    : QDialog(parent)
    , m_services(services)
    , m_poll(new QSpinBox)
    , m_notify(new QCheckBox(tr("Notify me when a run ends")))
    , m_tail(new QSpinBox)
    , m_fetch(new QSpinBox)
    , m_alerts(new AlertSettingsBox(AppSettings::alertThresholds()))
{
    setWindowTitle(tr("ScaleLab settings"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_poll->setObjectName(QStringLiteral("pollInterval"));
    m_poll->setRange(PollScheduler::kMinimumSeconds, PollScheduler::kMaximumSeconds);
    m_poll->setSuffix(tr(" s"));
    m_poll->setValue(AppSettings::pollIntervalSeconds());
    m_poll->setToolTip(tr("How often squeue/sacct are asked while you have active jobs. Slurm's manual warns "
                          "that frequent polling loads the controller: 30 s or more is kind, 10 s is the minimum. "
                          "It backs off by itself while the cluster does not answer."));
    form->addRow(tr("Poll the clusters every:"), m_poll);
    m_notify->setObjectName(QStringLiteral("notifications"));
    m_notify->setChecked(AppSettings::notificationsEnabled());
    form->addRow(QString(), m_notify);
    m_tail->setObjectName(QStringLiteral("tailKilobytes"));
    m_tail->setRange(4, 16 * 1024);
    m_tail->setSuffix(tr(" KiB"));
    m_tail->setValue(AppSettings::tailBytes() / 1024);
    m_tail->setToolTip(tr("How much of a running job's output is fetched per poll and shown"));
    form->addRow(tr("Output tail size:"), m_tail);
    m_fetch->setObjectName(QStringLiteral("fetchMegabytes"));
    m_fetch->setRange(1, 4096);
    m_fetch->setSuffix(tr(" MiB"));
    m_fetch->setValue(int(AppSettings::fetchBytes() / (1024 * 1024)));
    m_fetch->setToolTip(tr("Largest output file downloaded whole when a run ends (larger ones keep their start)"));
    form->addRow(tr("Download outputs up to:"), m_fetch);
    layout->addLayout(form);
    layout->addWidget(m_alerts);

    auto *connections = new QPushButton(tr("Cluster connections…"));
    connections->setObjectName(QStringLiteral("connectionsButton"));
    connect(connections, &QPushButton::clicked, this, [this, connections] {
        if (const auto opened = m_services.openConnections(this); !opened)
            connections->setToolTip(tr("Connections cannot be edited: %1").arg(opened.errorText()));
    });
    layout->addWidget(connections, 0, Qt::AlignLeft);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        save();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

void SettingsDialog::save()
{
    AppSettings::set(AppSettings::Key::PollIntervalSeconds, m_poll->value());
    AppSettings::set(AppSettings::Key::NotificationsEnabled, m_notify->isChecked());
    AppSettings::set(AppSettings::Key::TailKilobytes, m_tail->value());
    AppSettings::set(AppSettings::Key::FetchMegabytes, m_fetch->value());
    AppSettings::setAlertThresholds(m_alerts->thresholds());
    if (const auto saved = AppSettings::save(); !saved) {
        // On the window: this dialog closes next.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Settings not saved"), saved.errorText(), QMessageBox::Ok,
                                    parentWidget());
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    if (ClusterService *cm = m_services.clusters())
        cm->applySettings();
}

}   // namespace scalelab
