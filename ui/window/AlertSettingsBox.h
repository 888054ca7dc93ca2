// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/Alerts.h"

#include <QGroupBox>
#include <QHash>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

namespace scalelab {

// The settings dialog's "Live alerts" group: each rule of AlertRules::table()
// switchable, and the thresholds (AppSettings::alertThresholds).
class AlertSettingsBox : public QGroupBox {
    Q_OBJECT
public:
    explicit AlertSettingsBox(const AlertThresholds &current, QWidget *parent = nullptr);
    AlertThresholds thresholds() const;

private:
    QDoubleSpinBox *m_idlePercent;
    QSpinBox *m_idleSeconds;
    QSpinBox *m_warmupSeconds;
    QSpinBox *m_silentSeconds;
    QSpinBox *m_dropPercent;
    QHash<QString, QCheckBox *> m_rules;
};

}   // namespace scalelab
