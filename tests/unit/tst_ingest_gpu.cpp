// SPDX-License-Identifier: GPL-3.0-or-later
// GpuSampleParser on sampler files in the documented nvidia-smi / rocm-smi
// CSV formats (tests/data/ingest, see its README).
#include "core/ingest/GpuSampleParser.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>

using namespace scalelab;

namespace {

QString ingest(const QString &name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/") + name;
}

bool near(double a, double b, double eps = 1e-6)
{
    return std::abs(a - b) < eps;
}

bool hasRule(const Diagnostics &d, const char *rule)
{
    for (const Diagnostic &x : d)
        if (x.rule == QLatin1String(rule))
            return true;
    return false;
}

}   // namespace

class TstIngestGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void files_data();
    void files();
    void perGpuNvidia();
    void seedColumnOrder();
    void twoHostsMerged();
    void rocmTimesFromInterval();
    void noGpuToolMarker();
    void truncatedAndJunkLines();
    void hostFromFileName_data();
    void hostFromFileName();
    void inlineRows_data();
    void inlineRows();
    void unreadableFile();
    void calendarDates();
    void manyRowsQuickly();
    void headerlessRefused();
    void strayHelpLinesNeverShiftColumns();
    void rocmConciseTablePerTask();
    void rocmPlainOutput();
    void foreignToolRefused_data();
    void foreignToolRefused();
    void labelledTasksKeptApart();
    void temperatureAndPowerAnyOrder();
    void dmonRead();
    void rocmConciseTemperatureAndPower();
};

// Whole-run numbers per file.
void TstIngestGpu::files_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("tool");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<qint64>("rows");
    QTest::addColumn<double>("meanUtil");
    QTest::addColumn<double>("peakUtil");
    QTest::addColumn<double>("peakMem");
    QTest::addColumn<QString>("firstKey");
    const int nv = int(GpuSampleSummary::Tool::NvidiaSmi), rocm = int(GpuSampleSummary::Tool::RocmSmi);
    QTest::newRow("composer query, 4 GPUs, [N/A]")
        << "scalelab-gpu-95659-nv-ai-03.csv" << nv << 4 << qint64(24) << 1370.0 / 23 << 90.0 << 12300.0 << "nv-ai-03:0";
    QTest::newRow("seed 002 order, memory.free")
        << "util-95660.csv" << nv << 1 << qint64(5) << 32.0 << 45.0 << 9000.0 << "0";
    QTest::newRow("rocm-smi loop") << "scalelab-gpu-77-nid005001.csv" << rocm << 2 << qint64(6) << 469.0 / 5 << 97.0
                                   << 8237576192.0 / 1048576 << "nid005001:0";
    QTest::newRow("node 2 [Not Supported]")
        << "scalelab-gpu-53-tb-node2.csv" << nv << 2 << qint64(8) << 30.0 << 30.0 << 2000.0 << "tb-node2:0";
}

void TstIngestGpu::files()
{
    QFETCH(QString, file);
    QFETCH(int, tool);
    QFETCH(int, gpus);
    QFETCH(qint64, rows);
    QFETCH(double, meanUtil);
    QFETCH(double, peakUtil);
    QFETCH(double, peakMem);
    QFETCH(QString, firstKey);
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(file), 10);
    QCOMPARE(int(s.tool), tool);
    QVERIFY(!s.noSamples);
    QCOMPARE(s.gpus.size(), gpus);
    QCOMPARE(s.rows, rows);
    QVERIFY2(near(*s.meanUtilPercent, meanUtil), qPrintable(QString::number(*s.meanUtilPercent)));
    QCOMPARE(*s.peakUtilPercent, peakUtil);
    QVERIFY2(near(*s.peakMemUsedMiB, peakMem), qPrintable(QString::number(*s.peakMemUsedMiB)));
    QCOMPARE(s.gpus.front().key, firstKey);
    QVERIFY(!hasRule(s.diagnostics, "gpu-csv-short-row"));
}

