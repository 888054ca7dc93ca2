// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in readers on logs written for these tests in each framework's
// own output format (tests/data/ingest/frameworks, see README there): 8
// interleaved ranks, '\r' progress bars, ANSI escapes, launcher prefixes, a
// truncated last line. Expected values were worked out by hand.
#include "core/ingest/LogMetricExtractor.h"

#include <QElapsedTimer>
#include <QSet>
#include <QTest>

#include <cmath>
#include <limits>

using namespace scalelab;

namespace {

QString data(const QString &name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/frameworks/") + name;
}
const double kNaN = std::numeric_limits<double>::quiet_NaN();

}   // namespace

class TstIngestFrameworks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void values_data();
    void values();
    void huggingFaceSeriesAndFormulas();
    void perRankSum();
    void deepSpeedSteps();
    void ncclTable();
    void truncatedLastLine();
    void userPatternOverridesBuiltin();
    void hugeDigitLines();
    void everyRuleHasIdMeaningAndUnitKind();
    void everyRuleReadsItsExample();
    void ambiguousValuesAreNamed();
    void runEnds();
    void nothingReadSaysWhy();
};

// The training stacks' readers (StackReaders.cpp) on their fixtures.
template <typename Row>
void stackRows(Row row)
{
    row("megatron iteration ms -> s", "megatron-lm.out", "iteration_time_s", 3.9 / 3, 3, "megatron.iteration_time_ms");
    row("megatron TFLOP/s per GPU", "megatron-lm.out", "tflops_per_gpu", 350.0 / 3, 3, "megatron.tflops_per_gpu");
    row("megatron lm loss", "megatron-lm.out", "train_loss", 8.5, 3, "megatron.lm_loss");
    row("megatron batch", "megatron-lm.out", "global_batch_size", 64, 3, "megatron.global_batch_size");
    row("megatron world size", "megatron-lm.out", "world_size", 16, 1, "megatron.world_size");
    row("megatron validation, not test", "megatron-lm.out", "val_loss", 8.412345, 1, "megatron.val_loss");
    row("megatron ppl", "megatron-lm.out", "val_ppl", 4503.21, 1, "megatron.val_ppl");
    row("megatron test", "megatron-lm.out", "test_loss", 8.398765, 1, "megatron.test_loss");
    row("megatron-ds last rank's line", "megatron-deepspeed.out", "iteration_time_s", 14.5, 2,
        "megatron.iteration_time_ms");
    row("megatron-ds samples/s of the job", "megatron-deepspeed.out", "throughput", 53, 2,
        "megatron_ds.samples_per_sec");
    row("megatron-ds tgs", "megatron-deepspeed.out", "tokens_per_s_per_gpu", 1140, 2, "megatron_ds.tgs");
    row("megatron-ds TFLOPs per GPU", "megatron-deepspeed.out", "tflops_per_gpu", 69, 2, "megatron_ds.tflops");
    row("megatron-ds no job total", "megatron-deepspeed.out", "samples_per_s", kNaN, 0, "");
    row("nemo loss", "nemo.out", "train_loss", 6.13, 2, "nemo.reduced_train_loss");
    row("nemo step time", "nemo.out", "iteration_time_s", 6.0, 2, "nemo.train_step_timing");
    row("nemo val loss", "nemo.out", "val_loss", 6.25, 1, "keras.val_loss");
    row("nemo bar without rate", "nemo.out", "it_per_s", kNaN, 0, "");
    row("fairseq wps", "fairseq.out", "tokens_per_s", 41000, 2, "fairseq.wps");
    row("fairseq ups", "fairseq.out", "updates_per_s", 2.4, 2, "fairseq.ups");
    row("fairseq epoch loss last", "fairseq.out", "train_loss", 8.456, 3, "fairseq.epoch_train_loss");
    row("fairseq valid loss", "fairseq.out", "val_loss", 4.012, 1, "fairseq.valid_loss");
    row("fairseq valid bleu", "fairseq.out", "val_bleu", 27.51, 1, "fairseq.valid_bleu");
    row("fairseq generate bleu", "fairseq.out", "test_bleu", 27.32, 1, "fairseq.generate_bleu");
    row("mlperf eval", "mlperf-mllog.out", "mlperf_eval_accuracy", 0.7612, 2, "mlperf.eval_accuracy");
    row("mlperf time to train", "mlperf-mllog.out", "time_to_train_s", 2123.4, 1, "mlperf.run_stop");
    row("mlperf batch", "mlperf-mllog.out", "global_batch_size", 3264, 1, "mlperf.global_batch_size");
    row("mlperf RESULT", "mlperf-mllog.out", "result_time_s", 2160, 1, "mlperf.result");
    row("mlperf tracked throughput ambiguous", "mlperf-mllog.out", "throughput", kNaN, 0, "");
    row("nanogpt loss", "nanogpt.out", "train_loss", 8.25, 3, "nanogpt.iter_loss");
    row("nanogpt time after warm-up", "nanogpt.out", "iteration_time_s", 0.15, 2, "nanogpt.iter_time");
    row("nanogpt mfu", "nanogpt.out", "mfu", 0.325, 2, "nanogpt.mfu");
    row("nanogpt val loss", "nanogpt.out", "val_loss", 3.2456, 2, "nanogpt.val_loss");
    row("llm.c loss", "llmc.out", "train_loss", 10.512345, 2, "llmc.train_loss");
    row("llm.c step time", "llmc.out", "iteration_time_s", 0.41, 2, "llmc.step_time");
    row("llm.c mfu, -100% not read", "llmc.out", "mfu", 0.45, 1, "llmc.mfu");
    row("llm.c tok/s of the job", "llmc.out", "tokens_per_s", 1.1e6, 2, "llmc.tokens_per_s");
    row("llm.c val loss", "llmc.out", "val_loss", 3.398123, 1, "llmc.val_loss");
    row("dschat per GPU", "deepspeed-chat.out", "throughput_per_gpu", 7, 2, "dschat.samples_per_sec");
    row("dschat ppl", "deepspeed-chat.out", "val_ppl", 12.345678, 1, "dschat.eval_ppl");
    row("dschat eval loss", "deepspeed-chat.out", "val_loss", 2.513311, 1, "dschat.eval_loss");
    row("dschat epoch loss", "deepspeed-chat.out", "train_loss", 2.345678, 1, "dschat.epoch_loss");
    row("dschat TFLOPs ambiguous", "deepspeed-chat.out", "tflops", kNaN, 0, "");
    row("timm rate of the job", "timm.out", "throughput", 2000, 2, "timm.train_rate");
    row("timm loss", "timm.out", "train_loss", 5.12, 2, "timm.train_loss");
    row("timm top-1 of the whole set", "timm.out", "val_accuracy", 0.76128, 1, "timm.val_top1");
    row("timm top-5", "timm.out", "val_top5_accuracy", 0.92862, 1, "timm.val_top5");
    row("timm val loss", "timm.out", "val_loss", 1.1304, 1, "timm.val_loss");
    row("torchvision img/s per GPU", "torchvision.out", "throughput_per_gpu", 200, 2, "torchvision.img_s");
    row("torchvision loss", "torchvision.out", "train_loss", 3.4521, 2, "torchvision.loss");
    row("torchvision max mem", "torchvision.out", "gpu_mem_max_alloc_mib", 10600, 2, "torchvision.max_mem");
    row("torchvision acc1, EMA left out", "torchvision.out", "val_accuracy", 0.7613, 1, "torchvision.acc1");
    row("torchvision acc5", "torchvision.out", "val_top5_accuracy", 0.92862, 1, "torchvision.acc5");
    row("torchvision training time", "torchvision.out", "train_time_s", 5025, 1, "torchvision.training_time");
    row("clu steps/s", "flax-clu.out", "steps_per_s", 11, 2, "jax.clu.steps_per_sec");
    row("clu eval accuracy", "flax-clu.out", "eval_accuracy", 0.76123, 1, "jax.clu.eval_accuracy");
    row("clu eval loss", "flax-clu.out", "eval_loss", 1.03125, 1, "jax.clu.eval_loss");
    row("flax mnist percent", "flax-clu.out", "test_accuracy", 0.9905, 1, "flax.mnist.test_accuracy");
    row("flax mnist train accuracy", "flax-clu.out", "train_accuracy", 0.9902, 1, "flax.mnist.train_accuracy");
    row("flax train loss last", "flax-clu.out", "train_loss", 0.0312, 3, "pytorch.example.train_loss");
    row("unscoped tokens/s never a metric", "slurm-ends.out", "tokens_per_s", kNaN, 0, "");
}

