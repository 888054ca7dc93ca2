// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/MetricRecord.h"
#include "core/model/RunRecord.h"
#include "core/model/StudyRecord.h"
#include "core/slurm/SacctRecord.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>

namespace scalelab {

class RunStore;

// One run with everything the result explorer shows about it.
struct RunMetricsRow {
    RunRecord run;
    QString studyName;
    std::optional<SacctRecord> accounting;
    QMap<QString, MetricRecord> metrics;   // by name; one source per name (see RunMetricsTable::load)
    bool hidden = false;   // hidden by the researcher (RunStore::setHidden); only loaded when asked for

    std::optional<double> value(const QString &name) const;
    // Text of a column: a fixed column id (see RunMetricsTable::fixedColumns) or a metric name.
    QString text(const QString &column) const;
    QString stateText() const;   // the job state, or the submit state before a job exists
};

// Hidden runs stay in the store; every view leaves them out unless asked to
// show them (Results' "Show hidden", `scalelab runs --all`).
enum class HiddenRuns { LeaveOut, Include };

// Runs + their stored metrics as one table: the runs table, its CSV/JSON
// export and `scalelab runs --json` all read it.
struct RunMetricsTable {
    QList<RunMetricsRow> rows;   // in run id order (find() relies on it)
    QStringList metricNames;   // every metric name seen, sorted
    QMap<QString, QString> units;   // metric name -> unit
    QString error;   // "" = loaded
    QList<StudyRecord> studies;   // every study (for pickers), whatever studyId was
    int hiddenCount = 0;   // hidden runs among those asked for, whether left out or included

    // studyId < 0: all runs; 0: runs outside a study; > 0: that study.
    // `runIds` given: only those runs (a patch after they changed; then
    // hiddenCount counts every hidden run of the store).
    // Where a metric name has several sources, a user pattern wins over the
    // job output, which wins over GPU samples and accounting.
    static RunMetricsTable load(RunStore &store, qint64 studyId = -1, HiddenRuns hidden = HiddenRuns::LeaveOut,
                                const QList<qint64> &runIds = {});

    static QStringList fixedColumns();   // "id", "study", "cluster", ...
    static QString columnTitle(const QString &column, const QString &unit = {});

    const RunMetricsRow *find(qint64 runId) const;
    // `rowIds` empty = every row; `columns` empty = fixed columns + every metric.
    QString toCsv(const QList<qint64> &rowIds = {}, const QStringList &columns = {}) const;
    nlohmann::ordered_json toJson(const QList<qint64> &rowIds = {}) const;
};

// `scalelab runs --json`: every stored run (hidden ones only with
// HiddenRuns::Include, each then with a "hidden" boolean) with its metrics
// ({"metrics": {"name": {"value", "unit", "source"}}}); on a store error
// {"error": "..."}.
nlohmann::ordered_json runsWithMetricsJson(RunStore &store, HiddenRuns hidden = HiddenRuns::LeaveOut);

}   // namespace scalelab
