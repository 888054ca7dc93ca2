// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/MetricGlossary.h"

#include "core/model/MetricNames.h"

#include <QHash>

namespace scalelab {

QString metricDescription(const QString &name)
{
    // Built once: the runs table asks for a header tooltip on every hover.
    static const QHash<QString, QString> text{
        {metric::ElapsedS, QStringLiteral("Wall time of the whole job (sacct Elapsed): start-up, data loading and "
                                          "training together.")},
        {metric::QueueWaitS, QStringLiteral("Seconds between submit and start (sacct Start − Submit).")},
        {metric::Gpus, QStringLiteral("GPUs the job was given (sacct AllocTRES gres/gpu; the request when the site "
                                      "does not account GPUs).")},
        {metric::Nodes, QStringLiteral("Nodes the job was given (sacct AllocTRES node).")},
        {metric::AllocCpus, QStringLiteral("CPU cores the job was given (sacct AllocCPUS).")},
        {metric::GpuHours, QStringLiteral("GPUs × elapsed hours, from accounting: what the allocation is charged "
                                          "in GPU time.")},
        {metric::Billing, QStringLiteral("Slurm's billing weight of the job (AllocTRES billing).")},
        {metric::BillingHours, QStringLiteral("Billing weight × elapsed hours: what the site's fair-share counts.")},
        {metric::MaxRssMiB, QStringLiteral("Largest resident memory of any job step (sacct MaxRSS), in MiB.")},
        {metric::ExitCode, QStringLiteral("The job's exit status (sacct ExitCode, before the colon).")},
        {metric::CpuEfficiency, QStringLiteral("TotalCPU ÷ (AllocCPUS × Elapsed), as seff computes it: 1 = every "
                                               "allocated core busy the whole time.")},
        {metric::SacctGpuUtilPct,
         QStringLiteral("Mean GPU utilisation recorded by Slurm (TRESUsageInAve gres/gpuutil).")},
        {metric::GpuSamples, QStringLiteral("Rows read from the job's GPU sample files (nvidia-smi / rocm-smi); 0 = "
                                            "the node had no GPU tool.")},
        {metric::GpuUtilMeanPct, QStringLiteral("Mean of every GPU sample of the job (nvidia-smi utilization.gpu), "
                                                "over all GPUs and the whole run.")},
        {metric::GpuUtilPeakPct, QStringLiteral("Highest single GPU sample of the job.")},
        {metric::GpuMemMeanMiB, QStringLiteral("Mean GPU memory in use over the samples, in MiB.")},
        {metric::GpuMemPeakMiB, QStringLiteral("Highest GPU memory in use in any sample, in MiB.")},
        {metric::EnergyWh, QStringLiteral("Energy of the run in Wh: Slurm's ConsumedEnergy where the site accounts "
                                          "energy (preferred; what its energy plugin measures), otherwise each "
                                          "GPU's power samples (nvidia-smi power.draw, rocm-smi package power) "
                                          "integrated over time by trapezoids and summed over the GPUs; gaps "
                                          "longer than three sample periods are not integrated across.")},
        {metric::EnergyJPerSample,
         QStringLiteral("Energy per training sample in J (lower is better): energy_wh × 3600 ÷ (samples/s × "
                        "seconds), with samples_per_s (else throughput) and train_time_s (else elapsed_s); only "
                        "when the run has both an energy and a throughput.")},
        {metric::TrainTimeS, QStringLiteral("Training time the program printed (last value in the job output): "
                                            "without queueing and start-up, unlike elapsed_s.")},
        {metric::SamplesPerS, QStringLiteral("Throughput of the whole job as the program printed it once for the "
                                             "run (its final or running-average value): samples per second over "
                                             "all GPUs. One of two throughputs: see throughput.")},
        {metric::Throughput, QStringLiteral("Throughput computed by ScaleLab: the mean of the per-epoch (or "
                                            "per-step) samples/s lines of the job output, over all GPUs. It can "
                                            "differ from samples_per_s, which the program printed itself for the "
                                            "whole run (warm-up and evaluation count differently).")},
        {metric::SamplesPerSPerGpu, QStringLiteral("Samples per second of one GPU (rank 0's print); never averaged "
                                                   "with the whole job's.")},
        {metric::ThroughputPerGpu, QStringLiteral("Per-epoch samples/s of one GPU, averaged over the epochs.")},
        {metric::ItPerS, QStringLiteral("Iterations per second of tqdm's main progress bar (last value).")},
        {metric::TrainLoss, QStringLiteral("Training loss the program printed (last epoch; the per-epoch values "
                                           "are the Epoch curves).")},
        {metric::EvalLoss, QStringLiteral("Evaluation loss the program printed (last value).")},
        {metric::TestAccuracy, QStringLiteral("Test accuracy the program printed at the end (last value), as a "
                                              "fraction.")},
        {metric::ValAccuracy, QStringLiteral("Validation accuracy the program printed (last epoch), as a fraction.")},
        {QStringLiteral("epoch_time_s"), QStringLiteral("Seconds per epoch the program printed, averaged over the "
                                                        "epochs (per-epoch values are in the Epoch curves).")},
    };
    return text.value(name);
}

}   // namespace scalelab