void TstIngestGpu::perGpuNvidia()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("scalelab-gpu-95659-nv-ai-03.csv")));
    QVERIFY(s.diagnostics.isEmpty());
    const GpuTimeline *g0 = s.find(QStringLiteral("nv-ai-03:0"));
    QVERIFY(g0);
    QCOMPARE(g0->host, QStringLiteral("nv-ai-03"));
    QCOMPARE(g0->index, 0);
    QCOMPARE(g0->seconds.size(), 6);
    QCOMPARE(g0->seconds.front(), 0.0);
    QVERIFY(near(g0->seconds[1], 5.0));
    QVERIFY(std::isnan(g0->utilPercent.back()));   // [N/A] stays missing
    QCOMPARE(g0->memUsedMiB.back(), 12000.0);   // memory was still reported
    QCOMPARE(*g0->meanUtilPercent, 70.0);   // (0+80+90+90+90)/5, the [N/A] left out
    QCOMPARE(*g0->peakUtilPercent, 90.0);
    QCOMPARE(*g0->meanMemUsedMiB, (300.0 + 5 * 12000) / 6);
    QCOMPARE(*g0->memTotalMiB, 32510.0);
    const GpuTimeline *g3 = s.find(QStringLiteral("nv-ai-03:3"));
    QVERIFY(g3);
    QVERIFY(near(g3->seconds.front(), 0.009));   // each GPU is read a few ms apart
    QVERIFY(near(*g3->meanUtilPercent, 290.0 / 6));
    QVERIFY(near(s.durationSeconds, 25.009));
    QVERIFY(s.originEpochSeconds);
    QVERIFY(near(*s.originEpochSeconds, 1612347323.012, 1e-3));   // 2021-02-03 10:15:23.012 as printed
}

void TstIngestGpu::seedColumnOrder()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("util-95660.csv")));
    QCOMPARE(s.gpus.size(), 1);
    const GpuTimeline &g = s.gpus.front();
    QCOMPARE(g.key, QStringLiteral("0"));   // not a sampler file name: no host
    QCOMPARE(g.memUsedMiB.front(), 300.0);   // memory.used, not memory.total before it
    QCOMPARE(*g.memTotalMiB, 32510.0);
    QCOMPARE(*s.meanMemUsedMiB, (300.0 + 4 * 9000) / 5);
}

void TstIngestGpu::twoHostsMerged()
{
    const GpuSampleSummary s = GpuSampleParser::parseFiles({ingest(QStringLiteral("scalelab-gpu-53-tb-node2.csv")),
                                                            ingest(QStringLiteral("scalelab-gpu-53-tb-node1.csv"))});
    QCOMPARE(s.gpus.size(), 4);
    QStringList keys;
    for (const GpuTimeline &g : s.gpus)
        keys.append(g.key);
    QCOMPARE(keys, (QStringList{"tb-node1:0", "tb-node1:1", "tb-node2:0", "tb-node2:1"}));
    QCOMPARE(s.rows, qint64(16));
    QCOMPARE(*s.meanUtilPercent, 40.0);
    QCOMPARE(*s.peakUtilPercent, 50.0);
    // One clock: node 2 started sampling one second after node 1.
    QVERIFY(near(s.find(QStringLiteral("tb-node1:0"))->seconds.front(), 0.0));
    QVERIFY(near(s.find(QStringLiteral("tb-node2:0"))->seconds.front(), 1.0));
    QVERIFY(near(s.durationSeconds, 7.002));
    const GpuTimeline *n2g1 = s.find(QStringLiteral("tb-node2:1"));
    QVERIFY(std::isnan(n2g1->memUsedMiB[2]));   // [Not Supported]
    QCOMPARE(*n2g1->meanMemUsedMiB, 2000.0);
}

void TstIngestGpu::rocmTimesFromInterval()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("scalelab-gpu-77-nid005001.csv")), 5);
    QCOMPARE(s.gpus.size(), 2);
    const GpuTimeline &c0 = s.gpus[0];
    QCOMPARE(c0.seconds, (QVector<double>{0, 5, 10}));
    QCOMPARE(*c0.meanUtilPercent, 95.0);
    QCOMPARE(c0.memUsedMiB.front(), 8237576192.0 / 1048576);   // bytes -> MiB
    QCOMPARE(*c0.memTotalMiB, 65520.0);   // 68702699520 B
    const GpuTimeline &c1 = s.gpus[1];
    QVERIFY(std::isnan(c1.utilPercent[1]));
    QCOMPARE(*c1.meanUtilPercent, 92.0);
    QVERIFY(!s.originEpochSeconds);
    QVERIFY(!hasRule(s.diagnostics, "gpu-csv-no-timestamps"));
    // Without the interval the times are sample numbers, and the result says so.
    const GpuSampleSummary u = GpuSampleParser::parseFile(ingest(QStringLiteral("scalelab-gpu-77-nid005001.csv")));
    QCOMPARE(u.gpus[0].seconds, (QVector<double>{0, 1, 2}));
    QVERIFY(hasRule(u.diagnostics, "gpu-csv-no-timestamps"));
}

