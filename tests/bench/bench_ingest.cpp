// SPDX-License-Identifier: GPL-3.0-or-later
// Ingest benchmark (prints ratios; not a pass/fail test).
//  1. A 200 MB synthetic training log: LogMetricExtractor with one user
//     pattern against `grep -c` of the same pattern on the same file.
//     Target: grep_time / our_time >= 0.5 (at most 2x slower than grep).
//     Also all builtin patterns on the same file, for information.
//  2. GPU sampler CSV: 1.4M nvidia-smi rows (8 GPUs, 175000 samples).
//  3. Hostile job output: growth per doubling.
//  4. Real logs (../shared/job-logs and the framework fixtures of
//     tests/data/ingest/frameworks) repeated to ~100 MB: every built-in
//     reader together against `grep -c -F` of one fixed text on the same file.
//     Prints `ratio=` (grep_time / our_time, goal >= 0.5) last.
// Usage: bench_ingest [megabytes] [work dir]
#include "core/ingest/GpuSampleParser.h"
#include "core/ingest/LogMetricExtractor.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>

using namespace scalelab;

namespace {

// Best of `n` runs, in seconds: the first run also warms the page cache.
double bestOf(int n, const std::function<void()> &f)
{
    double best = 1e30;
    for (int i = 0; i < n; ++i) {
        QElapsedTimer t;
        t.start();
        f();
        best = std::min(best, t.nsecsElapsed() / 1e9);
    }
    return best;
}

bool writeLog(const QString &path, qint64 bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    // Lines as TF/NCCL/PyTorch jobs print them; one metric line in ~500.
    const char *noise[] = {
        "[1,0]<stdout>:nv-ai-03:62491:62509 [0] NCCL INFO Channel 11 : 0[39000] -> 1[57000] via P2P/IPC\n",
        "2021-02-03 10:15:23.012238: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] Successfully "
        "opened dynamic library libcudart.so.11.0\n",
        "Train Epoch: 3 [12800/60000 (21%)]\tLoss: 0.123456\n",
        "step 1234 lr 0.001 grad_norm 1.234 mem 12034MiB\n",
        "[default1]:rank 1/8 on gpu042 node=gpu042 CUDA_VISIBLE_DEVICES=0,1,2,3\n",
    };
    std::mt19937 rng(42);
    QByteArray buf;
    buf.reserve(1 << 22);
    qint64 written = 0;
    int epoch = 0;
    char line[160];
    while (written < bytes) {
        buf.clear();
        while (buf.size() < (1 << 22) - 256) {
            const unsigned r = rng() % 500;
            if (r == 0) {
                ++epoch;
                const int n =
                    std::snprintf(line, sizeof line, "[default0]:epoch %d loss %.4f time %.3f samples/s %.1f\n", epoch,
                                  2.0 / epoch, 0.1 + (rng() % 100) / 1000.0, 9000.0 + rng() % 3000);
                buf.append(line, n);
            } else {
                buf.append(noise[r % 5]);
            }
        }
        f.write(buf);
        written += buf.size();
    }
    f.write("[default0]:test_accuracy 0.9778\n[default0]:train_time_s 3.301\n[default0]:samples_per_s 8712.4\n");
    return true;
}

// Real logs back to back until `bytes`: every file whole, in name order.
bool writeRealLogs(const QString &path, qint64 bytes, int *files)
{
    QByteArray one;
    const QStringList dirs{QStringLiteral(SCALELAB_SHARED_DIR "/job-logs"),
                           QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/frameworks")};
    *files = 0;
    for (const QString &dir : dirs)
        for (const QString &name : QDir(dir).entryList(QDir::Files, QDir::Name)) {
            if (name == QLatin1String("MANIFEST.md") || name == QLatin1String("README.md"))
                continue;
            QFile f(dir + u'/' + name);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            one += f.readAll();
            if (!one.endsWith('\n'))
                one += '\n';
            ++*files;
        }
    QFile out(path);
    if (one.isEmpty() || !out.open(QIODevice::WriteOnly))
        return false;
    for (qint64 written = 0; written < bytes; written += one.size())
        out.write(one);
    return true;
}

// Section 4; returns grep_time / our_time.
double realLogs(const QTemporaryDir &tmp, qint64 mb, const LogMetricExtractor &builtins)
{
    const QString log = tmp.filePath(QStringLiteral("real-logs.out"));
    int files = 0;
    if (!writeRealLogs(log, mb * 1000 * 1000, &files)) {
        std::printf("real logs: ../shared/job-logs absent, section skipped\n");
        return 0;
    }
    const double size = QFileInfo(log).size() / 1e6;
    int metrics = 0;
    const double ours = bestOf(3, [&] { metrics = int(builtins.extractFile(log).metrics.size()); });
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    const QString fixed = QStringLiteral("it/s");
    int lines = 0;
    const double grep = bestOf(3, [&] {
        QProcess g;
        g.setProcessEnvironment(env);
        g.start(QStringLiteral("grep"), {QStringLiteral("-c"), QStringLiteral("-F"), fixed, log});
        g.waitForFinished(-1);
        lines = g.readAllStandardOutput().trimmed().toInt();
    });
    std::printf("real logs: %d files repeated to %.0f MB\n", files, size);
    std::printf("  all %d builtin readers:  %.3f s  %.0f MB/s  (%d metrics)\n",
                int(LogMetricExtractor::builtinPatterns().size()), ours, size / ours, metrics);
    std::printf("  grep -c -F '%s':          %.3f s  %.0f MB/s  (%d lines)\n", qPrintable(fixed), grep, size / grep,
                lines);
    QFile::remove(log);
    return grep / ours;
}

bool writeGpuCsv(const QString &path, int rounds, int gpus)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    QByteArray buf =
        "index, timestamp, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB]\n";
    char line[128];
    for (int k = 0; k < rounds; ++k) {
        const int h = (k / 3600) % 24, m = (k / 60) % 60, s = k % 60, day = 1 + k / 86400;
        for (int g = 0; g < gpus; ++g) {
            const bool na = (k * gpus + g) % 997 == 0;
            const int n = na ? std::snprintf(line, sizeof line,
                                             "%d, 2024/05/%02d %02d:%02d:%02d.%03d, [N/A], [N/A], %d MiB, 40960 MiB\n",
                                             g, day, h, m, s, g * 3, 30000 + g)
                             : std::snprintf(line, sizeof line,
                                             "%d, 2024/05/%02d %02d:%02d:%02d.%03d, %d %%, %d %%, %d MiB, 40960 MiB\n",
                                             g, day, h, m, s, g * 3, (k * 7 + g) % 101, (k + g) % 60, 30000 + g);
            buf.append(line, n);
        }
        if (buf.size() > (1 << 22)) {
            f.write(buf);
            buf.clear();
        }
    }
    f.write(buf);
    return true;
}

}   // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 mb = argc > 1 ? QByteArray(argv[1]).toLongLong() : 200;
    QTemporaryDir tmp(argc > 2 ? QString::fromLocal8Bit(argv[2]) + QStringLiteral("/bench-ingest-XXXXXX")
                               : QDir::tempPath() + QStringLiteral("/bench-ingest-XXXXXX"));
    if (!tmp.isValid()) {
        std::fprintf(stderr, "bench_ingest: cannot create a temporary directory\n");
        return 1;
    }
