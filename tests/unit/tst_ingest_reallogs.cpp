// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in readers on real training logs nobody here wrote
// (../shared/job-logs, see its MANIFEST.md). Every expected value below was
// read off the file by a human and typed in by hand; NaN rows say a value
// must NOT be found (cancelled runs print no final metrics).
#include "core/ingest/GpuSampleParser.h"
#include "core/ingest/LogMetricExtractor.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <cmath>

using namespace scalelab;

namespace {

#ifdef SCALELAB_SHARED_DIR
const QString kLogs = QStringLiteral(SCALELAB_SHARED_DIR "/job-logs/");
#else
const QString kLogs;
#endif

const double kAbsent = std::nan("");

struct Expect {
    const char *file;   // file name prefix in job-logs/
    const char *metric;
    double value;   // NaN = must be absent
    double tolerance;   // absolute; the human reads rounded numbers
    bool humanRead;   // one of the values the MANIFEST lists (counted in the tally)
};

// The MANIFEST's "what a human would extract", value by value.
const Expect kTable[] = {
    // LUMI, srun-launched 8 ranks, HF Trainer, cancelled at step 400.
    {"lumi__Lumi-supercomputer__slurm-9304946", "it_per_s", 2.21, 0.005, true},
    {"lumi__Lumi-supercomputer__slurm-9304946", "eval_loss", 3.2146, 0.00005, true},
    {"lumi__Lumi-supercomputer__slurm-9304946", "eval_runtime_s", 4.3047, 1e-9, true},
    {"lumi__Lumi-supercomputer__slurm-9304946", "eval_samples_per_s", 232.306, 1e-9, true},
    {"lumi__Lumi-supercomputer__slurm-9304946", "steps_done", 400, 0, true},
    {"lumi__Lumi-supercomputer__slurm-9304946", "steps_total", 1000, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304946", "world_size", 8, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304946", "train_time_s", kAbsent, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304946", "samples_per_s", kAbsent, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304946", "train_loss", kAbsent, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304946", "test_accuracy", kAbsent, 0, false},
    // Same workload under torchrun, cancelled at step 394.
    {"lumi__Lumi-supercomputer__slurm-9304949", "it_per_s", 2.21, 0.005, true},
    {"lumi__Lumi-supercomputer__slurm-9304949", "eval_loss", 3.2146, 0.00005, true},
    {"lumi__Lumi-supercomputer__slurm-9304949", "eval_runtime_s", 5.3803, 1e-9, true},
    {"lumi__Lumi-supercomputer__slurm-9304949", "eval_samples_per_s", 185.864, 1e-9, true},
    {"lumi__Lumi-supercomputer__slurm-9304949", "steps_done", 394, 0, true},
    {"lumi__Lumi-supercomputer__slurm-9304949", "train_time_s", kAbsent, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304949", "samples_per_s", kAbsent, 0, false},
    {"lumi__Lumi-supercomputer__slurm-9304949", "train_loss", kAbsent, 0, false},
    // ThetaGPU, DeepSpeed over mpirun, 32 ranks.
    {"thetagpu__saforem2__deepspeed", "test_accuracy", 0.96, 1e-9, true},
    {"thetagpu__saforem2__deepspeed", "train_time_s", 13.14, 0.005, true},
    {"thetagpu__saforem2__deepspeed", "world_size", 32, 0, false},
    {"thetagpu__saforem2__deepspeed", "samples_per_s", kAbsent, 0, false},
    // DeepSpeed timer lines from an issue.
    {"deepspeed__deepspeedai__issue-1825", "samples_per_s", 83.738, 0.0005, true},
    {"deepspeed__deepspeedai__issue-1825", "gpu_mem_max_alloc_gb", 9.02, 1e-9, false},
    // Lightning tensor-parallel example output.
    {"lightning__Lightning-AI__tensor-parallel", "it_per_s", 0.09, 1e-9, true},
    {"lightning__Lightning-AI__tensor-parallel", "steps_done", 10, 0, false},
    {"lightning__Lightning-AI__tensor-parallel", "world_size", 4, 0, false},
    {"lightning__Lightning-AI__tensor-parallel", "peak_mem_gb", 36.73, 1e-9, false},
    // Horovod + Keras on AAU's DGX-2, 4 GPUs and 1 GPU.
    {"aau__aau-claaudia__horovod-keras-4gpu", "test_accuracy", 0.9936, 0.00005, true},
    {"aau__aau-claaudia__horovod-keras-4gpu", "test_loss", 0.01961, 0.000005, true},
    {"aau__aau-claaudia__horovod-keras-4gpu", "train_time_s", 124.75, 0.005, true},
    {"aau__aau-claaudia__horovod-keras-1gpu", "test_accuracy", 0.9926, 0.00005, true},
    {"aau__aau-claaudia__horovod-keras-1gpu", "train_time_s", 472.70, 0.005, true},
    // LUMI Horovod TF2 synthetic benchmark, 32 GCDs: per GPU and total are two metrics.
    {"lumi__Lumi-supercomputer__horovod-tf2", "samples_per_s_per_gpu", 544.1, 1e-9, true},
    {"lumi__Lumi-supercomputer__horovod-tf2", "samples_per_s", 17411.4, 1e-9, true},
    {"lumi__Lumi-supercomputer__horovod-tf2", "throughput_per_gpu", 544.1, 0.05, false},
    // LUMI PyTorch DDP: 212.4 images/sec per GPU, 6792.58 in total, never averaged together.
    {"lumi__Lumi-supercomputer__pytorch-ddp", "throughput_per_gpu", 212.4, 0.05, true},
    {"lumi__Lumi-supercomputer__pytorch-ddp", "samples_per_s", 6792.58, 1e-9, true},
    {"lumi__Lumi-supercomputer__pytorch-ddp", "throughput", kAbsent, 0, false},
    // rccl-tests all_reduce_perf on LUMI-EAP.
    {"lumi-eap__Lumi-supercomputer__rccl-tests", "nccl_busbw_peak_gbps", 7.66, 1e-9, true},
    {"lumi-eap__Lumi-supercomputer__rccl-tests", "nccl_busbw_avg_gbps", 2.31741, 1e-9, false},
};

// Every value MANIFEST.md lists under "what a human would extract", one row
// each: read right (metric, series, run end, GPU summary, a difference of two
// captures) or reported here as not available, with why.
struct ManifestValue {
    enum class Kind {
        Metric,
        Series,
        RunEnd,
        Delta,
        GpuMeanUtil,
        GpuPeakMem,
        GpuUtilSamples,
        GpuTemp,
        GpuPower,
        NotAvailable
    };
    const char *file;
    const char *what;   // as MANIFEST words it
    Kind kind;
    const char *metric = "";   // Metric/Series/Delta; RunEnd: the time Slurm printed
    double value = 0;   // Series: the number of values; Delta: end - start
    double tolerance = 0;
    const char *other = "";   // Delta: the first capture; NotAvailable: why
};

using K = ManifestValue::Kind;
const char *const kF1 = "lumi__Lumi-supercomputer__slurm-9304946";
const char *const kF2 = "lumi__Lumi-supercomputer__slurm-9304949";
const char *const kTheta = "thetagpu__saforem2__deepspeed";
const char *const kDs = "deepspeed__deepspeedai__issue-1825";
const char *const kLight = "lightning__Lightning-AI__tensor-parallel";
const char *const kAau4 = "aau__aau-claaudia__horovod-keras-4gpu";
const char *const kAau1 = "aau__aau-claaudia__horovod-keras-1gpu";
const char *const kNccl = "aau__aau-claaudia__horovod-keras-nccl-info";
const char *const kRocm = "lumi__Lumi-supercomputer__rocm-smi";

const ManifestValue kManifest[] = {
    {kF1, "throughput 2.21 it/s", K::Metric, "it_per_s", 2.21, 0.005},
    {kF1, "eval_loss 3.2146", K::Metric, "eval_loss", 3.2146, 0.00005},
    {kF1, "eval_runtime 4.3047", K::Metric, "eval_runtime_s", 4.3047, 1e-9},
    {kF1, "eval_samples_per_second 232.306", K::Metric, "eval_samples_per_s", 232.306, 1e-9},
    {kF1, "progress 400 steps", K::Metric, "steps_done", 400, 0},
    {kF1, "of 1000 steps", K::Metric, "steps_total", 1000, 0},
    {kF1, "CANCELLED at 2025-01-28T15:04:48", K::RunEnd, "2025-01-28T15:04:48"},
    {kF1, "8 ranks", K::Metric, "world_size", 8, 0},
    {kF2, "throughput 2.21 it/s", K::Metric, "it_per_s", 2.21, 0.005},
    {kF2, "eval_loss 3.2146", K::Metric, "eval_loss", 3.2146, 0.00005},
    {kF2, "eval_runtime 5.3803", K::Metric, "eval_runtime_s", 5.3803, 1e-9},
    {kF2, "eval_samples_per_second 185.864", K::Metric, "eval_samples_per_s", 185.864, 1e-9},
    {kF2, "394 steps", K::Metric, "steps_done", 394, 0},
    {kF2, "of 1000 steps", K::Metric, "steps_total", 1000, 0},
    {kF2, "cancelled at the same time", K::RunEnd, "2025-01-28T15:04:48"},
    {kF2, "8 processes", K::Metric, "world_size", 8, 0},
    {kTheta, "[TEST] Accuracy 96%", K::Metric, "test_accuracy", 0.96, 1e-9},
    {kTheta, "per-epoch [TEST] Accuracy", K::Series, "test_accuracy", 8},
    {kTheta, "Total training time 13.14 s", K::Metric, "train_time_s", 13.14, 0.005},
    {kTheta, "train_batch_size 256", K::Metric, "global_batch_size", 256, 0},
    {kTheta, "micro-batch 8", K::Metric, "micro_batch_size_per_gpu", 8, 0},
    {kTheta, "ZeRO stage 0", K::Metric, "zero_stage", 0, 0},
    {kTheta, "fp16 off", K::NotAvailable, "", 0, 0,
     "a setting printed as True/False (fp16_enabled); metrics are numbers"},
    {kTheta, "world_size 32", K::Metric, "world_size", 32, 0},
    {kTheta, "batch dt= lines", K::NotAvailable, "", 0, 0,
     "the mlprof trainer's own key=value line (dt= with no unit), not a framework's format"},
    {kTheta, "fused_adam JIT build ~50 s", K::Metric, "op_build_time_s", 50, 1},
    {kDs, "SamplesPerSec 83.738 at step 50", K::Metric, "samples_per_s", 83.738, 0.0005},
    {kDs, "SamplesPerSec at steps 40 and 50", K::Series, "samples_per_s", 2},
    {kDs, "MaxMemAllocated 9.02GB", K::Metric, "gpu_mem_max_alloc_gb", 9.02, 1e-9},
    {kDs, "MemAllocated 0.26GB", K::Metric, "gpu_mem_alloc_gb", 0.26, 1e-9},
    {kDs, "lr lines", K::Metric, "learning_rate", 5e-05, 1e-12},
    {kLight, "0.09 it/s", K::Metric, "it_per_s", 0.09, 1e-9},
    {kLight, "Peak memory usage 36.73 GB", K::Metric, "peak_mem_gb", 36.73, 1e-9},
    {kLight, "MEMBER i/4", K::Metric, "world_size", 4, 0},
    {kLight, "10/10 steps", K::Metric, "steps_done", 10, 0},
    {kAau4, "Test accuracy 0.99360", K::Metric, "test_accuracy", 0.9936, 0.00005},
    {kAau4, "Test loss 0.01961", K::Metric, "test_loss", 0.01961, 0.000005},
    {kAau4, "Train time 124.75 s", K::Metric, "train_time_s", 124.75, 0.005},
    {kAau4, "job echo header (tasks 4, CPUs 8, GPUs 0-3)", K::NotAvailable, "", 0, 0,
     "the site's own echo lines in its batch script; the job's size comes from Slurm's accounting"},
    {kAau1, "Test accuracy 0.99260", K::Metric, "test_accuracy", 0.9926, 0.00005},
    {kAau1, "Train time 472.70 s", K::Metric, "train_time_s", 472.70, 0.005},
    {kAau1, "speed-up 3.79x on 4 GPUs", K::NotAvailable, "", 0, 0,
     "a ratio of two runs: core/analysis computes it from the stored runs, no single log holds it"},
    {kNccl, "transport via P2P/IPC", K::NotAvailable, "", 0, 0, "a transport name, not a number"},
    {kNccl, "12 coll channels", K::Metric, "nccl_coll_channels", 12, 0},
    {kNccl, "16 p2p channels", K::Metric, "nccl_p2p_channels", 16, 0},
    {"aau__aau-claaudia__nvidia-smi-nvlink-gt-d-end", "NVLink Tx delta 1,645,263 KiB", K::Delta, "nvlink_tx_kib",
     1645263, 0, "aau__aau-claaudia__nvidia-smi-nvlink-gt-d-start"},
    {"aau__aau-claaudia__nvidia-smi-query-gpu-csv", "mean GPU util ~90 %", K::GpuMeanUtil, "", 1549.0 / 17, 1e-9},
    {"aau__aau-claaudia__nvidia-smi-query-gpu-csv", "memory.used 30994 MiB", K::GpuPeakMem, "", 30994, 0},
    {"aau__aau-claaudia__getUtilByJobId", "util samples in noise", K::GpuUtilSamples, "", 10},
    {"lumi__Lumi-supercomputer__horovod-tf2", "544.1 img/sec per GPU", K::Metric, "samples_per_s_per_gpu", 544.1, 1e-9},
    {"lumi__Lumi-supercomputer__horovod-tf2", "Total 17411.4 img/sec", K::Metric, "samples_per_s", 17411.4, 1e-9},
    {"lumi__Lumi-supercomputer__rccl-aws-ofi", "aws-ofi-rccl 1.4.0, provider cxi", K::NotAvailable, "", 0, 0,
     "a plugin version and a provider name, not numbers"},
    {"lumi__Lumi-supercomputer__pytorch-ddp", "212.4 images/sec per GPU", K::Metric, "throughput_per_gpu", 212.4, 0.05},
    {"lumi__Lumi-supercomputer__pytorch-ddp", "Total average 6792.58", K::Metric, "samples_per_s", 6792.58, 1e-9},
    {"lumi-eap__Lumi-supercomputer__rccl-tests", "busbw peak 7.66 GB/s", K::Metric, "nccl_busbw_peak_gbps", 7.66, 1e-9},
    {"lumi-eap__Lumi-supercomputer__rccl-tests", "Avg bus bandwidth 2.31741", K::Metric, "nccl_busbw_avg_gbps", 2.31741,
     1e-9},
    {kRocm, "GPU% 0%", K::GpuMeanUtil, "", 0, 0},
    {kRocm, "Temp 46.0 C", K::GpuTemp, "", 46.0, 0},
    {kRocm, "Power 102.0W, N/A on the second GCD", K::GpuPower, "", 102.0, 0},
    {kRocm, "VRAM% 0%", K::NotAvailable, "", 0, 0,
     "the concise table's VRAM% is a share, not MiB used; memory is read from --showmeminfo vram"},
};

QString fileFor(const char *prefix)
{
    const QStringList hits = QDir(kLogs).entryList({QLatin1String(prefix) + u'*'}, QDir::Files);
    return hits.size() == 1 ? kLogs + hits.front() : QString();
}

bool haveLogs()
{
    return !kLogs.isEmpty() && QFile::exists(kLogs + QStringLiteral("MANIFEST.md"));
}

}   // namespace

class TstIngestRealLogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void values_data();
    void values();
    void tally();
    void manifest_data();
    void manifest();
    void manifestTally();
    void provenance();
    void gpuCsvOfAau();
    void gpuCsvInNoise();
    void rocmSmiPerTaskTable();
};

void TstIngestRealLogs::initTestCase()
{
    if (!haveLogs())
        QSKIP("../shared/job-logs is absent: the real-log tests need it (see helper rules)");
}

void TstIngestRealLogs::values_data()
{
    QTest::addColumn<int>("row");
    for (int i = 0; i < int(std::size(kTable)); ++i)
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QString::fromLatin1(kTable[i].file).section(u'_', 4, 4),
                                                             QLatin1String(kTable[i].metric))))
            << i;
}