void TstIngestGpu::noGpuToolMarker()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("scalelab-gpu-52-tb-node1.csv")));
    QVERIFY(s.noSamples);
    QCOMPARE(s.noSamplesReason, QStringLiteral("no nvidia-smi on tb-node1; no GPU samples"));
    QVERIFY(s.gpus.isEmpty());
    QVERIFY(!s.meanUtilPercent);
    QVERIFY(!s.peakMemUsedMiB);
    QCOMPARE(s.rows, qint64(0));
    QVERIFY(s.diagnostics.isEmpty());
    // One host without the tool, one with: samples win, the reason is kept.
    const GpuSampleSummary m = GpuSampleParser::parseFiles({ingest(QStringLiteral("scalelab-gpu-52-tb-node1.csv")),
                                                            ingest(QStringLiteral("scalelab-gpu-53-tb-node2.csv"))});
    QVERIFY(!m.noSamples);
    QCOMPARE(m.gpus.size(), 2);
    QVERIFY(m.noSamplesReason.contains(QLatin1String("no nvidia-smi on tb-node1")));
}

void TstIngestGpu::truncatedAndJunkLines()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("scalelab-gpu-61-gpu02.csv")));
    QCOMPARE(s.rows, qint64(2));
    QCOMPARE(s.skippedLines, qint64(2));
    QCOMPARE(*s.meanUtilPercent, 30.0);
    QVERIFY(hasRule(s.diagnostics, "gpu-csv-truncated"));
    QVERIFY(hasRule(s.diagnostics, "gpu-csv-skipped-lines"));
    for (const Diagnostic &d : s.diagnostics) {
        QVERIFY(d.severity != Severity::Error);
        QVERIFY2(d.message.contains(QLatin1String("scalelab-gpu-61-gpu02.csv")), qPrintable(d.message));
        QVERIFY(d.line > 0);
    }
}

void TstIngestGpu::hostFromFileName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("host");
    QTest::newRow("plain") << "scalelab-gpu-95659-nv-ai-03.csv"
                           << "nv-ai-03";
    QTest::newRow("path") << "/scratch/p/scalelab-gpu-53-tb-node1.csv"
                          << "tb-node1";
    QTest::newRow("array job") << "scalelab-gpu-123_4-g1101.csv"
                               << "g1101";
    QTest::newRow("other name") << "util-95660.csv"
                                << "";
    QTest::newRow("no job id") << "scalelab-gpu-node1.csv"
                               << "";
    QTest::newRow("not csv") << "scalelab-gpu-1-node1.txt"
                             << "";
}

void TstIngestGpu::hostFromFileName()
{
    QFETCH(QString, name);
    QFETCH(QString, host);
    QCOMPARE(GpuSampleParser::hostFromFileName(name), host);
}