void TstIngestFrameworks::values_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<double>("value");   // NaN = must be absent
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("rule");   // of the chosen value
    auto row = [](const char *name, const char *file, const char *metric, double value, int count, const char *rule) {
        QTest::newRow(name) << QString::fromLatin1(file) << QString::fromLatin1(metric) << value << count
                            << QString::fromLatin1(rule);
    };
    row("hf it/s, nested eval bar ignored", "hf-trainer.out", "it_per_s", 2.86, 5, "tqdm.it_per_s");
    row("hf steps", "hf-trainer.out", "steps_done", 400, 6, "tqdm.steps_done");
    row("hf train loss", "hf-trainer.out", "train_loss", 1.9571, 4, "hf.block.train_loss");
    row("hf eval loss", "hf-trainer.out", "eval_loss", 1.6543, 3, "hf.block.eval_loss");
    row("hf eval accuracy", "hf-trainer.out", "eval_accuracy", 0.7031, 3, "hf.block.eval_accuracy");
    row("hf runtime H:MM:SS.ff", "hf-trainer.out", "train_time_s", 140.12, 2, "hf.block.train_runtime");
    row("hf eval runtime", "hf-trainer.out", "eval_runtime_s", 3.10, 3, "hf.block.eval_runtime");
    row("hf samples/s", "hf-trainer.out", "samples_per_s", 456.74, 2, "hf.block.train_samples_per_second");
    row("hf eval samples/s", "hf-trainer.out", "eval_samples_per_s", 322.58, 3, "hf.block.eval_samples_per_second");
    row("deepspeed running avg", "deepspeed-8ranks.out", "samples_per_s", 811.75, 3,
        "deepspeed.running_avg_samples_per_sec");
    row("deepspeed per step", "deepspeed-8ranks.out", "throughput", 810.0, 3, "deepspeed.curr_samples_per_sec");
    row("deepspeed memory", "deepspeed-8ranks.out", "gpu_mem_max_alloc_gb", 6.3, 3, "deepspeed.max_mem_allocated");
    row("ptdist rank 0 per GPU", "ptdist-8ranks-labelled.out", "throughput_per_gpu", 201.0, 2,
        "pytorch.ptdist.images_per_sec_per_gpu");
    row("ptdist total", "ptdist-8ranks-labelled.out", "samples_per_s", 1636.0, 1, "pytorch.ptdist.total_average");
    row("ptdist no mixed throughput", "ptdist-8ranks-labelled.out", "throughput", kNaN, 0, "");
    row("torchrun loss, rank 1 ignored", "torchrun-tee.out", "train_loss", 0.1667, 3, "pytorch.example.epoch_loss");
    row("torchrun epoch time", "torchrun-tee.out", "epoch_time_s", 1.2, 3, "pytorch.example.epoch_time");
    row("torchrun epoch throughput", "torchrun-tee.out", "throughput", 2000.0, 3,
        "pytorch.example.epoch_samples_per_s");
    row("torchrun accuracy", "torchrun-tee.out", "test_accuracy", 0.9555, 1, "pytorch.example.test_accuracy");
    row("torchrun total", "torchrun-tee.out", "samples_per_s", 1666.7, 1, "pytorch.example.samples_per_s");
    row("torchrun world size", "torchrun-tee.out", "world_size", 2, 1, "generic.world_size");
    row("keras3 ansi epoch time", "keras3-ansi.out", "epoch_time_s", 2.5, 2, "keras.epoch_time");
    row("keras3 ansi accuracy", "keras3-ansi.out", "train_accuracy", 0.9671, 2, "keras.train_accuracy");
    row("keras3 ansi val accuracy", "keras3-ansi.out", "val_accuracy", 0.9712, 2, "keras.val_accuracy");
    row("keras3 ansi loss", "keras3-ansi.out", "train_loss", 0.1105, 2, "keras.train_loss");
    row("horovod iter per GPU", "horovod-pytorch-8ranks.out", "throughput_per_gpu", 907.0 / 3, 3,
        "horovod.iter_img_per_sec_per_gpu");
    row("horovod per GPU", "horovod-pytorch-8ranks.out", "samples_per_s_per_gpu", 302.3, 1,
        "horovod.img_per_sec_per_gpu");
    row("horovod total, rank 3 ignored", "horovod-pytorch-8ranks.out", "samples_per_s", 2418.7, 1,
        "horovod.total_img_per_sec");
    row("lightning world size", "lightning-ddp.out", "world_size", 2, 2, "lightning.world_size");
    row("lightning it/s", "lightning-ddp.out", "it_per_s", 11.35, 2, "tqdm.it_per_s");
    row("lightning bar and logged loss", "lightning-ddp.out", "train_loss", 0.544, 3, "lightning.logged.train_loss");
    row("lightning val acc", "lightning-ddp.out", "val_accuracy", 0.861, 2, "lightning.logged.val_acc");
    row("lightning test acc", "lightning-ddp.out", "test_accuracy", 0.8544, 1, "lightning.logged.test_acc");
    row("tqdm s/it", "tqdm-slow.out", "it_per_s", 1.0 / 12.3, 3, "tqdm.s_per_it");
    row("tqdm total", "tqdm-slow.out", "steps_total", 20, 4, "tqdm.steps_total_slow");
    row("nccl peak out-of-place", "nccl-tests-label.out", "nccl_busbw_peak_gbps", 151.48, 3, "nccl.busbw_table");
    row("nccl average", "nccl-tests-label.out", "nccl_busbw_avg_gbps", 92.1866, 1, "nccl.avg_busbw");
    row("truncated: complete lines", "truncated.out", "test_accuracy", 0.9871, 1, "keras.test_accuracy");
    stackRows(row);
}

