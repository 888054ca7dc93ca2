// SPDX-License-Identifier: GPL-3.0-or-later
// Readers for the logs of the big training stacks, one small table each.
// Formats as their own sources print them:
// - Megatron-LM megatron/training/training.py training_log() ("[time]
//   iteration N/ M | consumed samples: | elapsed time per iteration (ms): |
//   throughput per GPU (TFLOP/s/GPU): | learning rate: | global batch size: |
//   lm loss: |") and evaluate_and_print_results() ("validation loss at
//   iteration N | lm loss value: X | lm loss PPL: Y |"); Megatron-DeepSpeed's
//   training_log adds "samples per second:" (global batch / iteration time),
//   "tokens per gpu per second (tgs):" and "TFLOPs:" (FLOPs / (time * world
//   size): one GPU's).
// - NeMo: Lightning bar metrics "reduced_train_loss=", "train_step_timing in s=",
//   "global_step="; NeMo 2's progress printer "name: value | ...".
// - fairseq logging/progress_bar.py + trainer.py: train_inner "epoch 001: 100 /
//   487 loss=.., wps=.., ups=.., num_updates=.." (wps: tokens of all workers per
//   second, the counts are all-reduced before the meters), epoch summaries "|
//   train | epoch 001 | loss X |", "| valid | epoch 001 | valid on 'valid'
//   subset | loss X | ... | bleu Y |", fairseq-generate "BLEU4 = X,". Losses are
//   in base 2.
// - MLPerf mlperf_logging/mllog: ":::MLLOG {json}" with "time_ms", "event_type",
//   "key", "value", "metadata"; run_and_time.sh's "RESULT,name,,seconds,...".
// - nanoGPT train.py ("iter N: loss X, time Yms, mfu Z%", "step N: train loss X,
//   val loss Y"), llm.c train_gpt2.cu ("step N/M | train loss X | norm | lr | Y
//   ms | Z% bf16 MFU | T tok/s" with T = B*T*processes / time, "val loss X").
// - DeepSpeed-Chat dschat/utils/perf.py print_throughput: "Samples/sec" is
//   per_device_train_batch_size / time (one GPU's); its "TFLOPs" divides one
//   device's FLOPs by the whole world size, so it is neither one GPU's nor the
//   job's: reported as ambiguous.
// - timm train.py ("Train: E [i/n (p%)]  Loss: X (Y)  Time: Ts,  R/s  (...)"
//   with R = samples of all ranks per second; validate(): "Test: [ i/last]
//   ... Acc@1: X (avg)"), torchvision references/classification (MetricLogger
//   "Epoch: [E]  [i/n]  ... img/s: X  loss: Y (Z) ... max mem: M" with img/s =
//   one process's batch / time; "Test:  Acc@1 X Acc@5 Y"; "Training time
//   H:MM:SS").
// - JAX/Flax: CLU metric_writers LoggingWriter ("[step] key=value, ..." after
//   absl's "file.py:NN] " prefix), the Flax MNIST example ("epoch: N,
//   train_loss: X, train_accuracy: P, test_loss: Y, test_accuracy: Q" in %).
#include "core/ingest/ReaderRules.h"

