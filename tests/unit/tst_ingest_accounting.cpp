// SPDX-License-Identifier: GPL-3.0-or-later
// TresString and AccountingMetrics against sacct output of the loopback test
// cluster (tests/data/slurm-samples) and a hand-made GPU-usage record.
#include "core/ingest/AccountingMetrics.h"
#include "core/slurm/TresString.h"

#include <QFile>
#include <QTest>

#include <cmath>

using namespace scalelab;

namespace {

// sacct --parsable2 with a header line -> one record per line.
QList<AccountingMetrics::Record> readParsable2(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
    const QStringList header = lines.value(0).split(u'|');
    QList<AccountingMetrics::Record> out;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(u'|');
        AccountingMetrics::Record r;
        for (qsizetype c = 0; c < header.size(); ++c)
            r.insert(header[c], cells.value(c));
        out.append(r);
    }
    return out;
}

QList<AccountingMetrics::Record> linesOfJob(const QList<AccountingMetrics::Record> &all, const QString &job)
{
    QList<AccountingMetrics::Record> out;
    for (const auto &r : all) {
        const QString id = r.value(QStringLiteral("JobID"));
        if (id == job || id.startsWith(job + u'.'))
            out.append(r);
    }
    return out;
}

QString samples(const char *name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/slurm-samples/") + QLatin1String(name);
}
QString ingest(const char *name)
{
    return QStringLiteral(SCALELAB_TEST_DATA_DIR "/ingest/") + QLatin1String(name);
}

constexpr double MiB = 1024.0 * 1024.0;

}   // namespace

class TstIngestAccounting : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tres_data();
    void tres();
    void tresGpuCountTypedOnly();
    void tresMalformed();
    void duration_data();
    void duration();
    void size_data();
    void size();
    void jobs_data();
    void jobs();
    void ddpJobWithSteps();
    void twoNodeJobNoAllocCpus();
    void gpuUsageFromSteps();
    void pendingJobStaysEmpty();
    void unreadableFieldsWarn();
    void noRecords();
};

void TstIngestAccounting::tres_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("number");
    const QString alloc = QStringLiteral("billing=1,cpu=1,gres/gpu:v100=2,gres/gpu=2,mem=1000M,node=1");
    QTest::newRow("billing") << alloc << "billing" << int(TresValue::Kind::Count) << 1.0;
    QTest::newRow("typed gpu") << alloc << "gres/gpu:v100" << int(TresValue::Kind::Count) << 2.0;
    QTest::newRow("gpu") << alloc << "gres/gpu" << int(TresValue::Kind::Count) << 2.0;
    QTest::newRow("mem M") << alloc << "mem" << int(TresValue::Kind::Bytes) << 1000.0 * MiB;
    QTest::newRow("node") << alloc << "node" << int(TresValue::Kind::Count) << 1.0;
    const QString usage = QStringLiteral(
        "cpu=00:01:02,energy=0,fs/disk=2012,gres/gpumem=12000M,gres/gpuutil=87,mem=62056K,pages=0,vmem=1.5G");
    QTest::newRow("usage cpu time") << usage << "cpu" << int(TresValue::Kind::Seconds) << 62.0;
    QTest::newRow("usage gpuutil") << usage << "gres/gpuutil" << int(TresValue::Kind::Count) << 87.0;
    QTest::newRow("usage gpumem") << usage << "gres/gpumem" << int(TresValue::Kind::Bytes) << 12000.0 * MiB;
    QTest::newRow("usage mem K") << usage << "mem" << int(TresValue::Kind::Bytes) << 62056.0 * 1024;
    QTest::newRow("usage vmem G") << usage << "vmem" << int(TresValue::Kind::Bytes) << 1.5 * 1024 * MiB;
    QTest::newRow("usage disk") << usage << "fs/disk" << int(TresValue::Kind::Count) << 2012.0;
    QTest::newRow("terabytes") << "mem=2T"
                               << "mem" << int(TresValue::Kind::Bytes) << 2.0 * 1024 * 1024 * MiB;
    QTest::newRow("node name") << "cpu=tb-node1,mem=tb-node2"
                               << "cpu" << int(TresValue::Kind::Text) << -1.0;
    QTest::newRow("cpu with days") << "cpu=1-02:00:00"
                                   << "cpu" << int(TresValue::Kind::Seconds) << 93600.0;
}