void TstIngestFrameworks::values()
{
    QFETCH(QString, file);
    QFETCH(QString, metric);
    QFETCH(double, value);
    QFETCH(int, count);
    QFETCH(QString, rule);
    const LogMetricResult r = LogMetricExtractor().extractFile(data(file));
    const LogMetric *m = r.find(metric);
    if (std::isnan(value)) {
        QVERIFY2(!m, m ? qPrintable(m->rule + u' ' + m->sourceLine) : "");
        return;
    }
    QVERIFY2(m, qPrintable(metric));
    QVERIFY2(std::abs(m->value - value) < 1e-9,
             qPrintable(QStringLiteral("%1 (rule %2, line %3)").arg(m->value, 0, 'g', 12).arg(m->rule).arg(m->line)));
    QCOMPARE(m->count, count);
    QCOMPARE(m->rule, rule);
    QCOMPARE(m->file, data(file));
    QVERIFY(m->line > 0);
    QVERIFY(!m->meaning.isEmpty());
}

void TstIngestFrameworks::huggingFaceSeriesAndFormulas()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("hf-trainer.out")));
    const LogMetric *loss = r.find(QStringLiteral("eval_loss"));
    QCOMPARE(loss->values, (QVector<double>{1.9876, 1.6543, 1.6543}));
    QCOMPARE(loss->steps.mid(0, 2), (QVector<double>{1.0, 2.0}));   // the dicts' 'epoch'
    QVERIFY(std::isnan(loss->steps[2]));   // the log_metrics block has none
    const LogMetric *train = r.find(QStringLiteral("train_loss"));
    QCOMPARE(train->values, (QVector<double>{2.3026, 1.8123, 1.9571, 1.9571}));
    QCOMPARE(train->steps.mid(0, 3), (QVector<double>{0.5, 1.5, 2.0}));
    QCOMPARE(r.find(QStringLiteral("train_time_s"))->formula, QStringLiteral("printed H:MM:SS.ff in seconds"));
    QCOMPARE(r.find(QStringLiteral("train_time_s"))->line, qint64(16));
    QVERIFY(r.find(QStringLiteral("train_time_s"))->sourceLine.contains(QLatin1String("0:02:20.12")));
    // The nested evaluation bar (tqdm position 1, ESC[A) is not the training rate.
    for (double v : r.find(QStringLiteral("it_per_s"))->values)
        QVERIFY2(v < 3, qPrintable(QString::number(v)));
    QVERIFY(r.diagnostics.isEmpty());
}

