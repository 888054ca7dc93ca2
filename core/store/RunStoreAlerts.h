// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/Alerts.h"
#include "core/store/RunStoreGroup.h"

#include <QList>

namespace scalelab {

// The live alerts of running runs (RunStoreAlerts.cpp), one per run and rule.
class RunStoreAlerts : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<bool> recordAlert(AlertRecord &alert);
    Result<QList<AlertRecord>> alerts(const QList<qint64> &runIds);
    Result<QList<AlertRecord>> unnotifiedAlerts();
    Result<void> markAlertsNotified(const QList<qint64> &alertIds);
};

}   // namespace scalelab
