// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace scalelab::metric {

// Names under which IngestService stores a run's numbers (MetricRecord::name).
// Log metrics keep the names of the reader rules (core/ingest/FrameworkReaders.cpp:
// train_time_s, samples_per_s, throughput, test_accuracy, ...) and user patterns their own.
// samples_per_s / throughput are the whole job's; *_per_gpu one GPU's.
inline const QString ElapsedS = QStringLiteral("elapsed_s");
inline const QString QueueWaitS = QStringLiteral("queue_wait_s");
inline const QString Gpus = QStringLiteral("gpus");
inline const QString Nodes = QStringLiteral("nodes");
inline const QString AllocCpus = QStringLiteral("alloc_cpus");
inline const QString GpuHours = QStringLiteral("gpu_hours");
inline const QString Billing = QStringLiteral("billing");
inline const QString BillingHours = QStringLiteral("billing_hours");
inline const QString MaxRssMiB = QStringLiteral("max_rss_mib");
inline const QString ExitCode = QStringLiteral("exit_code");
inline const QString CpuEfficiency = QStringLiteral("cpu_efficiency");   // 0..1, as seff
inline const QString SacctGpuUtilPct = QStringLiteral("sacct_gpu_util_pct");   // gres/gpuutil
inline const QString SacctGpuUtilMaxPct = QStringLiteral("sacct_gpu_util_max_pct");
inline const QString SacctGpuMemMaxMiB = QStringLiteral("sacct_gpu_mem_max_mib");
inline const QString GpuSamples = QStringLiteral("gpu_samples");   // rows read; 0 = no GPU samples
inline const QString GpusSampled = QStringLiteral("gpus_sampled");
inline const QString GpuUtilMeanPct = QStringLiteral("gpu_util_mean_pct");
inline const QString GpuUtilPeakPct = QStringLiteral("gpu_util_peak_pct");
inline const QString GpuMemMeanMiB = QStringLiteral("gpu_mem_mean_mib");
inline const QString GpuMemPeakMiB = QStringLiteral("gpu_mem_peak_mib");
// The run's energy, Wh: sacct ConsumedEnergyRaw where the site accounts energy,
// else the integral of its GPUs' power samples (the record's source says which).
inline const QString EnergyWh = QStringLiteral("energy_wh");
// Joules per training sample, lower is better: energy_wh × 3600 ÷ (samples/s × seconds),
// with samples_per_s (else throughput) and train_time_s (else elapsed_s); only when all are known.
inline const QString EnergyJPerSample = QStringLiteral("energy_j_per_sample");
inline const QString TrainTimeS = QStringLiteral("train_time_s");
inline const QString SamplesPerS = QStringLiteral("samples_per_s");
inline const QString Throughput = QStringLiteral("throughput");
inline const QString SamplesPerSPerGpu =
    QStringLiteral("samples_per_s_per_gpu");   // one GPU, never averaged with the total
inline const QString ThroughputPerGpu = QStringLiteral("throughput_per_gpu");   // per step/epoch, one GPU
inline const QString ItPerS = QStringLiteral("it_per_s");   // tqdm's main bar
inline const QString TrainLoss = QStringLiteral("train_loss");
inline const QString EvalLoss = QStringLiteral("eval_loss");
inline const QString TestAccuracy = QStringLiteral("test_accuracy");
inline const QString ValAccuracy = QStringLiteral("val_accuracy");

// MetricRecord::source values.
inline const QString SourceSacct = QStringLiteral("sacct");
inline const QString SourceGpu = QStringLiteral("gpu-samples");
inline const QString SourceLog = QStringLiteral("stdout");
inline const QString SourcePattern = QStringLiteral("pattern");
// The frameworks' own metric files (core/ingest/MetricFileScanner): preferred
// over values read from the job output for the same metric.
inline const QString SourceTrainerState = QStringLiteral("trainer_state.json");
inline const QString SourceLightningCsv = QStringLiteral("lightning metrics.csv");
inline const QString SourceTensorBoard = QStringLiteral("tensorboard events");
inline const QString SourceMlflow = QStringLiteral("mlflow file store");
inline const QString SourceWandb = QStringLiteral("wandb offline run");
// GPUs from the run's own request: the site's AllocTRES had no gres/gpu
// (AccountingStorageTRES without it), so sacct alone would say 0 GPU-hours.
inline const QString SourceSpecGpus = QStringLiteral("spec (no gres/gpu in AllocTRES)");

}   // namespace scalelab::metric