void TstIngestFrameworks::perRankSum()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("ptdist-8ranks-labelled.out")));
    const LogMetric *sum = r.find(QStringLiteral("samples_per_s_rank_sum"));
    QVERIFY(sum);
    // Ranks print 200+r and 202+r: each rank's mean is 201+r; 8 ranks add to 1636.
    QCOMPARE(sum->value, 1636.0);
    QCOMPARE(sum->ranks, 8);
    QCOMPARE(sum->count, 16);
    QCOMPARE(sum->formula, QStringLiteral("sum over 8 ranks of each rank's mean (16 values)"));
    // The per-GPU metric stays rank 0's and is never mixed with the total.
    QCOMPARE(r.find(QStringLiteral("throughput_per_gpu"))->values, (QVector<double>{200.0, 202.0}));
    // Only rank 0's lines (the LUMI excerpt): no sum is invented, and the result says why.
    const LogMetricResult one = LogMetricExtractor().extract(" * Rank 0 - Epoch  1: 212.39 images/sec per GPU\n");
    QVERIFY(!one.find(QStringLiteral("samples_per_s_rank_sum")));
    QCOMPARE(one.diagnostics.size(), 1);
    QCOMPARE(one.diagnostics[0].rule, QStringLiteral("metric-per-rank-unlabelled"));
}

