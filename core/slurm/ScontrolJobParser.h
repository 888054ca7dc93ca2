// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/slurm/SlurmJobState.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace scalelab {

// Where a job's GPU count was read: accounting may lack gres/gpu
// (AccountingStorageTRES), so the request forms are the next sources.
enum class GpuCountSource { None, AllocTres, ReqTres, TresPerJob, TresPerNode, TresPerTask, Spec };
QString gpuCountSourceId(GpuCountSource s);   // "AllocTRES", "ReqTRES", "TresPerNode", ..., "spec"

struct GpuCount {
    int gpus = 0;
    GpuCountSource source = GpuCountSource::None;
};

// One job of `scontrol show job` (multi-line or -o). Keys as printed; a key
// repeated in the per-node detail lines ("Nodes=", "Mem=") keeps its first value.
struct ScontrolJob {
    QMap<QString, QString> fields;
    int line = 0;   // 1-based line where the record starts

    QString value(const QString &key) const { return fields.value(key); }
    QString jobId() const { return value(QStringLiteral("JobId")); }
    JobState state() const { return SlurmJobState::parse(value(QStringLiteral("JobState"))); }
    // 22.05 prints one "TRES=" (allocated once running, else requested);
    // 23.02+ prints "ReqTRES=" and "AllocTRES=".
    QString allocTres() const;
    QString reqTres() const;
    // AllocTRES gres/gpu, else ReqTRES, else TresPerJob, TresPerNode x
    // NumNodes, TresPerTask x NumTasks ("gres:gpu:2" and "gres/gpu:2" alike).
    GpuCount gpus() const;
};

struct ScontrolJobParseResult {
    QList<ScontrolJob> jobs;
    Diagnostics diagnostics;
};

class ScontrolJobParser {
public:
    static ScontrolJobParseResult parse(const QByteArray &out);
};

}   // namespace scalelab