// Single rows, as the tools print them.
void TstIngestGpu::inlineRows_data()
{
    QTest::addColumn<QByteArray>("csv");
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("util");   // NaN = missing
    QTest::addColumn<double>("mem");
    const QByteArray hdr =
        "index, timestamp, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB]\n";
    const double nan = std::nan("");
    QTest::newRow("units") << hdr + "0, 2021/02/03 10:15:23.012, 87 %, 45 %, 12000 MiB, 32510 MiB\n"
                           << 1 << 87.0 << 12000.0;
    QTest::newRow("CRLF") << QByteArray(hdr).replace("\n", "\r\n")
                                 + "0, 2021/02/03 10:15:23.012, 87 %, 45 %, 12000 MiB, 32510 MiB\r\n"
                          << 1 << 87.0 << 12000.0;
    QTest::newRow("N/A") << hdr + "0, 2021/02/03 10:15:23.012, [N/A], [N/A], [N/A], 32510 MiB\n" << 1 << nan << nan;
    QTest::newRow("bare N/A") << hdr + "0, 2021/02/03 10:15:23.012, N/A, N/A, 100 MiB, 32510 MiB\n"
                              << 1 << nan << 100.0;
    QTest::newRow("Not Supported") << hdr + "0, 2021/02/03 10:15:23.012, [Not Supported], 1 %, 5 MiB, 32510 MiB\n"
                                   << 1 << nan << 5.0;
    QTest::newRow("decimal") << hdr + "0, 2021/02/03 10:15:23.012, 87.5 %, 45 %, 1.5 MiB, 32510 MiB\n"
                             << 1 << 87.5 << 1.5;
    QTest::newRow("no devices") << hdr + "No devices were found\n" << 0 << nan << nan;
    QTest::newRow("empty") << QByteArray() << 0 << nan << nan;
    QTest::newRow("only header") << hdr << 0 << nan << nan;
    QTest::newRow("repeated header") << hdr + "0, 2021/02/03 10:15:23.012, 10 %, 1 %, 5 MiB, 9 MiB\n" + hdr
                                            + "0, 2021/02/03 10:15:24.012, 30 %, 1 %, 5 MiB, 9 MiB\n"
                                     << 2 << 20.0 << 5.0;
    QTest::newRow("uuid, no index") << QByteArray("timestamp, uuid, utilization.gpu [%], memory.used [MiB]\n"
                                                  "2021/02/03 10:15:23.012, GPU-aaa, 10 %, 5 MiB\n"
                                                  "2021/02/03 10:15:23.013, GPU-bbb, 30 %, 5 MiB\n")
                                    << 2 << 20.0 << 5.0;
}

void TstIngestGpu::calendarDates()
{
    // A leap day into March: the calendar, not a 31-day month, decides.
    const QByteArray hdr = "index, timestamp, utilization.gpu [%], memory.used [MiB]\n";
    const GpuSampleSummary s = GpuSampleParser::parse(hdr
                                                      + "0, 2024/02/29 23:59:59.000, 10 %, 5 MiB\n"
                                                        "0, 2024/03/01 00:00:01.500, 30 %, 5 MiB\n");
    QVERIFY(s.originEpochSeconds);
    QCOMPARE(*s.originEpochSeconds, 1709251199.0);   // 2024-02-29T23:59:59Z
    QCOMPARE(s.gpus.size(), 1);
    QCOMPARE(s.gpus[0].seconds, (QVector<double>{0, 2.5}));
}

void TstIngestGpu::inlineRows()
{
    QFETCH(QByteArray, csv);
    QFETCH(int, rows);
    QFETCH(double, util);
    QFETCH(double, mem);
    const GpuSampleSummary s = GpuSampleParser::parse(csv);
    QCOMPARE(s.rows, qint64(rows));
    QCOMPARE(s.noSamples, rows == 0);
    if (std::isnan(util))
        QVERIFY(!s.meanUtilPercent);
    else
        QCOMPARE(*s.meanUtilPercent, util);
    if (std::isnan(mem))
        QVERIFY(!s.meanMemUsedMiB);
    else
        QCOMPARE(*s.meanMemUsedMiB, mem);
}

void TstIngestGpu::unreadableFile()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(QStringLiteral("/nonexistent/scalelab-gpu-1-x.csv"));
    QVERIFY(s.noSamples);
    QCOMPARE(s.diagnostics.size(), 1);
    QCOMPARE(s.diagnostics[0].severity, Severity::Error);
    QVERIFY(s.diagnostics[0].message.contains(QLatin1String("/nonexistent/scalelab-gpu-1-x.csv")));
}

