// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab {

class RunStore;

// Writes a PDF about one study: the scaling advisor's sentence and warnings,
// the charts (rendered as images), the runs table, cluster, profile and
// Slurm version, dates, and every run's job script. Needs a QApplication
// (charts are widgets); works under QT_QPA_PLATFORM=offscreen.
// Returns "" or an error naming what failed.
QString writeScalingReport(RunStore &store, qint64 studyId, const QString &pdfPath);

} // namespace scalelab
