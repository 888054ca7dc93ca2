// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/RunMetricsTable.h"
#include "core/base/TextDiff.h"

#include <QList>
#include <QString>

namespace scalelab {

// The runs that were sent the same job script, and how it differs from the
// first one's (the report prints that script once and the others as diffs).
struct ScriptVariant {
    QList<qint64> runIds;
    QStringList jobIds;   // "–" for a run without a job
    QList<int> gpus;   // requested, one per run
    QString script;   // as sent; "" = not stored
    TextDiffResult diff;   // against the first variant's script; empty for the first

    QString runsText() const;   // "runs 1, 2 (jobs 501, 502; 1 GPU)"
};

class ScriptVariants {
public:
    // In run order of first appearance; the first variant's script is the one printed whole.
    static QList<ScriptVariant> group(const QList<RunMetricsRow> &rows);
    // The changed lines only, each with its line number in the first script
    // ("-") or in this one ("+"): "  3 - #SBATCH --gpus-per-node=1".
    static QString changedLines(const TextDiffResult &diff);
};

}   // namespace scalelab