// 8 GPUs sampled every second for two days: 1.4M rows.
void TstIngestGpu::manyRowsQuickly()
{
    QByteArray csv =
        "index, timestamp, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB]\n";
    const int rounds = 175000;
    csv.reserve(qsizetype(rounds) * 8 * 64);
    char line[128];
    for (int k = 0; k < rounds; ++k) {
        const int h = (k / 3600) % 24, m = (k / 60) % 60, sec = k % 60, day = 1 + k / 86400;
        for (int g = 0; g < 8; ++g) {
            const int n = std::snprintf(line, sizeof line,
                                        "%d, 2024/05/%02d %02d:%02d:%02d.%03d, %d %%, %d %%, %d MiB, 40960 MiB\n", g,
                                        day, h, m, sec, g, (k + g) % 101, 10, 1000 + g);
            csv.append(line, n);
        }
    }
    QElapsedTimer t;
    t.start();
    const GpuSampleSummary s = GpuSampleParser::parse(csv, {QStringLiteral("n1"), {}, 0});
    const qint64 ms = t.elapsed();
    qInfo("parsed %lld rows (%.0f MB) in %lld ms", s.rows, csv.size() / 1e6, ms);
    QCOMPARE(s.rows, qint64(rounds) * 8);
    QCOMPARE(s.gpus.size(), 8);
    QVERIFY(near(s.durationSeconds, rounds - 1 + 0.007, 1e-3));
    // No time limit here (Debug builds on a busy machine); bench_ingest reports the rate.
}

void TstIngestGpu::headerlessRefused()
{
    // `--format=csv,noheader`: the column order is not guessed.
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("scalelab-gpu-60-gpu01.csv")));
    QCOMPARE(s.rows, qint64(0));
    QVERIFY(s.noSamples);
    QVERIFY(s.gpus.isEmpty());
    QVERIFY(hasRule(s.diagnostics, "gpu-csv-no-header"));
    for (const Diagnostic &d : s.diagnostics)
        if (d.rule == QLatin1String("gpu-csv-no-header")) {
            QCOMPARE(d.severity, Severity::Error);
            QCOMPARE(d.line, 1);
            QVERIFY2(d.message.contains(QLatin1String("6 data row(s)")), qPrintable(d.message));
            QVERIFY2(d.message.contains(QLatin1String("scalelab-gpu-60-gpu01.csv")), qPrintable(d.message));
        }
}

void TstIngestGpu::strayHelpLinesNeverShiftColumns()
{
    const QByteArray csv = "index, timestamp, utilization.gpu [%], memory.total [MiB], memory.used [MiB]\n"
                           "0, 2020/11/12 14:02:14.854, 98 %, 32480 MiB, 30994 MiB\n"
                           "memory.used\n"
                           "Total memory allocated by active contexts, see memory.used.\n"
                           "utilization.gpu, memory.used [MiB] are the fields\n"
                           "0, 2020/11/12 14:02:19.858, 50 %, 32480 MiB, 30994 MiB\n"
                           "0, 2020/11/12 14:02:24.858, 50 %, 30994 MiB\n";
    const GpuSampleSummary s = GpuSampleParser::parse(csv);
    QCOMPARE(s.rows, qint64(2));
    QCOMPARE(s.gpus[0].memUsedMiB, (QVector<double>{30994, 30994}));
    QCOMPARE(s.gpus[0].seconds.size(), 2);
    QVERIFY(std::abs(s.gpus[0].seconds[1] - 5.004) < 1e-6);
    QVERIFY(hasRule(s.diagnostics, "gpu-csv-short-row"));
}

void TstIngestGpu::rocmConciseTablePerTask()
{
    // `srun --label rocm-smi` in a loop under per-task GPU cgroups, with the sampler's time marks.
    QByteArray text;
    for (int round = 0; round < 2; ++round) {
        text += "# time " + QByteArray::number(1700000000 + 10 * round) + ".25\n";
        for (int task = 0; task < 2; ++task) {
            const QByteArray l = QByteArray::number(task) + ": ";
            text += l + "========================= ROCm System Management Interface =========================\n" + l
                    + "=================================== Concise Info ===================================\n" + l
                    + "Device  Node  IDs              Temp    Power   Partitions          SCLK    MCLK     Fan  Perf   "
                      " PwrCap  VRAM%  GPU%\n"
                    + l + "              (DID,     GUID)  (Edge)  (Avg)   (Mem, Compute, ID)\n" + l
                    + "====================================================================================\n" + l
                    + "0       " + QByteArray::number(8 + 3 * task)
                    + "     0x7408,   13395  46.0\xc2\xb0"
                      "C  102.0W  N/A, N/A, 0         800Mhz  1600Mhz  0%   manual  500.0W  "
                    + QByteArray::number(10 * task) + "%     " + QByteArray::number(40 + 10 * task + round) + "%\n" + l
                    + "================================ End of ROCm SMI Log ===============================\n";
        }
    }
    GpuSampleParseOptions o;
    o.host = QStringLiteral("nid005001");
    const GpuSampleSummary s = GpuSampleParser::parse(text, o);
    QCOMPARE(s.tool, GpuSampleSummary::Tool::RocmSmi);
    QCOMPARE(s.rows, qint64(4));
    QCOMPARE(s.gpus.size(), 2);
    QCOMPARE(s.gpus[0].key, QStringLiteral("nid005001:task0:0"));
    QCOMPARE(s.gpus[1].key, QStringLiteral("nid005001:task1:0"));
    QCOMPARE(s.gpus[0].utilPercent, (QVector<double>{40, 41}));
    QCOMPARE(s.gpus[1].utilPercent, (QVector<double>{50, 51}));
    QCOMPARE(s.gpus[1].seconds, (QVector<double>{0, 10}));
    QCOMPARE(*s.originEpochSeconds, 1700000000.25);
    QCOMPARE(s.skippedLines, qint64(0));
}