void TstIngestRealLogs::values()
{
    QFETCH(int, row);
    const Expect &e = kTable[row];
    const QString path = fileFor(e.file);
    QVERIFY2(!path.isEmpty(), e.file);
    const LogMetricResult r = LogMetricExtractor().extractFile(path);
    const LogMetric *m = r.find(QLatin1String(e.metric));
    if (std::isnan(e.value)) {
        QVERIFY2(!m, m ? qPrintable(m->rule + u' ' + QString::number(m->value) + u' ' + m->sourceLine.left(200)) : "");
        return;
    }
    QVERIFY2(m, e.metric);
    QVERIFY2(std::abs(m->value - e.value) <= e.tolerance, qPrintable(QStringLiteral("%1 = %2 (rule %3, line %4)")
                                                                         .arg(QLatin1String(e.metric))
                                                                         .arg(m->value, 0, 'g', 12)
                                                                         .arg(m->rule)
                                                                         .arg(m->line)));
}

void TstIngestRealLogs::tally()
{
    int right = 0, wrong = 0, missed = 0, falsePositives = 0;
    QStringList report;
    for (const Expect &e : kTable) {
        // Kept in a variable: find() points into it (AddressSanitizer found the
        // temporary freed before the pointer was read).
        const auto extracted = LogMetricExtractor().extractFile(fileFor(e.file));
        const LogMetric *m = extracted.find(QLatin1String(e.metric));
        if (std::isnan(e.value)) {
            falsePositives += m ? 1 : 0;
            continue;
        }
        if (!e.humanRead)
            continue;
        if (!m) {
            ++missed;
            report << QStringLiteral("missed %1 %2").arg(QLatin1String(e.file), QLatin1String(e.metric));
        } else if (std::abs(m->value - e.value) > e.tolerance) {
            ++wrong;
            report
                << QStringLiteral("wrong %1 %2 = %3").arg(QLatin1String(e.file), QLatin1String(e.metric)).arg(m->value);
        } else {
            ++right;
        }
    }
    qInfo("real logs: %d right, %d wrong, %d missed of %d human-read values; %d false positives", right, wrong, missed,
          right + wrong + missed, falsePositives);
    for (const QString &l : report)
        qInfo("%s", qPrintable(l));
    QCOMPARE(right + wrong + missed, 24);
    QCOMPARE(wrong, 0);
    QCOMPARE(missed, 0);
    QCOMPARE(falsePositives, 0);
}

