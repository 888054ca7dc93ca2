// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/slurm/SlurmJobState.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace scalelab {

// One job from `sacct --parsable2`: the job line merged with its steps
// (".batch", ".extern", ".0", ...). Memory is only measured on steps, so
// maxRss is the largest step value (MaxRSS is empty on the job line).
struct SacctRecord {
    struct Step {
        QString stepId;   // "batch", "extern", "0"
        QString name;
        JobState state = JobState::Unknown;
        QString stateText;
        QString exitCode;
        QString maxRss;
        QString totalCpu;
        QString nodeList;
        QString tresUsageInAve;
        QString tresUsageInMax;
        bool operator==(const Step &) const = default;
    };

    QString jobId;   // "123" (array elements "123_4")
    QString jobName;
    JobState state = JobState::Unknown;
    QString stateText;   // raw, e.g. "CANCELLED by 1001"
    QString exitCode;   // "3:0" = exit status 3, signal 0
    QString submit, start, end;   // ISO local time of the cluster, or "Unknown"
    QString elapsed;
    QString allocTres;
    QString maxRss;   // largest step MaxRSS, e.g. "843688K"
    QString nodeList;
    QString reason;
    QString totalCpu;
    int allocCpus = 0;
    QString partition;
    QString account;
    QString workDir;
    QString comment;
    QString tresUsageInAve;   // from the step with the largest MaxRSS (job line is empty)
    QString tresUsageInMax;
    QString timelimit;
    QList<Step> steps;
    QStringList rawLines;   // every sacct line of this job, as printed
    // The same lines as field name -> value (job line first as printed), the
    // input AccountingMetrics::fromRecords() takes.
    QList<QMap<QString, QString>> lines;

    int exitStatus() const;   // 3 from "3:0", -1 if unknown
    int exitSignal() const;   // 0 from "3:0", -1 if unknown
    qint64 maxRssBytes() const;   // -1 if unknown
    int allocatedGpus() const;   // gres/gpu=N in AllocTRES, 0 if none
    bool operator==(const SacctRecord &) const = default;
};

}   // namespace scalelab