void TstIngestGpu::rocmPlainOutput()
{
    // rocm-smi --showuse --showmemuse --showmeminfo vram without --csv.
    const QByteArray text = "======================= ROCm System Management Interface =======================\n"
                            "============================== % time GPU is busy ==============================\n"
                            "GPU[0]\t\t: GPU use (%): 93\n"
                            "GPU[1]\t\t: GPU use (%): 91\n"
                            "================================================================================\n"
                            "============================== Current Memory Use ==============================\n"
                            "GPU[0]\t\t: GPU Memory Allocated (VRAM%): 12\n"
                            "GPU[1]\t\t: GPU Memory Allocated (VRAM%): 13\n"
                            "============================ Memory Usage (Bytes) ============================\n"
                            "GPU[0]\t\t: VRAM Total Memory (B): 68702699520\n"
                            "GPU[0]\t\t: VRAM Total Used Memory (B): 8237576192\n"
                            "GPU[1]\t\t: VRAM Total Memory (B): 68702699520\n"
                            "GPU[1]\t\t: VRAM Total Used Memory (B): 1048576\n"
                            "============================= End of ROCm SMI Log ==============================\n";
    const GpuSampleSummary s = GpuSampleParser::parse(text);
    QCOMPARE(s.tool, GpuSampleSummary::Tool::RocmSmi);
    QCOMPARE(s.rows, qint64(2));
    QCOMPARE(*s.meanUtilPercent, 92.0);
    QCOMPARE(s.gpus[0].memUsedMiB, QVector<double>{8237576192.0 / 1048576});
    QCOMPARE(s.gpus[1].memUsedMiB, QVector<double>{1.0});
    QCOMPARE(*s.gpus[1].memTotalMiB, 65520.0);
}

void TstIngestGpu::foreignToolRefused_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("tool");
    QTest::newRow("nvidia-smi table") << QByteArray(
        "Tue Nov 12 14:02:14 2024\n"
        "+-----------------------------------------------------------------------------+\n"
        "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
        "|   0  Tesla V100-SXM2...  On   | 00000000:06:00.0 Off |                    0 |\n")
                                      << "nvidia-smi's default table";
}

void TstIngestGpu::foreignToolRefused()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, tool);
    GpuSampleParseOptions o;
    o.fileName = QStringLiteral("scalelab-gpu-9-n1.csv");
    const GpuSampleSummary s = GpuSampleParser::parse(text, o);
    QCOMPARE(s.rows, qint64(0));
    QCOMPARE(s.tool, GpuSampleSummary::Tool::Unknown);
    QVERIFY(hasRule(s.diagnostics, "gpu-samples-foreign-tool"));
    for (const Diagnostic &d : s.diagnostics)
        if (d.rule == QLatin1String("gpu-samples-foreign-tool")) {
            QCOMPARE(d.severity, Severity::Error);
            QVERIFY2(d.message.contains(tool), qPrintable(d.message));
            QVERIFY2(d.message.contains(QLatin1String("scalelab-gpu-9-n1.csv")), qPrintable(d.message));
        }
    QVERIFY(s.noSamplesReason.contains(tool));
}