namespace scalelab::readers {

namespace {

// table: Megatron-LM and Megatron-DeepSpeed readers, one rule per row
QList<MetricPattern> megatron()
{
    const char *iterLine =
        "[2024-05-01 10:00:00] iteration      200/  317892 | consumed samples:       153600 | elapsed "
        "time per iteration (ms): 14541.4 | throughput per GPU (TFLOP/s/GPU): 68.6 | learning rate: "
        "2.407E-04 | global batch size:   768 | lm loss: 5.897035E+00 | loss scale: 8192.0 | grad "
        "norm: 0.312 | number of skipped iterations:   0 | number of nan iterations:   0 |";
    const char *dsLine =
        " iteration      200/  317892 | consumed samples:       153600 | consumed tokens:    629145600 | "
        "elapsed time per iteration (ms): 14541.4 | learning rate: 2.407E-04 | global batch size:   "
        "768 | lm loss: 5.897035E+00 | loss scale: 8192.0 | actual seqlen:  4096 | number of skipped "
        "iterations:   0 | number of nan iterations:   0 | samples per second: 52.815 | tokens per gpu "
        "per second (tgs): 1126.713 | TFLOPs: 68.63 |";
    const char *valLine =
        " validation loss at iteration 1000 | lm loss value: 5.412345E+00 | lm loss PPL: 2.241234E+02 | ";
    const char *testLine = " validation loss at the end of training for test data | lm loss value: 5.398765E+00 | lm "
                           "loss PPL: 2.211234E+02 | ";
    const QStringList notTest{QStringLiteral("for test data")};
    QList<MetricPattern> rules{
        ex(rule("megatron.world_size", "world_size", "ranks", A::Max, "\\busing world size: ([0-9]++),",
                "using world size: ", "Megatron: processes in the job (argument summary)"),
           "using world size: 16, data-parallel size: 4, context-parallel size: 1, tensor-model-parallel size: 2, "
           "pipeline-model-parallel size: 2"),
        ex(stepAfter(form(rule("megatron.iteration_time_ms", "iteration_time_s", "s", A::Mean,
                               "elapsed time per iteration \\(ms\\): " + kNumP, "per iteration (ms)",
                               "Megatron: seconds one training iteration took (the whole job's step), mean of the "
                               "logged iterations"),
                          ValueForm::Milliseconds),
                     "iteration "),
           iterLine),
        ex(stepAfter(rule("megatron.iteration_time_s", "iteration_time_s", "s", A::Mean,
                          "elapsed time per iteration \\(s\\): " + kNumP, "per iteration (s)",
                          "Megatron: seconds one training iteration took, mean of the logged iterations"),
                     "iteration "),
           " iteration    13910/  953674 | consumed samples:     14243840 | elapsed time per iteration (s): 11.18 | "
           "learning rate: 1.000E-04 | global batch size:  1024 | lm loss: 2.152785E+00 |"),
        ex(stepAfter(rule("megatron.tflops_per_gpu", "tflops_per_gpu", "TFLOP/s", A::Mean,
                          "throughput per GPU \\(TFLOP/s/GPU\\): " + kNumP, "(TFLOP/s/GPU)",
                          "Megatron-LM: model TFLOP/s of one GPU in an iteration, mean of the logged iterations"),
                     "iteration "),
           iterLine),
        ex(stepAfter(rule("megatron.tokens_per_gpu", "tokens_per_s_per_gpu", "tokens/s", A::Mean,
                          "tokens per GPU \\(tokens/s/GPU\\): " + kNumP, "(tokens/s/GPU)",
                          "Megatron-LM: tokens per second of one GPU in an iteration, mean of the logged iterations"),
                     "iteration "),
           " iteration       50/    5000 | elapsed time per iteration (ms): 1548.1 | throughput per GPU "
           "(TFLOP/s/GPU): 57.6 | tokens per GPU (tokens/s/GPU): 2645.8 |"),
        ex(stepAfter(rule("megatron.lm_loss", "train_loss", "", A::Last, "\\| lm loss: " + kNumP, "| lm loss: ",
                          "Megatron: language-model loss averaged over the iterations since the previous log line"),
                     "iteration "),
           iterLine),
        ex(rule("megatron.global_batch_size", "global_batch_size", "samples", A::Last,
                "\\| global batch size: *+([0-9]++) \\|",
                "| global batch size:", "Megatron: samples in one iteration of the whole job"),
           iterLine),
        ex(stepAfter(excluding(rule("megatron.val_loss", "val_loss", "", A::Last,
                                    "validation loss at [^|]*+\\| lm loss value: " + kNumP,
                                    "| lm loss value: ", "Megatron: language-model loss on the validation set"),
                               notTest),
                     "validation loss at iteration "),
           valLine),
        ex(stepAfter(excluding(rule("megatron.val_ppl", "val_ppl", "", A::Last,
                                    "validation loss at [^|]*+\\|[^|]*+\\| lm loss PPL: " + kNumP, "| lm loss PPL: ",
                                    "Megatron: perplexity on the validation set, exp(min(20, loss))"),
                               notTest),
                     "validation loss at iteration "),
           valLine),
        ex(rule("megatron.test_loss", "test_loss", "", A::Last, "for test data \\| lm loss value: " + kNumP,
                "| lm loss value: ", "Megatron: language-model loss on the test set at the end of training"),
           testLine),
        ex(stepAfter(rule("megatron_ds.samples_per_sec", "throughput", "samples/s", A::Mean,
                          "\\| samples per second: " + kNumP, "| samples per second: ",
                          "Megatron-DeepSpeed: samples per second of the whole job in an iteration (global batch / "
                          "iteration time), mean of the logged iterations"),
                     "iteration "),
           dsLine),
        ex(stepAfter(rule("megatron_ds.tgs", "tokens_per_s_per_gpu", "tokens/s", A::Mean,
                          "tokens per gpu per second \\(tgs\\): " + kNumP, "per second (tgs)",
                          "Megatron-DeepSpeed: tokens per second of one GPU in an iteration, mean of the logged "
                          "iterations"),
                     "iteration "),
           dsLine),
        ex(stepAfter(rule("megatron_ds.tflops", "tflops_per_gpu", "TFLOP/s", A::Mean, "\\| TFLOPs: " + kNumP,
                          "| TFLOPs: ",
                          "Megatron-DeepSpeed: model TFLOP/s of one GPU in an iteration (FLOPs / (time x world "
                          "size)), mean of the logged iterations"),
                     "iteration "),
           dsLine),
    };
    for (MetricPattern &p : rules)
        p = anyRank(p);   // print_rank_last: the iteration line comes from the last rank
    return rules;
}

QList<MetricPattern> nemo()
{
    const char *bar = "Epoch 0: : 100%|██████████| 50/50 [31:51<00:00, reduced_train_loss=6.130, global_step=50.0, "
                      "consumed_samples=76800.0, train_step_timing in s=5.900, val_loss=6.250]";
    return {
        ex(stepAfter(rule("nemo.reduced_train_loss", "train_loss", "", A::Last, "\\breduced_train_loss[=:] ?+" + kNumP,
                          "reduced_train_loss",
                          "NeMo: training loss averaged over the data-parallel ranks at the last logged step"),
                     "global_step"),
           bar),
        ex(stepAfter(rule("nemo.train_step_timing", "iteration_time_s", "s", A::Mean,
                          "train_step_timing in s[=:] ?+" + kNumP, "train_step_timing in s",
                          "NeMo: seconds one training step of the whole job took, mean of the logged steps"),
                     "global_step"),
           bar),
    };
}

QList<MetricPattern> fairseq()
{
    const char *inner = "2021-03-05 10:01:02 | INFO | train_inner | epoch 001:    100 / 487 loss=9.123, nll_loss=8.9, "
                        "ppl=477.7, wps=40213.5, ups=2.31, wpb=17406.3, bsz=576.2, num_updates=100, lr=1.25e-05, "
                        "gnorm=1.9, loss_scale=128, train_wall=43, gb_free=10.1, wall=46";
    const char *valid = "2021-03-05 10:20:00 | INFO | valid | epoch 001 | valid on 'valid' subset | loss 4.012 | "
                        "nll_loss 2.403 | ppl 5.29 | bleu 27.51 | wps 51234.1 | wpb 3120.4 | bsz 120 | num_updates 487";
    return {
        ex(stepAfter(rule("fairseq.wps", "tokens_per_s", "tokens/s", A::Mean, "\\bwps=" + kNumP, "wps=",
                          "fairseq: target tokens per second of the whole job over a log interval (counts summed "
                          "over all workers), mean of the intervals"),
                     "num_updates="),
           inner),
        ex(stepAfter(rule("fairseq.ups", "updates_per_s", "updates/s", A::Mean, "\\bups=" + kNumP,
                          "ups=", "fairseq: optimizer updates per second of the whole job over a log interval, mean"),
                     "num_updates="),
           inner),
        ex(rule("fairseq.json_wps", "tokens_per_s", "tokens/s", A::Mean, "\"wps\": \"" + kNumP + "\"", "\"wps\": ",
                "fairseq (--log-format json): target tokens per second of the whole job over a log interval"),
           "{\"epoch\": 1, \"update\": 0.205, \"loss\": \"9.123\", \"wps\": \"40213.5\", \"ups\": \"2.31\", "
           "\"num_updates\": \"100\"}"),
        ex(step(rule("fairseq.epoch_train_loss", "train_loss", "", A::Last, "\\| epoch ([0-9]++) \\| loss " + kNumP,
                     "| loss ", "fairseq: training loss of the epoch (base 2)"),
                2, 1),
           "2021-03-05 10:19:00 | INFO | train | epoch 001 | loss 8.456 | nll_loss 8.1 | ppl 274.4 | wps 40102.2 | "
           "ups 2.3 | num_updates 487"),
        ex(step(rule("fairseq.valid_loss", "val_loss", "", A::Last,
                     "\\| epoch ([0-9]++) \\| valid on '[^']*+' subset \\| loss " + kNumP, "subset | loss ",
                     "fairseq: loss on the validation subset at the end of an epoch (base 2)"),
                2, 1),
           valid),
        ex(rule("fairseq.valid_bleu", "val_bleu", "BLEU", A::Last,
                "valid on '[^']*+' subset \\|[^\\r\\n]*?\\| bleu " + kNumP, "| bleu ",
                "fairseq (--eval-bleu): BLEU on the validation subset at the end of an epoch"),
           valid),
        ex(rule("fairseq.generate_bleu", "test_bleu", "BLEU", A::Last,
                "Generate [^ ]++ with beam=[0-9]++: BLEU4? = " + kNumP,
                "with beam=", "fairseq-generate: corpus BLEU of the generated translations"),
           "2021-03-05 11:00:00 | INFO | fairseq_cli.generate | Generate test with beam=5: BLEU4 = 27.32, "
           "59.1/33.1/20.6/13.2 (BP=1.000, ratio=1.018, syslen=64012, reflen=62877)"),
    };
}

QList<MetricPattern> mlperf()
{
    const char *eval =
        ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1620167046347, \"event_type\": \"POINT_IN_TIME\", "
        "\"key\": \"eval_accuracy\", \"value\": 0.7612, \"metadata\": {\"file\": \"fit.py\", \"lineno\": "
        "521, \"epoch_num\": 40}}";
    return {
        ex(stepAfter(rule("mlperf.eval_accuracy", "mlperf_eval_accuracy", "", A::Last,
                          "\"key\": \"eval_accuracy\", \"value\": " + kNumP, "\"eval_accuracy\"",
                          "MLPerf: the benchmark's quality target as logged under eval_accuracy (top-1 for ResNet, "
                          "log perplexity for GPT-3, ...)"),
                     "\"epoch_num\": "),
           eval),
        ex(rule("mlperf.run_start", "mlperf_run_start_ms", "ms", A::Last,
                "\"time_ms\": ([0-9]++), \"event_type\": \"INTERVAL_START\", \"key\": \"run_start\"", "\"run_start\"",
                "MLPerf: Unix time in ms when the timed run started"),
           ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1620166000123, \"event_type\": \"INTERVAL_START\", \"key\": "
           "\"run_start\", \"value\": null, \"metadata\": {\"file\": \"train.py\", \"lineno\": 88}}"),
        ex(rule("mlperf.run_stop", "mlperf_run_stop_ms", "ms", A::Last,
                "\"time_ms\": ([0-9]++), \"event_type\": \"INTERVAL_END\", \"key\": \"run_stop\"[^\\r\\n]*?"
                "\"status\": \"success\"",
                "\"run_stop\"", "MLPerf: Unix time in ms when the timed run stopped having reached its target"),
           ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1620169456789, \"event_type\": \"INTERVAL_END\", \"key\": "
           "\"run_stop\", \"value\": null, \"metadata\": {\"file\": \"train.py\", \"lineno\": 140, \"status\": "
           "\"success\"}}"),
        ex(rule("mlperf.global_batch_size", "global_batch_size", "samples", A::Last,
                "\"key\": \"global_batch_size\", \"value\": ([0-9]++)", "\"global_batch_size\"",
                "MLPerf: samples in one step of the whole job"),
           ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1620166000200, \"event_type\": \"POINT_IN_TIME\", \"key\": "
           "\"global_batch_size\", \"value\": 3264, \"metadata\": {\"file\": \"train.py\", \"lineno\": 90}}"),
        ex(ambiguous(rule("mlperf.tracked_throughput", "throughput", "samples/s", A::Mean,
                          "\"key\": \"tracked_stats\", \"value\": \\{[^}]*?\"throughput\": " + kNumP,
                          "\"tracked_stats\"",
                          "MLPerf tracked_stats throughput: implementations log it per GPU or for the job")),
           ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1620166100000, \"event_type\": \"POINT_IN_TIME\", \"key\": "
           "\"tracked_stats\", \"value\": {\"throughput\": 2345.6}, \"metadata\": {\"step\": 100}}"),
        ex(rule("mlperf.result", "result_time_s", "s", A::Last, "\\bRESULT,[^,]*+,[^,]*+,([0-9]++),", "RESULT,",
                "MLPerf run_and_time.sh: seconds from the script's start to its end (setup included)"),
           "RESULT,IMAGE_CLASSIFICATION,,3463,nvidia,2021-05-04 10:12:01 PM"),
    };
}

QList<MetricPattern> nanoGptAndLlmC()
{
    const char *iter = "iter 2000: loss 3.2145, time 135.42ms, mfu 38.12%";
    const char *llmc = "step  200/74000 | train loss 3.456789 | norm 0.2543 | lr 1.80e-04 | 412.34 ms | 45.6% bf16 MFU "
                       "| 1271560 tok/s";
    return {
        ex(step(rule("nanogpt.iter_loss", "train_loss", "", A::Last, "\\biter ([0-9]++): loss " + kNumP + ", time ",
                     ": loss ", "nanoGPT: loss of the last micro-batch of rank 0 at an iteration"),
                2, 1),
           iter),
        ex(step(form(rule("nanogpt.iter_time", "iteration_time_s", "s", A::Mean,
                          "\\biter ([0-9]++): loss [^,]*+, time " + kUNumP + "ms, mfu [0-9]", ": loss ",
                          "nanoGPT: seconds of one iteration after warm-up (nanoGPT prints mfu -100% for its "
                          "first iterations, compilation included), mean of the logged iterations"),
                     ValueForm::Milliseconds),
                2, 1),
           iter),
        ex(step(form(rule("nanogpt.mfu", "mfu", "", A::Last, "\\biter ([0-9]++): [^\\r\\n]*?, mfu " + kUNumP + "%",
                          ", mfu ", "nanoGPT: running model-FLOPs utilisation of one GPU against an A100's bf16 peak"),
                     ValueForm::Percent),
                2, 1),
           iter),
        ex(step(rule("nanogpt.val_loss", "val_loss", "", A::Last,
                     "\\bstep ([0-9]++): train loss " + kNumP + ", val loss " + kNumP, ", val loss ",
                     "nanoGPT: validation loss estimated over eval_iters batches"),
                3, 1),
           "step 2000: train loss 3.1234, val loss 3.2456"),
        ex(step(rule("llmc.train_loss", "train_loss", "", A::Last,
                     "\\bstep *+([0-9]++)/[0-9]++ \\| train loss " + kNumP, "| train loss ",
                     "llm.c: training loss of the step (mean over the micro-batches of all processes)"),
                2, 1),
           llmc),
        ex(step(
               form(rule("llmc.step_time", "iteration_time_s", "s", A::Mean,
                         "\\bstep *+([0-9]++)/[0-9]++ \\| train loss [^|]*+\\|[^|]*+\\|[^|]*+\\| " + kUNumP + " ms \\|",
                         "| train loss ", "llm.c: seconds of one step of the whole job, mean of the logged steps"),
                    ValueForm::Milliseconds),
               2, 1),
           llmc),
        ex(stepAfter(form(rule("llmc.mfu", "mfu", "", A::Last, "\\| " + kUNumP + "% [a-z0-9]++ MFU \\|", " MFU |",
                               "llm.c: model-FLOPs utilisation of one GPU at the step"),
                          ValueForm::Percent),
                     "step "),
           llmc),
        ex(stepAfter(rule("llmc.tokens_per_s", "tokens_per_s", "tokens/s", A::Mean, "\\| " + kUNumP + " tok/s",
                          " tok/s",
                          "llm.c: tokens per second of the whole job (batch x sequence x processes / step time), "
                          "mean of the logged steps"),
                     "step "),
           llmc),
        ex(rule("llmc.val_loss", "val_loss", "", A::Last, "(?:^|[ :])val loss " + kNumP + "$", "val loss ",
                "llm.c: validation loss over val_num_batches"),
           "val loss 3.398123"),
    };
}

QList<MetricPattern> deepSpeedChat()
{
    const char *perf = "Model Parameters: 0.331 B, Latency: 1.23s, TFLOPs: 3.45, Samples/sec: 6.50, Time/seq 0.15s, "
                       "Batch Size: 8, Sequence Length: 512";
    return {
        ex(rule("dschat.samples_per_sec", "throughput_per_gpu", "samples/s", A::Mean,
                "Latency: [0-9.]++ ?s, TFLOPs: [^,]*+, Samples/sec: " + kUNumP + ", Time/seq", "Samples/sec: ",
                "DeepSpeed-Chat: samples per second of one GPU (per-device batch / step time), mean of the steps"),
           perf),
        ex(ambiguous(rule("dschat.tflops", "tflops", "TFLOP/s", A::Mean,
                          "Latency: [0-9.]++ ?s, TFLOPs: " + kUNumP + ", Samples/sec: ", "Samples/sec: ",
                          "DeepSpeed-Chat: one device's FLOPs divided by the whole world size and the step time")),
           perf),
        ex(rule("dschat.eval_ppl", "val_ppl", "", A::Last,
                "\\bppl: " + kNumP + ", loss: ", "ppl: ", "DeepSpeed-Chat: perplexity on the evaluation set"),
           "ppl: 12.345678, loss: 2.513311"),
        ex(rule("dschat.eval_loss", "val_loss", "", A::Last, "\\bppl: [0-9.einf]++, loss: " + kNumP,
                "ppl: ", "DeepSpeed-Chat: loss on the evaluation set"),
           "ppl: 12.345678, loss: 2.513311"),
        ex(step(rule("dschat.epoch_loss", "train_loss", "", A::Last, "\\bEpoch ([0-9]++)/[0-9]++ with loss " + kNumP,
                     " with loss ", "DeepSpeed-Chat: mean training loss of the epoch"),
                2, 1),
           "Epoch 1/1 with loss 2.345678"),
        ex(rule("dschat.reward", "reward_score", "", A::Last, "Average reward score: " + kNumP, "reward score",
                "DeepSpeed-Chat: mean reward of the generated answers (step 3)"),
           "Average reward score: 1.2345 | EMA reward score: 1.1000"),
    };
}

QList<MetricPattern> timm()
{
    const char *train = "Train: 3 [ 400/1251 ( 32%)]  Loss: 5.12 (5.34)  Time: 0.331s, 3093.65/s  (0.340s, 3011.76/s)"
                        "  LR: 1.000e-03  Data: 0.012 (0.020)";
    const char *test = "Test: [  48/48]  Time: 0.101 (0.254)  Loss:  1.0452 (1.1304)  Acc@1: 75.0000 (76.1280)  "
                       "Acc@5: 91.2500 (92.8620)";
    return {
        ex(step(rule("timm.train_rate", "throughput", "samples/s", A::Mean,
                     "\\bTrain: ([0-9]++) \\[[^\\r\\n]*?Time: [0-9.]++s, *+" + kUNumP + "/s",
                     "Train: ", "timm: samples per second of the whole job (all ranks) at a log interval, mean"),
                2, 1),
           train),
        ex(step(rule("timm.train_loss", "train_loss", "", A::Last, "\\bTrain: ([0-9]++) \\[[^\\r\\n]*?Loss: *+" + kNumP,
                     "Train: ", "timm: training loss at the last log interval (reduced over ranks)"),
                2, 1),
           train),
        ex(form(step(rule("timm.val_top1", "val_accuracy", "", A::Last,
                          "\\bTest: \\[ *+([0-9]++)/\\1\\][^\\r\\n]*?Acc@1: *+[0-9.]++ \\( *+" + kUNumP + "\\)",
                          "Acc@1: ", "timm: top-1 accuracy on the validation set (average at its last batch)"),
                     2, 0),
                ValueForm::Percent),
           test),
        ex(form(step(rule("timm.val_top5", "val_top5_accuracy", "", A::Last,
                          "\\bTest: \\[ *+([0-9]++)/\\1\\][^\\r\\n]*?Acc@5: *+[0-9.]++ \\( *+" + kUNumP + "\\)",
                          "Acc@1: ", "timm: top-5 accuracy on the validation set (average at its last batch)"),
                     2, 0),
                ValueForm::Percent),
           test),
        ex(step(rule("timm.val_loss", "val_loss", "", A::Last,
                     "\\bTest: \\[ *+([0-9]++)/\\1\\][^\\r\\n]*?Loss: *+[0-9.]++ \\( *+" + kNumP + "\\)",
                     "Acc@1: ", "timm: loss on the validation set (average at its last batch)"),
                2, 0),
           test),
    };
}

QList<MetricPattern> torchvision()
{
    const char *train = "Epoch: [3]  [ 400/5005]  eta: 0:29:56  lr: 0.1  img/s: 245.81  loss: 3.4521 (3.5012)  acc1: "
                        "31.2500 (28.1234)  acc5: 56.2500 (52.3456)  time: 0.3812  data: 0.0012  max mem: 10521";
    return {
        ex(step(rule("torchvision.img_s", "throughput_per_gpu", "samples/s", A::Mean,
                     "\\bEpoch: \\[([0-9]++)\\][^\\r\\n]*?\\bimg/s: " + kUNumP, "img/s: ",
                     "torchvision references: images per second of one GPU (its batch / step time), mean of the "
                     "logged steps"),
                2, 1),
           train),
        ex(step(rule("torchvision.loss", "train_loss", "", A::Last,
                     "\\bEpoch: \\[([0-9]++)\\][^\\r\\n]*?\\bloss: " + kNumP, "Epoch: [",
                     "torchvision references: training loss (median of the last 20 steps of rank 0)"),
                2, 1),
           train),
        ex(step(rule("torchvision.max_mem", "gpu_mem_max_alloc_mib", "MiB", A::Max,
                     "\\bEpoch: \\[([0-9]++)\\][^\\r\\n]*?max mem: ([0-9]++)",
                     "max mem: ", "torchvision references: peak memory PyTorch allocated on rank 0's GPU"),
                2, 1),
           train),
        ex(form(excluding(rule("torchvision.acc1", "val_accuracy", "", A::Last, "\\bTest: +Acc@1 " + kUNumP + " Acc@5 ",
                               "Acc@1 ", "torchvision references: top-1 accuracy on the validation set"),
                          {QStringLiteral("EMA")}),
                ValueForm::Percent),
           "Test:  Acc@1 76.130 Acc@5 92.862"),
        ex(form(excluding(rule("torchvision.acc5", "val_top5_accuracy", "", A::Last,
                               "\\bTest: +Acc@1 [0-9.]++ Acc@5 " + kUNumP, "Acc@1 ",
                               "torchvision references: top-5 accuracy on the validation set"),
                          {QStringLiteral("EMA")}),
                ValueForm::Percent),
           "Test:  Acc@1 76.130 Acc@5 92.862"),
        ex(form(rule("torchvision.training_time", "train_time_s", "s", A::Last,
                     "\\bTraining time ([0-9]++:[0-9]{2}:[0-9]{2})$", "Training time ",
                     "torchvision references: wall time of the training loop"),
                ValueForm::Duration),
           "Training time 1:23:45"),
    };
}

MetricPattern clu(const char *id, const char *key, const char *name, const char *unit, A agg, const char *meaning)
{
    const QString k = QString::fromLatin1(key);
    MetricPattern p = step(
        rule(id, name, unit, agg, "\\.py:[0-9]++\\] \\[([0-9]++)\\][^\\r\\n]*?[ ,]" + k + "=" + kNumP, "] [", meaning),
        2, 1);
    p.literal = k + u'=';
    return p;
}

QList<MetricPattern> jax()
{
    const char *writer = "I0304 10:11:12.123456 140231 logging_writer.py:48] [5000] eval_accuracy=0.761230, "
                         "eval_loss=1.03125, steps_per_sec=11.5234, train_loss=1.45312";
    const char *mnist = "I0304 10:11:12.123456 140231 train.py:148] epoch:  3, train_loss: 0.0312, train_accuracy: "
                        "99.02, test_loss: 0.0301, test_accuracy: 99.05";
    const QString flax = "epoch: *+([0-9]++), train_loss: " + kNumP + ", train_accuracy: " + kNumP
                         + ", test_loss: " + kNumP + ", test_accuracy: " + kNumP;
    return {
        ex(clu("jax.clu.steps_per_sec", "steps_per_sec", "steps_per_s", "steps/s", A::Mean,
               "JAX/Flax (CLU LoggingWriter): steps per second of the whole job, mean of the reports"),
           writer),
        ex(clu("jax.clu.steps_per_second", "steps_per_second", "steps_per_s", "steps/s", A::Mean,
               "JAX/Flax (CLU LoggingWriter): steps per second of the whole job, mean of the reports"),
           "I0304 10:11:12.123456 140231 logging_writer.py:48] [100] steps_per_second=11.5234, train_loss=6.1"),
        ex(clu("jax.clu.eval_accuracy", "eval_accuracy", "eval_accuracy", "", A::Last,
               "JAX/Flax (CLU LoggingWriter): evaluation accuracy"),
           writer),
        ex(clu("jax.clu.eval_loss", "eval_loss", "eval_loss", "", A::Last,
               "JAX/Flax (CLU LoggingWriter): evaluation loss"),
           writer),
        ex(clu("jax.clu.train_loss", "train_loss", "train_loss", "", A::Last,
               "JAX/Flax (CLU LoggingWriter): training loss of the last report"),
           writer),
        ex(form(step(rule("flax.mnist.test_accuracy", "test_accuracy", "", A::Last, flax,
                          "test_accuracy: ", "Flax MNIST example: test accuracy, printed in percent"),
                     5, 1),
                ValueForm::Percent),
           mnist),
        ex(form(step(rule("flax.mnist.train_accuracy", "train_accuracy", "", A::Last, flax,
                          "test_accuracy: ", "Flax MNIST example: training accuracy of the epoch, printed in percent"),
                     3, 1),
                ValueForm::Percent),
           mnist),
    };
}

// Throughput whose scope no known format fixes: read, then reported as ambiguous.
QList<MetricPattern> unscoped()
{
    const QStringList scoped{QStringLiteral("per GPU"), QStringLiteral("per gpu"),   QStringLiteral("/GPU"),
                             QStringLiteral("/gpu"),    QStringLiteral("tokens/s/"), QStringLiteral("otal")};
    return {
        ex(ambiguous(before(rule("generic.tokens_per_s", "tokens_per_s", "tokens/s", A::Mean,
                                 "(?<![0-9.])" + kNumP + " ?tokens/s", "tokens/s",
                                 "tokens per second without saying per GPU or for the whole job"),
                            "tokens/s", scoped)),
           "step 120 | 45312.5 tokens/s"),
        ex(ambiguous(step(rule("dllogger.throughput", "throughput", "samples/s", A::Mean,
                               "^DLL [^\\r\\n]*? ([a-z_]*?throughput[a-z_]*+) : " + kNumP, "DLL ",
                               "DLLogger (NVIDIA DeepLearningExamples): a throughput key that does not say per GPU "
                               "or for the job"),
                          2, 0)),
           "DLL 2021-03-01 12:00:00.123456 - (0, 100) loss : 2.3456  throughput_train : 4567.8 seq/s"),
    };
}

}   // namespace

QList<MetricPattern> trainingStackReaders()
{
    QList<MetricPattern> all;
    all << megatron() << nemo() << fairseq() << mlperf() << nanoGptAndLlmC() << deepSpeedChat() << timm()
        << torchvision() << jax() << unscoped();
    return all;
}

}   // namespace scalelab::readers