#ifdef NDEBUG
    const char *build = "optimised build";
#else
    const char *build = "DEBUG build: numbers are pessimistic, use a Release build for the ratios";
#endif
    std::printf("bench_ingest (%s)\n", build);

    // 1. Log metrics vs grep.
    const QString log = tmp.filePath(QStringLiteral("slurm-1234.out"));
    if (!writeLog(log, mb * 1000 * 1000)) {
        std::fprintf(stderr, "bench_ingest: cannot write %s\n", qPrintable(log));
        return 1;
    }
    const double size = QFileInfo(log).size() / 1e6;
    const QString regex = QStringLiteral("samples/s ([0-9.]+)");
    MetricPattern p{QStringLiteral("throughput"), regex, QStringLiteral("samples/s"), MetricAggregation::Mean};
    const LogMetricExtractor one({p}, false);
    const LogMetricExtractor builtins;
    int ourCount = 0, grepCount = -1;
    const double ours = bestOf(3, [&] { ourCount = one.extractFile(log).find(QStringLiteral("throughput"))->count; });
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));   // grep's fastest mode
    const double grep = bestOf(3, [&] {
        QProcess g;
        g.setProcessEnvironment(env);
        g.start(QStringLiteral("grep"), {QStringLiteral("-c"), QStringLiteral("-E"), regex, log});
        g.waitForFinished(-1);
        grepCount = g.readAllStandardOutput().trimmed().toInt();
    });
    int metrics = 0;
    const double all = bestOf(3, [&] { metrics = int(builtins.extractFile(log).metrics.size()); });
    std::printf("log: %.0f MB, pattern '%s'\n", size, qPrintable(regex));
    std::printf("  LogMetricExtractor (1 pattern):  %.3f s  %.0f MB/s  matches %d\n", ours, size / ours, ourCount);
    std::printf("  grep -c -E (same pattern):       %.3f s  %.0f MB/s  lines %d\n", grep, size / grep, grepCount);
    std::printf("  ratio grep_time/our_time = %.2f (target >= 0.5) %s\n", grep / ours,
                grep / ours >= 0.5 ? "OK" : "BELOW TARGET");
    std::printf("  all %d builtin patterns:         %.3f s  %.3f s per 100 MB  (%d metrics found)\n",
                int(LogMetricExtractor::builtinPatterns().size()), all, all * 100.0 / size, metrics);
    QFile::remove(log);

    // 2. GPU CSV.
    const QString csv = tmp.filePath(QStringLiteral("scalelab-gpu-1234-gpu042.csv"));
    const int rounds = 175000, gpus = 8;
    if (!writeGpuCsv(csv, rounds, gpus)) {
        std::fprintf(stderr, "bench_ingest: cannot write %s\n", qPrintable(csv));
        return 1;
    }
    qint64 rows = 0;
    const double gpuTime = bestOf(3, [&] { rows = GpuSampleParser::parseFile(csv).rows; });
    const double csvMb = QFileInfo(csv).size() / 1e6;
    std::printf("gpu csv: %lld rows (%.0f MB)\n", rows, csvMb);
    std::printf("  GpuSampleParser: %.3f s  %.2f M rows/s  %.0f MB/s\n", gpuTime, rows / gpuTime / 1e6,
                csvMb / gpuTime);

    // 3. Hostile job output (issue 11 F3): one line of digits before a unit, 64 KB .. 8 MB.
    //    Linear time means the time roughly doubles with the input: growth factor <= 2.2.
    std::printf("hostile logs, all builtin rules (growth factor per doubling, goal <= 2.2):\n");
    for (const char *tail :
         {" samples/s\n", "it/s\n", " images/sec\n", " img/sec per GPU\n", "\n", " Train Epoch: 1 x\n"}) {
        double previous = 0, worst = 0;
        std::printf("  digits + '%s':", QByteArray(tail).trimmed().constData());
        for (qint64 size = 64 * 1024; size <= 8 * 1024 * 1024; size *= 2) {
            const QByteArray text = QByteArray(size, '7') + tail;
            const double t = bestOf(3, [&] { builtins.extract(text); });
            if (previous > 0)
                worst = std::max(worst, t / previous);
            previous = t;
        }
        std::printf(" 8 MB in %.3f s, worst growth %.2f %s\n", previous, worst, worst <= 2.2 ? "OK" : "ABOVE GOAL");
    }
    // 4. Real logs, all readers vs grep: the ratio the ingest goal is measured by (printed last).
    const double ratio = realLogs(tmp, 100, builtins);
    std::printf("all readers on real logs vs grep -c -F (goal >= 0.5): ratio=%.2f\n", ratio);
    return 0;
}