void TstIngestAccounting::tres()
{
    QFETCH(QString, text);
    QFETCH(QString, key);
    QFETCH(int, kind);
    QFETCH(double, number);
    const TresParseResult r = TresString::parse(text, QStringLiteral("AllocTRES"));
    QVERIFY(r.diagnostics.isEmpty());
    QVERIFY2(r.contains(key), qPrintable(key));
    QCOMPARE(int(r.values[key].kind), kind);
    if (number < 0)
        QVERIFY(!r.number(key));
    else
        QCOMPARE(*r.number(key), number);
}

void TstIngestAccounting::tresGpuCountTypedOnly()
{
    QCOMPARE(*TresString::parse(u"gres/gpu:a100=2,gres/gpu:v100=1").gpuCount(), 3.0);
    QCOMPARE(*TresString::parse(u"billing=2,cpu=2,gres/gpu:v100=2,gres/gpu=2").gpuCount(), 2.0);
    QVERIFY(!TresString::parse(u"billing=1,cpu=1,mem=1000M,node=1").gpuCount());
    QVERIFY(TresString::parse(u"").values.isEmpty());
}

void TstIngestAccounting::tresMalformed()
{
    const TresParseResult r = TresString::parse(u"cpu=2,garbage,node=1", QStringLiteral("ReqTRES"));
    QCOMPARE(r.values.size(), 2);
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].severity, Severity::Warning);
    QVERIFY(r.diagnostics[0].message.contains(QLatin1String("ReqTRES")));
    QVERIFY(r.diagnostics[0].message.contains(QLatin1String("garbage")));
}

void TstIngestAccounting::duration_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("seconds");   // -1 = invalid
    QTest::newRow("elapsed") << "00:01:24" << 84.0;
    QTest::newRow("totalcpu mm:ss.ms") << "00:07.947" << 7.947;
    QTest::newRow("totalcpu h:mm:ss.ms") << "00:30:17.500" << 1817.5;
    QTest::newRow("days") << "2-03:04:05" << 2 * 86400.0 + 3 * 3600 + 4 * 60 + 5;
    QTest::newRow("empty") << "" << -1.0;
    QTest::newRow("word") << "Unknown" << -1.0;
    QTest::newRow("bare number") << "12" << -1.0;
    QTest::newRow("fraction in minutes") << "01.5:02" << -1.0;
}

void TstIngestAccounting::duration()
{
    QFETCH(QString, text);
    QFETCH(double, seconds);
    const auto s = TresString::parseDurationSeconds(text);
    if (seconds < 0) {
        QVERIFY(!s);
    } else {
        QVERIFY(s);
        QVERIFY2(std::abs(*s - seconds) < 1e-9, qPrintable(QString::number(*s)));
    }
}

void TstIngestAccounting::size_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("bytes");
    QTest::newRow("K") << "62056K" << 62056.0 * 1024;
    QTest::newRow("M") << "1000M" << 1000 * MiB;
    QTest::newRow("plain") << "4096" << 4096.0;
    QTest::newRow("bad") << "lots" << -1.0;
    QTest::newRow("negative") << "-5K" << -1.0;
}

void TstIngestAccounting::size()
{
    QFETCH(QString, text);
    QFETCH(double, bytes);
    const auto b = TresString::parseSizeBytes(text);
    if (bytes < 0)
        QVERIFY(!b);
    else
        QCOMPARE(*b, bytes);
}

// Jobs of slurm-samples/sacct-parsable2-all.txt, one row per job (job + steps).
void TstIngestAccounting::jobs_data()
{
    QTest::addColumn<QString>("job");
    QTest::addColumn<QString>("state");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("exitSignal");
    QTest::addColumn<qint64>("elapsed");
    QTest::addColumn<qint64>("wait");   // -1 = missing
    QTest::addColumn<int>("gpus");   // -1 = missing
    QTest::addColumn<int>("nodes");
    QTest::addColumn<qint64>("maxRss");   // -1 = missing
    QTest::addColumn<bool>("finished");
    QTest::addColumn<bool>("success");
    QTest::newRow("timeout") << "1"
                             << "TIMEOUT" << 0 << 0 << qint64(84) << qint64(1) << 1 << 1 << qint64(62056) * 1024 << true
                             << false;
    QTest::newRow("running 2 nodes") << "2"
                                     << "RUNNING" << 0 << 0 << qint64(85) << qint64(1) << 4 << 2 << qint64(-1) << false
                                     << false;
    QTest::newRow("completed") << "3"
                               << "COMPLETED" << 0 << 0 << qint64(6) << qint64(0) << 1 << 1 << qint64(62196) * 1024
                               << true << true;
    QTest::newRow("failed exit 3") << "4"
                                   << "FAILED" << 3 << 0 << qint64(2) << qint64(0) << -1 << 1 << qint64(-1) << true
                                   << false;
    QTest::newRow("cancelled by user") << "5"
                                       << "CANCELLED" << 0 << 0 << qint64(1) << qint64(1) << -1 << 1 << qint64(-1)
                                       << true << false;
    QTest::newRow("pending") << "6"
                             << "PENDING" << 0 << 0 << qint64(0) << qint64(-1) << -1 << -1 << qint64(-1) << false
                             << false;
}

