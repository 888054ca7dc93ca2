// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/MetricRecord.h"
#include "core/model/RunRecord.h"
#include "core/store/RunStoreGroup.h"

#include <QList>

namespace scalelab {

// Writing metrics and series, and reading series back (RunStoreSeries.cpp);
// an ingest replaces all of a run's in one transaction (replaceRunMetrics).
class RunStoreSeries : public RunStoreGroup {
public:
    using RunStoreGroup::RunStoreGroup;

    Result<void> setMetric(const MetricRecord &metric);
    Result<void> setSeries(const MetricSeries &series);
    Result<void> replaceRunMetrics(qint64 runId, const QList<MetricRecord> &metrics, const QList<MetricSeries> &series);
    Result<QList<RunRecord>> runsAwaitingIngest(const QString &clusterAlias);
    Result<QList<MetricSeries>> series(qint64 runId);
};

}   // namespace scalelab
