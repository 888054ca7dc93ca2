// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/JobsTree.h"
#include "core/ingest/LiveRunView.h"

#include <QString>
#include <QVariant>

namespace scalelab {

// The words of the Jobs rows, per column (JobsModel::Column): what the model
// shows, and what the filter looks in. Pure functions of a row: the filter runs
// them on backgroundPool() over the whole tree, the model on the GUI thread
// for the rows on screen.
class JobsRowText {
public:
    // A run's DisplayRole text (its GPUs and nodes as numbers); `live` is what
    // the live watch last saw of it, or null.
    static QVariant run(const JobsRow &row, int column, const LiveRunView *live);
    // A study's: its name, clusters, "2 Running, 1 Pending", GPU counts, date.
    static QVariant study(const JobsStudyRow &row, int column);
    // The state column: "Running", with a run of segments' "segment 2 of 4".
    static QString state(const JobsRow &row);
    // "12:34 / 1:00:00", "– / 1:00:00" before the start, "" when neither is known.
    static QString elapsed(const JobsRow &row);
    // The live column: "1234 samples/s" when the log printed a throughput, "" otherwise.
    static QString throughput(const LiveRunView &view);
    // Per GPU its use and memory, then the throughput; "" without samples.
    static QString liveToolTip(const LiveRunView *view);

    // Keeps the rows whose text holds `needle` (any column but the live one,
    // case-insensitive): a study whose name holds it with all its runs, else
    // with the runs that hold it; the top level keeps its order.
    static void filter(JobsTree &tree, const QString &needle);
};

}   // namespace scalelab