void TstIngestAccounting::jobs()
{
    QFETCH(QString, job);
    QFETCH(QString, state);
    QFETCH(int, exitCode);
    QFETCH(int, exitSignal);
    QFETCH(qint64, elapsed);
    QFETCH(qint64, wait);
    QFETCH(int, gpus);
    QFETCH(int, nodes);
    QFETCH(qint64, maxRss);
    QFETCH(bool, finished);
    QFETCH(bool, success);
    const auto all = readParsable2(samples("sacct-parsable2-all.txt"));
    const AccountingMetricsResult r = AccountingMetrics::fromRecords(linesOfJob(all, job));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    const AccountingMetrics &m = r.metrics;
    QCOMPARE(m.jobId, job);
    QCOMPARE(m.state, state);
    QCOMPARE(*m.exitCode, exitCode);
    QCOMPARE(*m.exitSignal, exitSignal);
    QCOMPARE(*m.elapsedSeconds, elapsed);
    QCOMPARE(m.queueWaitSeconds.value_or(-1), wait);
    QCOMPARE(m.gpus.value_or(-1), gpus);
    QCOMPARE(m.nodes.value_or(-1), nodes);
    QCOMPARE(m.maxRssBytes.value_or(-1), maxRss);
    QCOMPARE(m.isFinished(), finished);
    QCOMPARE(m.isSuccessful(), success);
    // Never invented: no GPU usage on this cluster.
    QVERIFY(!m.gpuUtilPercent);
    QVERIFY(!m.gpuMemMaxBytes);
    if (gpus > 0) {
        QVERIFY(m.gpuHours);
        QCOMPARE(*m.gpuHours, gpus * elapsed / 3600.0);
    } else {
        QVERIFY(!m.gpuHours);
    }
}

void TstIngestAccounting::ddpJobWithSteps()
{
    const auto lines = readParsable2(ingest("sacct-ddp-52.txt"));
    const AccountingMetricsResult r = AccountingMetrics::fromRecords(lines);
    QVERIFY(r.diagnostics.isEmpty());
    const AccountingMetrics &m = r.metrics;
    QCOMPARE(m.jobId, QStringLiteral("52"));
    QCOMPARE(*m.gpus, 2);
    QCOMPARE(*m.billing, 2.0);
    QCOMPARE(*m.allocCpus, 2);   // from AllocTRES: this sacct call had no AllocCPUS column
    QCOMPARE(*m.elapsedSeconds, qint64(7));
    QCOMPARE(*m.maxRssBytes, qint64(843688) * 1024);   // only on the .batch step
    QCOMPARE(*m.totalCpuSeconds, 7.947);
    QVERIFY(std::abs(*m.cpuEfficiency - 7.947 / 14.0) < 1e-9);   // seff: TotalCPU / (Elapsed * CPUs)
    QVERIFY(std::abs(*m.gpuHours - 2 * 7 / 3600.0) < 1e-12);
    QVERIFY(std::abs(*m.billingHours - 2 * 7 / 3600.0) < 1e-12);
    QCOMPARE(m.nodeList, QStringLiteral("tb-node1"));
    QVERIFY(!m.queueWaitSeconds);   // no Submit/Start columns: stays missing
}

