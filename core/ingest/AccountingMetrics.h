// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace scalelab {

struct AccountingMetricsResult;

// What a finished (or running) job cost and how it used what it was given,
// from `sacct --parsable2` fields. Values that sacct did not report stay
// empty: nothing is estimated or defaulted.
class AccountingMetrics {
public:
    using Record = QMap<QString, QString>;   // sacct field name -> text

    // One sacct line (normally the job line, JobID without a dot).
    static AccountingMetricsResult fromRecord(const Record &record);
    // The job line plus its step lines (`52`, `52.batch`, `52.0`): job-level
    // fields come from the job line; MaxRSS and GPU usage, which sacct only
    // fills on steps, are the maximum over the steps.
    static AccountingMetricsResult fromRecords(const QList<Record> &lines);

    QString jobId;
    QString state;   // first word, e.g. "CANCELLED" for "CANCELLED by 1001"
    QString nodeList;
    std::optional<int> exitCode;   // ExitCode "3:0" -> 3
    std::optional<int> exitSignal;   // ExitCode "0:15" -> 15
    std::optional<qint64> elapsedSeconds;
    std::optional<qint64> queueWaitSeconds;   // Start - Submit
    std::optional<int> gpus;   // AllocTRES gres/gpu
    std::optional<int> nodes;   // AllocTRES node, else NNodes
    std::optional<int> allocCpus;   // AllocCPUS, else AllocTRES cpu
    std::optional<double> gpuHours;   // gpus * elapsed / 3600
    std::optional<double> billing;   // AllocTRES billing
    std::optional<double> billingHours;   // billing * elapsed / 3600
    std::optional<qint64> maxRssBytes;
    std::optional<double> totalCpuSeconds;
    std::optional<double> cpuEfficiency;   // as seff: TotalCPU / (Elapsed * AllocCPUS), 0..1
    std::optional<double> gpuUtilPercent;   // TRESUsageInAve gres/gpuutil
    std::optional<double> gpuUtilMaxPercent;   // TRESUsageInMax gres/gpuutil
    std::optional<double> gpuMemMaxBytes;   // TRESUsageInMax gres/gpumem
    // ConsumedEnergyRaw, joules, where the site accounts energy (AcctGatherEnergyType):
    // the job line's, else the largest step's; empty when 0 or not reported.
    std::optional<double> consumedEnergyJoules;

    bool isFinished() const;   // a terminal state (not PENDING/RUNNING/...)
    bool isSuccessful() const;   // COMPLETED with exit code 0
};

struct AccountingMetricsResult {
    AccountingMetrics metrics;
    Diagnostics diagnostics;   // Warning per unreadable field, naming it
};

}   // namespace scalelab
