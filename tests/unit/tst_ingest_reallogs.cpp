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