void TstIngestFrameworks::deepSpeedSteps()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("deepspeed-8ranks.out")));
    QCOMPARE(r.find(QStringLiteral("samples_per_s"))->steps, (QVector<double>{10, 20, 30}));
    QCOMPARE(r.find(QStringLiteral("throughput"))->steps, (QVector<double>{10, 20, 30}));
    QCOMPARE(r.find(QStringLiteral("throughput"))->formula, QStringLiteral("mean of 3 values"));
    // The old "{epoch}/{step}, SamplesPerSec=" form.
    const LogMetricResult old = LogMetricExtractor().extract(
        "[2022-03-11 02:06:58,985] [INFO] [timer.py:189:stop] 0/40, SamplesPerSec=83.48609168106144, "
        "MemAllocated=0.26GB, MaxMemAllocated=9.02GB\n");
    QCOMPARE(*old.value(QStringLiteral("samples_per_s")), 83.48609168106144);
    QCOMPARE(old.find(QStringLiteral("samples_per_s"))->steps, QVector<double>{40});
}

void TstIngestFrameworks::ncclTable()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("nccl-tests-label.out")));
    const LogMetric *peak = r.find(QStringLiteral("nccl_busbw_peak_gbps"));
    QCOMPARE(peak->values, (QVector<double>{30.52, 94.56, 151.48}));
    QCOMPARE(peak->steps, (QVector<double>{1048576, 16777216, 268435456}));   // message size in bytes
    QCOMPARE(peak->line, qint64(6));
    QCOMPARE(peak->formula, QStringLiteral("maximum of 3 values"));
}

void TstIngestFrameworks::truncatedLastLine()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("truncated.out")));
    QCOMPARE(*r.value(QStringLiteral("test_accuracy")), 0.9871);   // not the cut-off 0.98
    QCOMPARE(*r.value(QStringLiteral("train_time_s")), 88.5);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].rule, QStringLiteral("log-truncated-line"));
    QCOMPARE(r.diagnostics[0].line, 4);
}

void TstIngestFrameworks::userPatternOverridesBuiltin()
{
    MetricPattern p;
    p.name = QStringLiteral("test_accuracy");
    p.regex = QStringLiteral("my acc ([0-9.]+)");
    const LogMetricExtractor x({p});
    const LogMetricResult r = x.extract("Test accuracy: 0.5\nmy acc 0.75\n");
    QCOMPARE(r.find(QStringLiteral("test_accuracy"))->count, 1);
    QCOMPARE(*r.value(QStringLiteral("test_accuracy")), 0.75);
    QCOMPARE(r.find(QStringLiteral("test_accuracy"))->rule, QStringLiteral("patterns[0]"));
    // Other built-ins still read.
    QCOMPARE(*x.extract("Train time: 12.5\n").value(QStringLiteral("train_time_s")), 12.5);
}

void TstIngestFrameworks::hugeDigitLines()
{
    // Issue 11 F3: a megabyte of digits before a unit is no metric, and costs one pass.
    for (const char *unit : {" samples/s", "it/s", " images/sec", " img/sec per GPU", " examples/second"}) {
        QByteArray log(1 << 20, '7');
        log += unit;
        log += '\n';
        log += "epoch 1 loss 0.5 time 1.0 samples/s 100.0\n";
        const LogMetricResult r = LogMetricExtractor().extract(log);
        const LogMetric *t = r.find(QStringLiteral("throughput"));
        QVERIFY2(t, unit);
        QCOMPARE(t->values, QVector<double>{100.0});
        QVERIFY(!r.find(QStringLiteral("it_per_s")));
    }
    // The digits after a label: a number too large for a double is not stored as infinity.
    QByteArray log("samples_per_s ");
    log += QByteArray(1 << 20, '9');
    log += "\nsamples_per_s 5.0\n";
    QCOMPARE(LogMetricExtractor().extract(log).find(QStringLiteral("samples_per_s"))->values, QVector<double>{5.0});
}