namespace {

// Empty when the MANIFEST value is read right, else what went wrong.
QString checkManifest(const ManifestValue &v)
{
    const QString path = fileFor(v.file);
    if (path.isEmpty())
        return QStringLiteral("no file %1").arg(QLatin1String(v.file));
    const LogMetricResult r = LogMetricExtractor().extractFile(path);
    const LogMetric *m = r.find(QLatin1String(v.metric));
    auto near = [](double a, double b, double tol) { return std::abs(a - b) <= tol; };
    switch (v.kind) {
    case K::Metric:
        if (!m)
            return QStringLiteral("%1 not read").arg(QLatin1String(v.metric));
        return near(m->value, v.value, v.tolerance) ? QString()
                                                    : QStringLiteral("%1 = %2 (rule %3)")
                                                          .arg(QLatin1String(v.metric))
                                                          .arg(m->value, 0, 'g', 12)
                                                          .arg(m->rule);
    case K::Series:
        return m && m->values.size() == int(v.value) ? QString() : QStringLiteral("series of %1").arg(m ? m->count : 0);
    case K::RunEnd:
        for (const RunEnd &e : r.runEnds)
            if (e.kind == RunEnd::Kind::Cancelled && e.scope.startsWith(QLatin1String("job "))
                && e.at == QLatin1String(v.metric))
                return {};
        return QStringLiteral("no job cancellation at %1 among %2 run ends")
            .arg(QLatin1String(v.metric))
            .arg(r.runEnds.size());
    case K::Delta: {
        const LogMetricResult start = LogMetricExtractor().extractFile(fileFor(v.other));
        const LogMetric *s = start.find(QLatin1String(v.metric));
        return m && s && near(m->value - s->value, v.value, v.tolerance) ? QString()
                                                                         : QStringLiteral("counters not read");
    }
    case K::GpuTemp:
    case K::GpuPower: {
        // Every task's GCD that printed a value; the doc cut shows task 0 with both.
        const GpuSampleSummary g = GpuSampleParser::parseFile(path);
        if (g.gpus.isEmpty())
            return QStringLiteral("no GPU");
        const auto &x = v.kind == K::GpuTemp ? g.gpus[0].meanTempC : g.gpus[0].meanPowerW;
        return x && near(*x, v.value, v.tolerance) ? QString() : QStringLiteral("sensor");
    }
    case K::GpuMeanUtil:
    case K::GpuPeakMem:
    case K::GpuUtilSamples: {
        const GpuSampleSummary g = GpuSampleParser::parseFile(path);
        if (v.kind == K::GpuMeanUtil)
            return g.meanUtilPercent && near(*g.meanUtilPercent, v.value, v.tolerance) ? QString()
                                                                                       : QStringLiteral("util");
        if (v.kind == K::GpuPeakMem)
            return g.peakMemUsedMiB && near(*g.peakMemUsedMiB, v.value, v.tolerance) ? QString()
                                                                                     : QStringLiteral("mem");
        return !g.gpus.isEmpty() && g.gpus[0].utilPercent.size() == int(v.value) ? QString()
                                                                                 : QStringLiteral("samples");
    }
    case K::NotAvailable:
        return {};
    }
    return QStringLiteral("unknown kind");
}

}   // namespace

