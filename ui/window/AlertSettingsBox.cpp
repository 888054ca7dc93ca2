// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/window/AlertSettingsBox.h"

#include "core/ingest/AlertRules.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace scalelab {

namespace {

QSpinBox *seconds(const QString &name, double value)
{
    auto *s = new QSpinBox;
    s->setObjectName(name);
    s->setRange(1, 86400);
    s->setSuffix(QStringLiteral(" s"));
    s->setValue(int(value));
    return s;
}

}   // namespace

AlertSettingsBox::AlertSettingsBox(const AlertThresholds &current, QWidget *parent)
    : QGroupBox(tr("Live alerts while a job runs"), parent)
    , m_idlePercent(new QDoubleSpinBox)
    , m_idleSeconds(seconds(QStringLiteral("alertIdleSeconds"), current.idleSeconds))
    , m_warmupSeconds(seconds(QStringLiteral("alertWarmupSeconds"), current.warmupSeconds))
    , m_silentSeconds(seconds(QStringLiteral("alertSilentSeconds"), current.silentSeconds))
    , m_dropPercent(new QSpinBox)
{
    setObjectName(QStringLiteral("alertSettings"));
    auto *form = new QFormLayout(this);
    m_idlePercent->setObjectName(QStringLiteral("alertIdlePercent"));
    m_idlePercent->setRange(0, 100);
    m_idlePercent->setSuffix(QStringLiteral(" %"));
    m_idlePercent->setValue(current.idlePercent);
    form->addRow(tr("A GPU is idle under:"), m_idlePercent);
    form->addRow(tr("Alert when idle for:"), m_idleSeconds);
    m_warmupSeconds->setRange(0, 86400);
    m_warmupSeconds->setToolTip(tr("From the job's first GPU sample: loading data, compiling"));
    form->addRow(tr("After a warm-up of:"), m_warmupSeconds);
    m_silentSeconds->setToolTip(tr("No new output this long while every GPU is idle: a likely hang"));
    form->addRow(tr("Output silent for:"), m_silentSeconds);
    m_dropPercent->setObjectName(QStringLiteral("alertDropPercent"));
    m_dropPercent->setRange(1, 99);
    m_dropPercent->setSuffix(QStringLiteral(" %"));
    m_dropPercent->setValue(qRound(current.throughputDrop * 100));
    form->addRow(tr("Throughput below its median by:"), m_dropPercent);
    for (const AlertRule &r : AlertRules::table()) {
        auto *box = new QCheckBox(r.title);
        box->setObjectName(QStringLiteral("alertRule-") + r.id);
        box->setToolTip(r.action);
        box->setChecked(current.enabled(r.id));
        m_rules.insert(r.id, box);
        form->addRow(QString(), box);
    }
}

AlertThresholds AlertSettingsBox::thresholds() const
{
    AlertThresholds t;
    t.idlePercent = m_idlePercent->value();
    t.idleSeconds = m_idleSeconds->value();
    t.warmupSeconds = m_warmupSeconds->value();
    t.silentSeconds = m_silentSeconds->value();
    t.throughputDrop = m_dropPercent->value() / 100.0;
    for (const AlertRule &r : AlertRules::table())
        if (!m_rules.value(r.id)->isChecked())
            t.disabled << r.id;
    return t;
}

}   // namespace scalelab