void TstIngestGpu::labelledTasksKeptApart()
{
    const QByteArray csv = "0: index, timestamp, utilization.gpu [%], memory.used [MiB]\n"
                           "1: index, timestamp, utilization.gpu [%], memory.used [MiB]\n"
                           "0: 0, 2024/05/01 12:00:00.000, 10 %, 100 MiB\n"
                           "1: 0, 2024/05/01 12:00:00.000, 30 %, 300 MiB\n"
                           "1: 0, 2024/05/01 12:00:02.000, 50 %, 300 MiB\n";
    GpuSampleParseOptions o;
    o.host = QStringLiteral("gpu01");
    const GpuSampleSummary s = GpuSampleParser::parse(csv, o);
    QCOMPARE(s.gpus.size(), 2);
    QCOMPARE(s.gpus[0].key, QStringLiteral("gpu01:task0:0"));
    QCOMPARE(s.gpus[1].utilPercent, (QVector<double>{30, 50}));
    QCOMPARE(s.gpus[1].task, 1);
    QCOMPARE(*s.meanUtilPercent, 30.0);
}

void TstIngestGpu::temperatureAndPowerAnyOrder()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("nvidia-smi-temp-power.csv")));
    QCOMPARE(s.rows, qint64(4));
    QCOMPARE(s.gpus.size(), 2);
    const GpuTimeline &g0 = s.gpus[0];
    QCOMPARE(g0.tempC, (QVector<double>{60, 64}));
    QVERIFY(std::isnan(g0.powerW[1]));   // [N/A] stays missing
    QCOMPARE(*g0.meanPowerW, 250.5);
    QCOMPARE(*g0.peakTempC, 64.0);
    QCOMPARE(*s.gpus[1].meanTempC, 60.0);
    QCOMPARE(*s.gpus[1].peakPowerW, 260.1);
    QCOMPARE(*g0.meanUtilPercent, 95.0);
}

void TstIngestGpu::dmonRead()
{
    const GpuSampleSummary s = GpuSampleParser::parseFile(ingest(QStringLiteral("nvidia-smi-dmon.txt")));
    QCOMPARE(s.tool, GpuSampleSummary::Tool::NvidiaSmi);
    QCOMPARE(s.rows, qint64(4));
    QCOMPARE(s.gpus.size(), 2);
    QCOMPARE(s.gpus[0].utilPercent, (QVector<double>{95, 97}));   // sm
    QCOMPARE(s.gpus[1].powerW, (QVector<double>{280, 290}));
    QCOMPARE(s.gpus[1].tempC, (QVector<double>{61, 63}));
    QCOMPARE(s.gpus[0].seconds, (QVector<double>{0, 1}));   // one row per GPU per sample
    QVERIFY(std::isnan(s.gpus[0].memUsedMiB[0]));   // no fb column
    for (const Diagnostic &d : s.diagnostics)
        QVERIFY2(d.severity != Severity::Error, qPrintable(d.message));
}

void TstIngestGpu::rocmConciseTemperatureAndPower()
{
    const QByteArray text = "Device  Node  IDs              Temp    Power   Partitions          SCLK    MCLK     Fan  "
                            "Perf    PwrCap  VRAM%  GPU%\n"
                            "0       8     0x7408,   13395  46.0\xc2\xb0"
                            "C  102.0W  N/A, N/A, 0         800Mhz  "
                            "1600Mhz  0%   manual  500.0W  0%     7%\n"
                            "1       9     0x7408,   13395  47.0\xc2\xb0"
                            "C  N/A     N/A, N/A, 0         800Mhz  "
                            "1600Mhz  0%   manual  500.0W  0%     9%\n";
    const GpuSampleSummary s = GpuSampleParser::parse(text);
    QCOMPARE(s.rows, qint64(2));
    QCOMPARE(*s.gpus[0].meanTempC, 46.0);
    QCOMPARE(*s.gpus[0].meanPowerW, 102.0);
    QCOMPARE(*s.gpus[1].meanTempC, 47.0);
    QVERIFY(!s.gpus[1].meanPowerW);   // the second GCD: the package reports the power
    QCOMPARE(s.gpus[1].utilPercent, QVector<double>{9});
}

QTEST_GUILESS_MAIN(TstIngestGpu)
#include "tst_ingest_gpu.moc"
