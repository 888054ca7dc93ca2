// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/RunRecord.h"

#include <QColor>
#include <QIcon>
#include <QString>

// How a run's state looks in Jobs and its details: colour, dot icon, words.
namespace scalelab::JobStateLook {

QColor stateColour(JobState state);
QIcon stateIcon(const QColor &colour);
// "Running", or for runs without a job their submission state.
QString stateText(const RunRecord &run);
QColor runColour(const RunRecord &run);

}   // namespace scalelab::JobStateLook