void TstIngestRealLogs::manifest_data()
{
    QTest::addColumn<int>("row");
    for (int i = 0; i < int(std::size(kManifest)); ++i)
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(i).arg(QLatin1String(kManifest[i].what)))) << i;
}

void TstIngestRealLogs::manifest()
{
    QFETCH(int, row);
    const ManifestValue &v = kManifest[row];
    if (v.kind == K::NotAvailable)
        QVERIFY2(QByteArray(v.other).size() > 10, "a value not read says why");
    const QString problem = checkManifest(v);
    QVERIFY2(problem.isEmpty(), qPrintable(QLatin1String(v.file) + u' ' + problem));
}

void TstIngestRealLogs::manifestTally()
{
    int read = 0, notAvailable = 0;
    for (const ManifestValue &v : kManifest) {
        if (v.kind == K::NotAvailable) {
            ++notAvailable;
            qInfo("not available: %s: %s (%s)", v.file, v.what, v.other);
        } else if (checkManifest(v).isEmpty()) {
            ++read;
        }
    }
    qInfo("MANIFEST values: %d read right, %d reported as not available, of %d", read, notAvailable,
          int(std::size(kManifest)));
    QCOMPARE(read + notAvailable, int(std::size(kManifest)));
}

void TstIngestRealLogs::provenance()
{
    // The 9304946 eval dict sits inside a '\r' progress-bar line; the value says where it is.
    const QString path = fileFor("lumi__Lumi-supercomputer__slurm-9304946");
    const LogMetricResult r = LogMetricExtractor().extractFile(path);
    const LogMetric *m = r.find(QStringLiteral("eval_loss"));
    QVERIFY(m);
    QCOMPARE(m->rule, QStringLiteral("hf.dict.eval_loss"));
    QCOMPARE(m->file, path);
    QCOMPARE(m->line, qint64(151));
    QVERIFY(m->sourceLine.startsWith(QLatin1String(" 4{'eval_loss': 3.214578151702881")));
    QCOMPARE(m->steps, QVector<double>{0.05});
    // A derived value names its formula.
    const LogMetricResult d = LogMetricExtractor().extractFile(fileFor("lumi__Lumi-supercomputer__pytorch-ddp"));
    const LogMetric *perGpu = d.find(QStringLiteral("throughput_per_gpu"));
    QVERIFY(perGpu);
    QCOMPARE(perGpu->formula, QStringLiteral("mean of 4 values"));
    QCOMPARE(perGpu->steps, (QVector<double>{1, 2, 3, 4}));
    const LogMetricResult t = LogMetricExtractor().extractFile(fileFor("thetagpu__saforem2__deepspeed"));
    QCOMPARE(t.find(QStringLiteral("test_accuracy"))->formula, QStringLiteral("printed percent / 100"));
    QCOMPARE(t.find(QStringLiteral("test_accuracy"))->values,
             (QVector<double>{0.71, 0.85, 0.90, 0.92, 0.94, 0.95, 0.95, 0.96}));
}

