// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in log readers: one small table per framework. Each rule says
// which metric it feeds, its unit, how repeated values combine and what the
// number means. Formats were checked against each framework's own source:
// Hugging Face transformers (Trainer.log -> "{'loss': ..., 'epoch': ...}",
// trainer_pt_utils.log_metrics -> "  key = value" with *_runtime as
// H:MM:SS.ff), DeepSpeed utils/timer.py ThroughputTimer ("{epoch}/{step},
// SamplesPerSec=" and later "global_step=N, RunningAvgSamplesPerSec=...,
// CurrSamplesPerSec=..., MemAllocated=..GB, MaxMemAllocated=..GB"; its batch
// size is the global train batch), Horovod's synthetic benchmarks
// ("Iter #k: X img/sec per GPU", "Img/sec per GPU: X +-Y", "Total img/sec on
// N GPU(s): X +-Y"; printed by rank 0), Keras Progbar ("- 12s 25ms/step -
// loss: ... - val_accuracy: ..."), tqdm's format_meter ("n/total [elapsed<
// remaining, X.XXit/s]" or "X.XXs/it"; nested bars end with ESC[A),
// Lightning (banner, progress-bar metrics "name=value"), nccl-tests
// src/common.cu ("# Avg bus bandwidth    : X" and the result table).
//
// Metric names: samples_per_s is the whole job's throughput over the run,
// samples_per_s_per_gpu one GPU's; throughput / throughput_per_gpu are the
// same per step or epoch (their series). Per-GPU and total values are never
// one metric, so they are never averaged together.
#include "core/ingest/ReaderRules.h"

