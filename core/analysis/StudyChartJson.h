// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/StudyChartData.h"

#include <nlohmann/json.hpp>

namespace scalelab {

// The numbers of a study's charts and scaling table as JSON (`scalelab report
// --json`): the metrics used, the advice, the Amdahl fit, one entry per GPU
// count, and every chart's points, lines and axis ranges as drawn.
nlohmann::ordered_json studyChartJson(const StudyChartData &data);

}   // namespace scalelab
