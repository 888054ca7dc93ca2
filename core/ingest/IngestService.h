// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/model/FileRecord.h"
#include "core/ingest/GpuSampleParser.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace scalelab {

class RunStore;

struct IngestResult {
    QString error;   // "" = the metrics were written; otherwise none were (the previous ones stay)
    QStringList written;   // metric names stored, in order
    QStringList series;   // metric names whose series (per step/epoch) were stored
    Diagnostics diagnostics;   // parser warnings, unreadable files, bad user patterns
    bool noGpuSamples = true;
    QString noGpuSamplesReason;   // e.g. the sampler's "no nvidia-smi on HOST; no GPU samples"
    QStringList gpuFiles;   // local sampler CSVs used
    QString logFile;   // local job output used ("" = none fetched)
    QStringList metricFiles;   // frameworks' metric files read (MetricFileScanner); their values win over the log's
};

// Turns what is known about a finished run into stored metrics: the Slurm
// accounting (AccountingMetrics), the fetched GPU sampler CSVs
// (scalelab-gpu-<job>-<host>.csv, GpuSampleParser) and the fetched job output
// (scalelab-<job>.out, LogMetricExtractor with the built-in patterns plus the
// study's user patterns from its notes), then the frameworks' own metric files
// among the fetched ones (MetricFileScanner), whose values replace the log's
// for the same metric, each with its source. The run's energy (energy_wh) is
// sacct's ConsumedEnergyRaw where the site accounts energy, else the integral
// of the GPU samples' power (GpuEnergy). Only measured values are written;
// a run without GPU samples gets gpu_samples = 0 and nothing else from the
// sampler. Everything is collected first and written at the end as one
// RunStore::replaceRunMetrics: a re-ingest replaces all of the run's metrics
// and series (a metric no longer produced goes), and a failed write leaves
// the previous ones whole. The one writer of metrics: the poll cycle, the
// missed-ingest repair and `scalelab fetch` (RunLifecycle) and Results'
// "Re-ingest" all call it.
// Blocking (reads whole files): call it off the GUI thread for big logs, and
// call RunStore::closeThreadConnection() before that thread ends.
class IngestService {
public:
    static IngestResult ingestRun(RunStore &store, qint64 runId);

    // Local files of a run by role (file name of the remote path, else the local one).
    static QStringList gpuSampleFiles(const QList<FileRecord> &files);
    static QString logFile(const QList<FileRecord> &files, const QString &jobId);
    // The sampler's "no GPU samples" marker lines in a job output ("" = none).
    static QString noSamplesMarker(const QString &logPath);
};

}   // namespace scalelab