void TstIngestRealLogs::gpuCsvOfAau()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(fileFor("aau__aau-claaudia__nvidia-smi-query-gpu-csv"));
    QCOMPARE(s.tool, GpuSampleSummary::Tool::NvidiaSmi);
    QCOMPARE(s.rows, qint64(17));
    QCOMPARE(s.gpus.size(), 1);
    QCOMPARE(*s.meanUtilPercent, 1549.0 / 17);   // ≈ 91 %, dips to 32 and 35
    QCOMPARE(*s.peakMemUsedMiB, 30994.0);
    QCOMPARE(*s.gpus[0].memTotalMiB, 32480.0);
    QVERIFY(std::abs(s.durationSeconds - 80.039) < 1e-6);
}

void TstIngestRealLogs::gpuCsvInNoise()
{
    // Help text mentioning memory.used before the header must not become a header.
    const GpuSampleSummary s = GpuSampleParser::parseFile(fileFor("aau__aau-claaudia__getUtilByJobId"));
    QCOMPARE(s.rows, qint64(10));
    QCOMPARE(s.gpus[0].utilPercent, (QVector<double>{98, 0, 48, 99, 72, 100, 99, 99, 99, 11}));
    QCOMPARE(*s.meanMemUsedMiB, 30994.0);
    QVERIFY(std::abs(s.durationSeconds - 45.03) < 1e-6);
    for (const Diagnostic &d : s.diagnostics)
        QVERIFY2(d.severity != Severity::Error, qPrintable(d.message));
}

void TstIngestRealLogs::rocmSmiPerTaskTable()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(fileFor("lumi__Lumi-supercomputer__rocm-smi"));
    QCOMPARE(s.tool, GpuSampleSummary::Tool::RocmSmi);
    QCOMPARE(s.rows, qint64(3));
    // Every task sees its GCD as device 0: the tasks keep them apart.
    QCOMPARE(s.gpus.size(), 3);
    QCOMPARE(s.gpus[0].key, QStringLiteral("task0:0"));
    QCOMPARE(s.gpus[2].key, QStringLiteral("task2:0"));
    QCOMPARE(*s.meanUtilPercent, 0.0);
    QVERIFY(!s.meanMemUsedMiB);
}

QTEST_GUILESS_MAIN(TstIngestRealLogs)
#include "tst_ingest_reallogs.moc"