void TstIngestFrameworks::everyRuleHasIdMeaningAndUnitKind()
{
    QSet<QString> ids;
    for (const MetricPattern &p : LogMetricExtractor::builtinPatterns()) {
        QVERIFY2(!p.rule.isEmpty(), qPrintable(p.name));
        QVERIFY2(!ids.contains(p.rule), qPrintable(p.rule));
        ids.insert(p.rule);
        QVERIFY2(!p.meaning.isEmpty(), qPrintable(p.rule));
        // Per-GPU and total throughput never share a metric.
        if (p.name.contains(QLatin1String("per_gpu")))
            QVERIFY2(p.meaning.contains(QLatin1String("one GPU")), qPrintable(p.rule));
        if (p.name == QLatin1String("samples_per_s") || p.name == QLatin1String("throughput"))
            QVERIFY2(!p.meaning.contains(QLatin1String("one GPU")), qPrintable(p.rule));
    }
    QVERIFY(LogMetricExtractor().patternDiagnostics().isEmpty());
}

void TstIngestFrameworks::everyRuleReadsItsExample()
{
    // The example `metrics --list-readers` shows is a line the rule reads, and wins on.
    for (const MetricPattern &p : LogMetricExtractor::builtinPatterns()) {
        QVERIFY2(!p.example.isEmpty(), qPrintable(p.rule));
        if (p.ncclTable || p.aggregation == MetricAggregation::PerRankSum)
            continue;   // a table with its header; every rank's lines
        const LogMetricResult r = LogMetricExtractor().extract(p.example.toUtf8() + "\n");
        if (p.ambiguous) {
            QVERIFY2(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                 [&](const Diagnostic &d) {
                                     return d.rule == QLatin1String("metric-ambiguous") && d.field == p.rule;
                                 }),
                     qPrintable(p.rule));
            QVERIFY2(!r.find(p.name) || r.find(p.name)->rule != p.rule, qPrintable(p.rule));
            continue;
        }
        const LogMetric *m = r.find(p.name);
        QVERIFY2(m, qPrintable(p.rule + QStringLiteral(": nothing read from ") + p.example));
        QVERIFY2(m->rule == p.rule, qPrintable(p.rule + QStringLiteral(" lost to ") + m->rule));
    }
}

void TstIngestFrameworks::ambiguousValuesAreNamed()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("deepspeed-chat.out")));
    QStringList found;
    for (const Diagnostic &d : r.diagnostics)
        if (d.rule == QLatin1String("metric-ambiguous"))
            found << d.field + u' ' + d.message;
    QCOMPARE(found.size(), 1);
    QVERIFY2(found[0].startsWith(QLatin1String("dschat.tflops line 7: 2 value(s) like 3.45 TFLOP/s")),
             qPrintable(found[0]));
}

void TstIngestFrameworks::runEnds()
{
    const LogMetricResult r = LogMetricExtractor().extractFile(data(QStringLiteral("slurm-ends.out")));
    QCOMPARE(r.runEnds.size(), 4);
    QCOMPARE(r.runEnds[0].kind, RunEnd::Kind::ExitCode);
    QCOMPARE(r.runEnds[0].exitCode, 1);
    QCOMPARE(r.runEnds[0].scope, QStringLiteral("task 3 on nid001002"));
    QCOMPARE(r.runEnds[0].line, qint64(6));
    QCOMPARE(r.runEnds[1].kind, RunEnd::Kind::OutOfMemory);
    QCOMPARE(r.runEnds[1].scope, QStringLiteral("StepId=77.0"));
    QCOMPARE(r.runEnds[2].kind, RunEnd::Kind::TimeLimit);
    QCOMPARE(r.runEnds[2].scope, QStringLiteral("step 77.0"));
    QCOMPARE(r.runEnds[3].describe(), QStringLiteral("job 77 cancelled at 2025-01-28T15:04:48: time limit reached"));
    QCOMPARE(r.runEnds[3].line, qint64(9));
}

void TstIngestFrameworks::nothingReadSaysWhy()
{
    const LogMetricResult r =
        LogMetricExtractor().extract("starting\nepoch 1 accuracy not computed yet\nTest set: Average loss: nan\nbye\n");
    QVERIFY(r.metrics.isEmpty());
    const Diagnostic &d = r.diagnostics.back();
    QCOMPARE(d.rule, QStringLiteral("log-no-metrics"));
    QVERIFY2(d.message.contains(QLatin1String("megatron")) && d.message.contains(QLatin1String("--list-readers")),
             qPrintable(d.message));
    QVERIFY2(d.message.contains(QLatin1String("line 3: 'Test set: Average loss: nan'")), qPrintable(d.message));
}

QTEST_GUILESS_MAIN(TstIngestFrameworks)
#include "tst_ingest_frameworks.moc"