namespace scalelab {

namespace {

using namespace readers;

const QString kNestedBar = QStringLiteral("\x1b[A");   // tqdm bars below the first (evaluation loops)

// "| 400/1000 [04:37<04:31,  2.21it/s" (or "9.38s/it"): the step counter of the bar.
MetricPattern tqdmSteps(const char *id, const char *name, int group, const char *rateUnit, const char *meaning)
{
    MetricPattern p = rule(id, name, "steps", MetricAggregation::Last,
                           QStringLiteral("\\|\\s*+([0-9]++)/([0-9]++) \\[[0-9:]++<[0-9:?]++,\\s*+[0-9.?]++")
                               + QLatin1String(rateUnit),
                           rateUnit, meaning);
    p.valueGroup = group;
    p.tqdmCounter = group;   // read by hand: the regex only documents the rule
    p.literal = QString::fromLatin1(rateUnit);
    p.excludeIf = {kNestedBar};
    return p;
}

QList<MetricPattern> keras()
{
    const QString n = kNum;
    return {
        ex(rule("keras.test_accuracy", "test_accuracy", "", A::Last, "Test accuracy:\\s*" + n, "acc",
                "accuracy on the test set printed after training (Keras/Horovod examples)"),
           "[1,0]<stdout>:Test accuracy: 0.9936000108718872"),
        ex(rule("keras.train_accuracy", "train_accuracy", "", A::Last, " - accuracy: " + n, "acc",
                "training accuracy of the epoch (Keras progress line)"),
           "469/469 [==============================] - 12s 25ms/step - loss: 0.2534 - accuracy: 0.9241"),
        ex(rule("keras.val_accuracy", "val_accuracy", "", A::Last, "\\bval_acc(?:uracy)?[=:]\\s*+" + kNumP, "acc",
                "validation accuracy of the epoch (Keras progress line, Lightning progress bar)"),
           "469/469 - 12s - 25ms/step - loss: 0.2534 - accuracy: 0.9241 - val_loss: 0.1103 - val_accuracy: 0.9672"),
        ex(rule("keras.test_loss", "test_loss", "", A::Last, "Test loss:\\s*" + n, "oss",
                "loss on the test set printed after training"),
           "[1,0]<stdout>:Test loss: 0.019611"),
        ex(rule("keras.val_loss", "val_loss", "", A::Last, "\\bval_loss[=:]\\s*" + n, "oss",
                "validation loss of the epoch (Keras progress line, Lightning progress bar)"),
           "469/469 - 12s - 25ms/step - loss: 0.2534 - accuracy: 0.9241 - val_loss: 0.1103 - val_accuracy: 0.9672"),
        ex(rule("keras.train_loss", "train_loss", "", A::Last, " - loss: " + n, "oss",
                "training loss of the epoch (Keras progress line)"),
           "469/469 [==============================] - 12s 25ms/step - loss: 0.2534 - accuracy: 0.9241"),
        ex(rule("keras.train_time", "train_time_s", "s", A::Last, "Train time:\\s*" + n, "time",
                "training wall time printed by the Keras/Horovod examples"),
           "[1,0]<stdout>:Train time: 124.74971508979797"),
        ex(rule("keras.epoch_time", "epoch_time_s", "s", A::Mean,
                "(?<![0-9.])([0-9]++(?:\\.[0-9]++)?)s [0-9.]++[mu]?s/step", "s/step",
                "seconds per epoch (Keras progress line \"12s 25ms/step\")"),
           "469/469 [==============================] - 12s 25ms/step - loss: 0.2534 - accuracy: 0.9241"),
    };
}

QList<MetricPattern> pytorch()
{
    const QString n = kNum;
    return {
        // ScaleLab's example (resources/examples/pytorch_ddp_digits.py) and the DDP test runs.
        ex(rule("pytorch.example.test_accuracy", "test_accuracy", "", A::Last, "\\btest_accuracy[=:\\s]\\s*" + n, "acc",
                "test accuracy printed by rank 0 after training"),
           "test_accuracy 0.9778"),
        ex(rule("pytorch.example.test_loss", "test_loss", "", A::Last, "\\btest_loss[=:\\s]\\s*" + n, "oss",
                "test loss printed by rank 0 after training"),
           "test_loss 0.0712"),
        stepAfter(ex(rule("pytorch.example.train_loss", "train_loss", "", A::Last, "\\btrain_loss[=:\\s]\\s*" + n,
                          "oss", "training loss of the epoch"),
                     "train_loss=0.4712 epoch=3"),
                  "epoch"),
        step(ex(rule("pytorch.example.epoch_loss", "train_loss", "", A::Last,
                     "\\b[Ee]poch\\s*+([0-9]+)\\s++loss[=:\\s]\\s*+" + kNumP, "oss",
                     "training loss of the epoch (\"epoch 3 loss 0.47 ...\")"),
                "epoch 3 loss 0.4712 time 1.20"),
             2, 1),
        ex(rule("pytorch.example.train_time", "train_time_s", "s", A::Last, "\\btrain_time_s[=:\\s]\\s*" + n, "time",
                "training wall time printed by rank 0"),
           "train_time_s 3.301"),
        step(ex(rule("pytorch.example.epoch_time", "epoch_time_s", "s", A::Mean,
                     "\\b[Ee]poch\\s*+([0-9]+)\\b[^\\r\\n]*?\\btime[=:\\s]\\s*+" + kNumP, "time", "seconds per epoch"),
                "epoch 3 loss 0.4712 time 1.20"),
             2, 1),
        ex(rule("pytorch.example.samples_per_s", "samples_per_s", "samples/s", A::Last,
                "\\bsamples_per_s[=:\\s]\\s*" + n, "samples",
                "samples per second of the whole job over the whole training (all ranks)"),
           "samples_per_s 8712.4"),
        stepAfter(ex(rule("pytorch.example.epoch_samples_per_s", "throughput", "samples/s", A::Mean,
                          "samples/s[=:\\s]\\s*" + n, "samples", "samples per second of the whole job in one epoch"),
                     "epoch 3 loss 0.4712 time 1.20 samples/s 2000.0"),
                  "epoch "),
        // PyTorch MNIST examples: "Test set: Average loss: 0.0345, Accuracy: 9800/10000 (98%)".
        [] {
            MetricPattern p = ex(rule("pytorch.mnist.test_accuracy", "test_accuracy", "", A::Last,
                                      "Accuracy: ([0-9]+)/([0-9]+) \\(", "ccuracy", "correct / total on the test set"),
                                 "Test set: Average loss: 0.0345, Accuracy: 9800/10000 (98%)");
            p.ratio = true;
            return p;
        }(),
        ex(rule("pytorch.mnist.test_loss", "test_loss", "", A::Last, "Test set: Average loss:\\s*" + n, "oss",
                "average loss on the test set"),
           "Test set: Average loss: 0.0345, Accuracy: 9800/10000 (98%)"),
        stepAfter(ex(rule("pytorch.mnist.train_loss", "train_loss", "", A::Last, "Train Epoch: [0-9]+ .*\\sLoss: " + n,
                          "oss", "training loss at a log interval (\"Train Epoch: 1 [1280/60000 (2%)]\\tLoss: ...\")"),
                     "Train Epoch: 1 [1280/60000 (2%)]\tLoss: 0.512345"),
                  "Train Epoch: "),
        // LUMI ml-examples pytorch/ptdist: " * Rank 0 - Epoch  1: 212.39 images/sec per GPU".
        [] {
            MetricPattern p =
                step(ex(rule("pytorch.ptdist.images_per_sec_per_gpu", "throughput_per_gpu", "samples/s", A::Mean,
                             "\\bRank ([0-9]+) - Epoch\\s++([0-9]+): " + kNumP + " images/sec per GPU", "/sec",
                             "images per second of one GPU in an epoch (rank 0's print)"),
                        " * Rank 0 - Epoch  1: 212.39 images/sec per GPU"),
                     3, 2);
            p.rankGroup = 1;
            return p;
        }(),
        ex(rule("pytorch.ptdist.total_average", "samples_per_s", "samples/s", A::Last,
                "Total average: " + kNumP + " images/sec", "/sec",
                "images per second of the whole job, averaged over epochs"),
           " * Total average: 6792.58 images/sec"),
        // The same lines when every rank prints its own (srun without a rank filter): the
        // ranks' means add up to the job's throughput.
        [] {
            MetricPattern p =
                step(ex(rule("pytorch.ptdist.rank_sum", "samples_per_s_rank_sum", "samples/s", A::PerRankSum,
                             "\\bRank ([0-9]+) - Epoch\\s++([0-9]+): " + kNumP + " images/sec per GPU", "/sec",
                             "sum over ranks of each rank's mean images/sec (only when every rank prints)"),
                        " 3:  * Rank 3 - Epoch  1: 211.87 images/sec per GPU"),
                     3, 2);
            p.rankGroup = 1;
            return p;
        }(),
    };
}

QList<MetricPattern> huggingFace()
{
    const QString n = kNum;
    auto dict = [&](const char *id, const char *key, const char *name, const char *unit, const char *anchor,
                    const char *meaning) {
        return stepAfter(
            rule(id, name, unit, A::Last, QStringLiteral("'%1': ").arg(QLatin1String(key)) + n, anchor, meaning),
            "'epoch': ");
    };
    auto block = [&](const char *id, const char *key, const char *name, const char *unit, const char *anchor,
                     const char *meaning) {
        return rule(id, name, unit, A::Last, QStringLiteral("\\b%1\\s*[=:]\\s*").arg(QLatin1String(key)) + n, anchor,
                    meaning);
    };
    auto runtime = [&](const char *id, const char *key, const char *name, const char *meaning) {
        return form(rule(id, name, "s", A::Last,
                         QStringLiteral("\\b%1\\s*+=\\s*+([0-9]++:[0-9]{2}:[0-9.]++)").arg(QLatin1String(key)), "time",
                         meaning),
                    ValueForm::Duration);
    };
    return {
        ex(dict("hf.dict.loss", "loss", "train_loss", "", "oss", "training loss at a logging step (Trainer log dict)"),
           "{'loss': 1.9571, 'grad_norm': 3.1, 'learning_rate': 4.5e-05, 'epoch': 0.5}"),
        ex(dict("hf.dict.train_loss", "train_loss", "train_loss", "", "oss", "average training loss of the run"),
           "{'train_runtime': 140.12, 'train_samples_per_second': 456.74, 'train_steps_per_second': 2.85, "
           "'train_loss': 1.9571, 'epoch': 1.0}"),
        ex(dict("hf.dict.eval_loss", "eval_loss", "eval_loss", "", "oss", "evaluation loss (Trainer evaluate)"),
           "{'eval_loss': 3.2146, 'eval_runtime': 4.3047, 'eval_samples_per_second': 232.306, 'eval_steps_per_second': "
           "3.717, 'epoch': 0.05}"),
        ex(dict("hf.dict.eval_accuracy", "eval_accuracy", "eval_accuracy", "", "acc", "evaluation accuracy"),
           "{'eval_loss': 1.6543, 'eval_accuracy': 0.7031, 'epoch': 1.0}"),
        ex(dict("hf.dict.eval_runtime", "eval_runtime", "eval_runtime_s", "s", "time", "seconds the evaluation took"),
           "{'eval_loss': 3.2146, 'eval_runtime': 4.3047, 'eval_samples_per_second': 232.306, 'eval_steps_per_second': "
           "3.717, 'epoch': 0.05}"),
        ex(dict("hf.dict.eval_samples_per_second", "eval_samples_per_second", "eval_samples_per_s", "samples/s",
                "samples", "evaluation samples per second of the whole job"),
           "{'eval_loss': 3.2146, 'eval_runtime': 4.3047, 'eval_samples_per_second': 232.306, 'eval_steps_per_second': "
           "3.717, 'epoch': 0.05}"),
        ex(dict("hf.dict.train_runtime", "train_runtime", "train_time_s", "s", "time", "seconds the training took"),
           "{'train_runtime': 140.12, 'train_samples_per_second': 456.74, 'train_steps_per_second': 2.85, "
           "'train_loss': 1.9571, 'epoch': 1.0}"),
        ex(dict("hf.dict.train_samples_per_second", "train_samples_per_second", "samples_per_s", "samples/s", "samples",
                "training samples per second of the whole job (global batch)"),
           "{'train_runtime': 140.12, 'train_samples_per_second': 456.74, 'train_steps_per_second': 2.85, "
           "'train_loss': 1.9571, 'epoch': 1.0}"),
        ex(block("hf.block.train_loss", "train_loss", "train_loss", "", "oss", "average training loss (log_metrics)"),
           "  train_loss               =     1.9571"),
        ex(block("hf.block.eval_loss", "eval_loss", "eval_loss", "", "oss", "evaluation loss (log_metrics)"),
           "  eval_loss               =     1.6543"),
        ex(block("hf.block.eval_accuracy", "eval_accuracy", "eval_accuracy", "", "acc",
                 "evaluation accuracy (log_metrics)"),
           "  eval_accuracy           =     0.7031"),
        ex(block("hf.block.train_samples_per_second", "train_samples_per_second", "samples_per_s", "samples/s",
                 "samples", "training samples per second of the whole job (log_metrics)"),
           "  train_samples_per_second =    456.74"),
        ex(block("hf.block.eval_samples_per_second", "eval_samples_per_second", "eval_samples_per_s", "samples/s",
                 "samples", "evaluation samples per second (log_metrics)"),
           "  eval_samples_per_second =    322.58"),
        ex(runtime("hf.block.train_runtime", "train_runtime", "train_time_s",
                   "training time (log_metrics, H:MM:SS.ff)"),
           "  train_runtime            = 0:02:20.12"),
        ex(runtime("hf.block.eval_runtime", "eval_runtime", "eval_runtime_s",
                   "evaluation time (log_metrics, H:MM:SS.ff)"),
           "  eval_runtime            = 0:00:03.10"),
    };
}

QList<MetricPattern> deepSpeed()
{
    return {
        step(ex(rule("deepspeed.running_avg_samples_per_sec", "samples_per_s", "samples/s", A::Last,
                     "global_step=([0-9]+), RunningAvgSamplesPerSec=" + kNumP, "PerSec",
                     "DeepSpeed: samples per second of the whole job, averaged since the start"),
                "[2024-03-07 15:27:02,646] [INFO] [timer.py:260:stop] epoch=0/micro_step=199/global_step=199, "
                "RunningAvgSamplesPerSec=58.730622229657506, CurrSamplesPerSec=61.35304005128382, MemAllocated=6.01GB, "
                "MaxMemAllocated=19.52GB"),
             2, 1),
        step(ex(rule("deepspeed.samples_per_sec", "samples_per_s", "samples/s", A::Last,
                     "\\b[0-9]+/([0-9]+), SamplesPerSec=" + kNumP, "PerSec",
                     "DeepSpeed: samples per second of the whole job, averaged since the start"),
                "[2022-03-11 02:07:14,130] [INFO] [timer.py:189:stop] 0/50, SamplesPerSec=83.73838805358588, "
                "MemAllocated=0.26GB, MaxMemAllocated=9.02GB"),
             2, 1),
        stepAfter(
            ex(rule("deepspeed.curr_samples_per_sec", "throughput", "samples/s", A::Mean, "CurrSamplesPerSec=" + kNum,
                    "PerSec", "DeepSpeed: samples per second of the whole job in one step"),
               "[2024-03-07 15:27:02,646] [INFO] [timer.py:260:stop] epoch=0/micro_step=199/global_step=199, "
               "RunningAvgSamplesPerSec=58.730622229657506, CurrSamplesPerSec=61.35304005128382, MemAllocated=6.01GB, "
               "MaxMemAllocated=19.52GB"),
            "global_step="),
        ex(rule("deepspeed.max_mem_allocated", "gpu_mem_max_alloc_gb", "GB", A::Max, "MaxMemAllocated=" + kNum,
                "PerSec", "DeepSpeed: peak memory allocated by PyTorch on rank 0's GPU"),
           "[2022-03-11 02:07:14,130] [INFO] [timer.py:189:stop] 0/50, SamplesPerSec=83.73838805358588, "
           "MemAllocated=0.26GB, MaxMemAllocated=9.02GB"),
        ex(rule("deepspeed.mem_allocated", "gpu_mem_alloc_gb", "GB", A::Last, "\\bMemAllocated=" + kNum + "GB",
                "PerSec", "DeepSpeed: memory allocated by PyTorch on rank 0's GPU at the last timer line"),
           "[2022-03-11 02:07:14,130] [INFO] [timer.py:189:stop] 0/50, SamplesPerSec=83.73838805358588, "
           "MemAllocated=0.26GB, MaxMemAllocated=9.02GB"),
        ex(step(rule("deepspeed.lr", "learning_rate", "", A::Last, "\\bstep=([0-9]++), skipped=[0-9]++, lr=\\[" + kNumP,
                     ", lr=[", "DeepSpeed: learning rate of the first parameter group at a logged step"),
                2, 1),
           "[2022-03-11 02:07:14,130] [INFO] [logging.py:69:log_dist] [Rank 0] step=50, skipped=2, lr=[5e-05], "
           "mom=[[0.9, 0.999]]"),
        ex(rule("deepspeed.config.train_batch_size", "global_batch_size", "samples", A::Last,
                ":print\\] ++train_batch_size \\.++ ([0-9]++)$", "train_batch_size",
                "DeepSpeed configuration: samples in one step of the whole job"),
           "[2023-01-11 13:27:59,217] [INFO] [config.py:1024:print]   train_batch_size ............. 256"),
        ex(rule("deepspeed.config.micro_batch", "micro_batch_size_per_gpu", "samples", A::Last,
                ":print\\] ++train_micro_batch_size_per_gpu \\.*+ *+([0-9]++)$", "train_micro_batch_size_per_gpu",
                "DeepSpeed configuration: samples one GPU takes in one forward/backward pass"),
           "[2023-01-11 13:27:59,217] [INFO] [config.py:1024:print]   train_micro_batch_size_per_gpu  8"),
        ex(rule("deepspeed.config.zero_stage", "zero_stage", "", A::Last,
                ":print\\] ++zero_config \\.++ stage=([0-9])\\b", "zero_config",
                "DeepSpeed configuration: ZeRO stage (0 = off)"),
           "[2023-01-11 13:27:59,218] [INFO] [config.py:1024:print]   zero_config .................. stage=0 "
           "contiguous_gradients=True reduce_scatter=True"),
        ex(rule("deepspeed.op_load_time", "op_build_time_s", "s", A::Max,
                "\\bTime to load [a-z0-9_]++ op: " + kNumP + " seconds", "Time to load ",
                "DeepSpeed: seconds to build or load a JIT-compiled op (fused_adam, ...) on a rank; the longest"),
           "Time to load fused_adam op: 50.29804468154907 seconds"),
        ex(rule("nccl.coll_channels", "nccl_coll_channels", "channels", A::Last, "NCCL INFO ([0-9]++) coll channels, ",
                " coll channels, ",
                "NCCL: collective channels the communicator set up (init log with NCCL_DEBUG=INFO)"),
           "[1,0]<stdout>:nv-ai-03:62491:62509 [0] NCCL INFO 12 coll channels, 16 p2p channels, 16 p2p channels per "
           "peer"),
        ex(rule("nccl.p2p_channels", "nccl_p2p_channels", "channels", A::Last,
                "NCCL INFO [0-9]++ coll channels, ([0-9]++) p2p channels", " coll channels, ",
                "NCCL: point-to-point channels the communicator set up (init log with NCCL_DEBUG=INFO)"),
           "[1,0]<stdout>:nv-ai-03:62491:62509 [0] NCCL INFO 12 coll channels, 16 p2p channels, 16 p2p channels per "
           "peer"),
    };
}

QList<MetricPattern> horovod()
{
    return {
        step(ex(rule("horovod.iter_img_per_sec_per_gpu", "throughput_per_gpu", "samples/s", A::Mean,
                     "Iter #([0-9]+): " + kNumP + " img/sec per [CG]PU", "/sec",
                     "Horovod synthetic benchmark: images per second of one GPU in an iteration"),
                "Iter #3: 544.2 img/sec per GPU"),
             2, 1),
        ex(rule("horovod.img_per_sec_per_gpu", "samples_per_s_per_gpu", "samples/s", A::Last,
                "Img/sec per [CG]PU: " + kNumP, "/sec",
                "Horovod synthetic benchmark: mean images per second of one GPU"),
           "Img/sec per GPU: 544.1 +-3.9"),
        ex(rule("horovod.total_img_per_sec", "samples_per_s", "samples/s", A::Last,
                "Total img/sec on [0-9]+ [CG]PU\\(s\\): " + kNumP, "/sec",
                "Horovod synthetic benchmark: images per second of all GPUs"),
           "Total img/sec on 32 GPU(s): 17411.4 +-123.6"),
        // tf_cnn_benchmarks (used for Horovod's published numbers).
        ex(rule("tf_cnn.total_images_per_sec", "samples_per_s", "samples/s", A::Last, "total images/sec:\\s*" + kNum,
                "/sec", "tf_cnn_benchmarks: images per second of this worker over the run"),
           "total images/sec: 1234.56"),
        [] {
            MetricPattern p =
                ex(rule("tf_cnn.step_images_per_sec", "throughput", "samples/s", A::Mean, "images/sec:\\s*" + kNum,
                        "/sec", "tf_cnn_benchmarks: images per second at a step"),
                   "100\timages/sec: 1234.5 +/- 1.2 (jitter = 3.4)\t7.123");
            p.excludeIf = {QStringLiteral("total images/sec")};
            return p;
        }(),
    };
}

// table: the generic readers, one rule per row
QList<MetricPattern> generic()
{
    const QStringList notTotal{QStringLiteral("per GPU"), QStringLiteral("per CPU"), QStringLiteral("Total"),
                               QStringLiteral("total"), QStringLiteral("per rank")};
    return {
        // tqdm (also Lightning's and Hugging Face's bars).
        before(ex(rule("tqdm.it_per_s", "it_per_s", "it/s", A::Last, "(?<![0-9.])" + kNumP + "it/s", "it/s",
                       "tqdm: iterations per second at the last update of the main progress bar"),
                  " 40%|████      | 400/1000 [04:37<04:31,  2.21it/s]"),
               "it/s", {kNestedBar}),
        form(before(ex(rule("tqdm.s_per_it", "it_per_s", "it/s", A::Last, "(?<![0-9.])" + kNumP + "s/it", "s/it",
                            "tqdm: iterations per second at the last update of the main progress bar"),
                       " 10%|█         | 1/10 [00:09<01:24,  9.38s/it]"),
                    "s/it", {kNestedBar}),
             ValueForm::Reciprocal),
        ex(tqdmSteps("tqdm.steps_done", "steps_done", 1, "it/s",
                     "tqdm: steps completed on the main progress bar at its last update"),
           " 40%|████      | 400/1000 [04:37<04:31,  2.21it/s]"),
        ex(tqdmSteps("tqdm.steps_done_slow", "steps_done", 1, "s/it",
                     "tqdm: steps completed on the main progress bar at its last update"),
           " 10%|█         | 1/10 [00:09<01:24,  9.38s/it]"),
        ex(tqdmSteps("tqdm.steps_total", "steps_total", 2, "it/s", "tqdm: steps the main progress bar expects"),
           " 40%|████      | 400/1000 [04:37<04:31,  2.21it/s]"),
        ex(tqdmSteps("tqdm.steps_total_slow", "steps_total", 2, "s/it", "tqdm: steps the main progress bar expects"),
           " 10%|█         | 1/10 [00:09<01:24,  9.38s/it]"),
        // Lightning: banner, progress-bar metrics, printed trainer.logged_metrics.
        ex(rule("lightning.world_size", "world_size", "ranks", A::Max,
                "Initializing distributed: GLOBAL_RANK: [0-9]+, MEMBER: [0-9]+/([0-9]+)", "MEMBER",
                "Lightning: processes in the job (banner)"),
           "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/4"),
        ex(rule("generic.loss_equals", "train_loss", "", A::Last, "\\bloss=" + kNum, "oss",
                "running training loss printed as loss=X (Lightning progress bar, many training loops)"),
           "Epoch 0: 100%|██████████| 10/10 [01:49<00:00, 0.09it/s, v_num=2, loss=2.31]"),
        ex(rule("lightning.logged.train_loss", "train_loss", "", A::Last, "'train_loss': tensor\\(" + kNum, "oss",
                "Lightning logged_metrics: training loss"),
           "{'train_loss': tensor(0.2345), 'val_loss': tensor(0.1999)}"),
        ex(rule("lightning.logged.val_loss", "val_loss", "", A::Last, "'val_loss': tensor\\(" + kNum, "oss",
                "Lightning logged_metrics: validation loss"),
           "{'train_loss': tensor(0.2345), 'val_loss': tensor(0.1999)}"),
        ex(rule("lightning.logged.val_acc", "val_accuracy", "", A::Last, "'val_acc': tensor\\(" + kNum, "acc",
                "Lightning logged_metrics: validation accuracy"),
           "{'val_acc': tensor(0.9712)}"),
        ex(rule("lightning.logged.test_acc", "test_accuracy", "", A::Last, "'test_acc': tensor\\(" + kNum, "acc",
                "Lightning logged_metrics: test accuracy"),
           "{'test_acc': tensor(0.9650)}"),
        ex(rule("lightning.example.peak_memory", "peak_mem_gb", "GB", A::Max, "Peak memory usage: " + kNum,
                "Peak memory", "peak GPU memory printed by Lightning's examples"),
           "Peak memory usage: 36.73 GB"),
        // Other common prints.
        form(ex(rule("generic.test_accuracy_percent", "test_accuracy", "", A::Last,
                     "\\[TEST\\] Accuracy:\\s*+" + kNumP + "\\s*+%", "ccuracy", "test accuracy printed in percent"),
                "[TEST] Accuracy: 96%"),
             ValueForm::Percent),
        ex(rule("generic.total_training_time", "train_time_s", "s", A::Last, "Total training time:\\s*" + kNum, "time",
                "training wall time"),
           "Total training time: 13.14 seconds"),
        ex(rule("generic.world_size", "world_size", "ranks", A::Max, "\\bworld_size[=:\\s]\\s*" + kNum, "world_size",
                "processes in the job"),
           "Initialized process group: rank 0, world_size 8"),
        ex(rule("generic.rank_of", "world_size", "ranks", A::Max, "\\bRank [0-9]+ of ([0-9]+)\\b", "Rank",
                "processes in the job (\"Rank 3 of 8\")"),
           "Rank 3 of 8 on gpu042"),
        before(ex(rule("generic.images_per_sec", "throughput", "samples/s", A::Mean,
                       "(?<![0-9.])" + kNumP + "\\s*images/sec", "/sec", "images per second of the job at a step"),
                  "Epoch 1 took 20.1 s, 1234.5 images/sec"),
               "images/sec", notTotal),
        ex(rule("generic.examples_per_sec", "throughput", "samples/s", A::Mean, "\\bexamples/sec[=:]\\s*" + kNum,
                "/sec", "examples per second at a step"),
           "INFO:tensorflow:examples/sec: 345.6"),
        ex(rule("generic.exp_per_sec", "throughput", "samples/s", A::Mean, "average exp/sec = " + kNum, "/sec",
                "examples per second at a step"),
           "average exp/sec = 345.6"),
        before(ex(rule("generic.examples_per_second", "throughput", "samples/s", A::Mean,
                       "(?<![0-9.])" + kNumP + " examples/second", "/sec", "examples per second at a step"),
                  "step 100: 345.6 examples/second"),
               "examples/second", notTotal),
        before(ex(rule("generic.samples_per_s", "throughput", "samples/s", A::Mean,
                       "(?<![0-9.])" + kNumP + "\\s*samples/s", "samples", "samples per second at a step"),
                  "throughput 1234.5 samples/s"),
               "samples/s", notTotal),
        // nvidia-smi nvlink -gt d: cumulative counters per GPU and link since the driver loaded.
        ex(rule("nvidia_smi.nvlink_tx", "nvlink_tx_kib", "KiB", A::Last, "\\bLink [0-9]++: Data Tx: ([0-9]++) KiB",
                ": Data Tx: ",
                "nvidia-smi nvlink -gt d: data sent over the last link listed, counted since the "
                "driver loaded (two captures give the traffic between them)"),
           "\t Link 0: Data Tx: 19241022 KiB"),
        ex(rule("nvidia_smi.nvlink_rx", "nvlink_rx_kib", "KiB", A::Last, "\\bLink [0-9]++: Data Rx: ([0-9]++) KiB",
                ": Data Rx: ",
                "nvidia-smi nvlink -gt d: data received over the last link listed, counted since the "
                "driver loaded"),
           "\t Link 0: Data Rx: 19255516 KiB"),
        // nccl-tests / rccl-tests.
        ex(rule("nccl.avg_busbw", "nccl_busbw_avg_gbps", "GB/s", A::Last, "# Avg bus bandwidth\\s*[=:]\\s*" + kNum,
                "bandwidth", "nccl-/rccl-tests: bus bandwidth averaged over the message sizes"),
           "# Avg bus bandwidth    : 2.31741"),
        [] {
            MetricPattern p = ex(rule("nccl.busbw_table", "nccl_busbw_peak_gbps", "GB/s", A::Max, QString(), "",
                                      "nccl-/rccl-tests: highest out-of-place bus bandwidth in the result table"),
                                 "   134217728      33554432     float     sum      -1   17526    7.66    7.66      0  "
                                 " 17473    7.68    7.68      0");
            p.ncclTable = true;
            return p;
        }(),
    };
}

}   // namespace

namespace readers {

QList<MetricPattern> frameworkReaders()
{
    QList<MetricPattern> all;
    all << keras() << pytorch() << huggingFace() << deepSpeed() << horovod() << generic();
    return all;
}

}   // namespace readers

}   // namespace scalelab