void TstIngestAccounting::twoNodeJobNoAllocCpus()
{
    const AccountingMetricsResult r = AccountingMetrics::fromRecords(readParsable2(ingest("sacct-ddp-53.txt")));
    const AccountingMetrics &m = r.metrics;
    QCOMPARE(*m.gpus, 8);
    QCOMPARE(*m.nodes, 2);
    QCOMPARE(*m.allocCpus, 16);
    QCOMPARE(*m.maxRssBytes, qint64(541676) * 1024);   // the larger step
    QVERIFY(std::abs(*m.cpuEfficiency - 9.385 / (8.0 * 16)) < 1e-9);
    QCOMPARE(m.nodeList, QStringLiteral("tb-node[1-2]"));
}

void TstIngestAccounting::gpuUsageFromSteps()
{
    const AccountingMetricsResult r = AccountingMetrics::fromRecords(readParsable2(ingest("sacct-gpu-usage.txt")));
    QVERIFY(r.diagnostics.isEmpty());
    const AccountingMetrics &m = r.metrics;
    QCOMPARE(*m.gpus, 4);
    QCOMPARE(*m.elapsedSeconds, qint64(142));
    QCOMPARE(*m.queueWaitSeconds, qint64(76));
    QCOMPARE(*m.allocCpus, 16);
    QCOMPARE(*m.gpuUtilPercent, 61.0);
    QCOMPARE(*m.gpuUtilMaxPercent, 90.0);
    QCOMPARE(*m.gpuMemMaxBytes, 12300 * MiB);
    QCOMPARE(*m.maxRssBytes, qint64(4194304) * 1024);
    QVERIFY(std::abs(*m.cpuEfficiency - 1817.5 / (142.0 * 16)) < 1e-9);
    QVERIFY(std::abs(*m.gpuHours - 4 * 142 / 3600.0) < 1e-12);
}

void TstIngestAccounting::pendingJobStaysEmpty()
{
    const auto all = readParsable2(samples("sacct-parsable2-running-pending.txt"));
    const AccountingMetricsResult r = AccountingMetrics::fromRecord(linesOfJob(all, QStringLiteral("7")).value(0));
    QVERIFY(r.diagnostics.isEmpty());
    const AccountingMetrics &m = r.metrics;
    QCOMPARE(m.state, QStringLiteral("PENDING"));
    QVERIFY(!m.queueWaitSeconds);
    QVERIFY(!m.gpus);
    QVERIFY(!m.nodes);
    QVERIFY(!m.gpuHours);
    QVERIFY(!m.billing);
    QVERIFY(!m.cpuEfficiency);
    QVERIFY(!m.maxRssBytes);
    QVERIFY(m.nodeList.isEmpty());
    QVERIFY(!m.isFinished());
}

void TstIngestAccounting::unreadableFieldsWarn()
{
    AccountingMetrics::Record rec;
    rec.insert(QStringLiteral("JobID"), QStringLiteral("99"));
    rec.insert(QStringLiteral("State"), QStringLiteral("COMPLETED"));
    rec.insert(QStringLiteral("Elapsed"), QStringLiteral("soon"));
    rec.insert(QStringLiteral("ExitCode"), QStringLiteral("x:y"));
    rec.insert(QStringLiteral("MaxRSS"), QStringLiteral("big"));
    rec.insert(QStringLiteral("Submit"), QStringLiteral("yesterday"));
    rec.insert(QStringLiteral("Start"), QStringLiteral("2026-11-22T10:08:24"));
    const AccountingMetricsResult r = AccountingMetrics::fromRecord(rec);
    QCOMPARE(r.diagnostics.size(), 4);
    QStringList fields;
    for (const Diagnostic &d : r.diagnostics) {
        QCOMPARE(d.severity, Severity::Warning);
        QVERIFY(d.message.contains(QLatin1String("job 99")));
        fields.append(d.field);
    }
    fields.sort();
    QCOMPARE(fields, (QStringList{"Elapsed", "ExitCode", "MaxRSS", "Submit"}));
    QVERIFY(!r.metrics.elapsedSeconds);
    QVERIFY(!r.metrics.exitCode);
    QVERIFY(!r.metrics.queueWaitSeconds);
}

void TstIngestAccounting::noRecords()
{
    const AccountingMetricsResult r = AccountingMetrics::fromRecords({});
    QCOMPARE(r.diagnostics.size(), 1);
    QCOMPARE(r.diagnostics[0].severity, Severity::Error);
}

QTEST_GUILESS_MAIN(TstIngestAccounting)
#include "tst_ingest_accounting.moc"
