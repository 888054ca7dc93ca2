// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

// What a stored metric means: where it is read from and how it is computed,
// for column and chart tooltips and the report. "" for names it does not know
// (user patterns describe themselves through their rule).
QString metricDescription(const QString &name);

}   // namespace scalelab
