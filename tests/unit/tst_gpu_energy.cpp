// SPDX-License-Identifier: GPL-3.0-or-later
// A run's energy: the integral of its GPUs' power samples (trapezoids per
// GPU, summed; gaps and missing readings left out), stored as energy_wh with
// its provenance, and the site's own accounting (sacct ConsumedEnergyRaw)
// preferred where it counts energy.
#include "core/analysis/MetricGlossary.h"
#include "core/analysis/RunMetricsTable.h"
#include "core/ingest/AccountingMetrics.h"
#include "core/ingest/GpuEnergy.h"
#include "core/ingest/GpuSampleParser.h"
#include "core/ingest/IngestService.h"
#include "core/model/MetricNames.h"
#include "core/slurm/SacctParser.h"
#include "core/store/RunStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace scalelab;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

GpuTimeline gpu(int index, const QVector<double> &seconds, const QVector<double> &watts)
{
    GpuTimeline g;
    g.index = index;
    g.key = QString::number(index);
    g.seconds = seconds;
    g.powerW = watts;
    g.utilPercent = QVector<double>(seconds.size(), kNaN);
    g.memUsedMiB = QVector<double>(seconds.size(), kNaN);
    g.tempC = QVector<double>(seconds.size(), kNaN);
    return g;
}

GpuSampleSummary summaryOf(const QList<GpuTimeline> &gpus)
{
    GpuSampleSummary s;
    s.gpus = gpus;
    s.summarise();
    return s;
}

// Two GPUs sampled every 5 s by nvidia-smi -l 5: GPU 0 ramps 60 -> 260 -> 260 -> 60 W,
// GPU 1 idles at 52.5 W. Trapezoids: GPU 0 5*(160+260+160) = 2900 J, GPU 1 3*5*52.5 = 787.5 J.
const QByteArray kTwoGpuCsv = "index, timestamp, utilization.gpu [%], memory.used [MiB], power.draw [W]\n"
                              "0, 2026/11/27 10:00:00.000, 10 %, 300 MiB, 60.00 W\n"
                              "1, 2026/11/27 10:00:00.000, 0 %, 0 MiB, 52.50 W\n"
                              "0, 2026/11/27 10:00:05.000, 99 %, 30994 MiB, 260.00 W\n"
                              "1, 2026/11/27 10:00:05.000, 0 %, 0 MiB, 52.50 W\n"
                              "0, 2026/11/27 10:00:10.000, 99 %, 30994 MiB, 260.00 W\n"
                              "1, 2026/11/27 10:00:10.000, 0 %, 0 MiB, 52.50 W\n"
                              "0, 2026/11/27 10:00:15.000, 10 %, 300 MiB, 60.00 W\n"
                              "1, 2026/11/27 10:00:15.000, 0 %, 0 MiB, 52.50 W\n";
constexpr double kTwoGpuJoules = 2900.0 + 787.5;

}   // namespace

class TstGpuEnergy : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    qint64 m_run = 0;

    // A finished 2-GPU run whose sacct line has `energyRaw` as ConsumedEnergyRaw
    // and whose sampler CSV (fetched) is `csv`.
    void makeRun(const QString &energyRaw, const QByteArray &csv)
    {
        m_store = std::make_unique<RunStore>(m_dir.filePath(QStringLiteral("data-%1").arg(QTest::currentDataTag())
                                                            + QString::fromLatin1(QTest::currentTestFunction())));
        QCOMPARE(m_store->open().errorText(), QString());
        RunRecord r;
        r.profile = r.clusterAlias = QStringLiteral("testbed");
        r.gpus = 2;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        const auto created = m_store->createRun(r);
        QVERIFY(created.ok());
        m_run = created.value().id;
        QCOMPARE(m_store->markSubmitted(m_run, QStringLiteral("88")).errorText(), QString());
        const SacctParseResult acct = SacctParser::parseWithHeader(
            QStringLiteral(
                "JobID|JobName|State|ExitCode|Submit|Start|End|Elapsed|AllocTRES|NodeList|ConsumedEnergyRaw\n"
                "88|ddp|COMPLETED|0:0|2026-11-27T09:59:58|2026-11-27T10:00:00|2026-11-27T10:00:16|00:00:16|"
                "billing=2,cpu=2,gres/gpu=2,node=1|tb-node1|%1\n"
                "88.batch|batch|COMPLETED|0:0|2026-11-27T10:00:00|2026-11-27T10:00:00|2026-11-27T10:00:16|"
                "00:00:16||tb-node1|%1\n")
                .arg(energyRaw)
                .toUtf8());
        QCOMPARE(acct.records.size(), 1);
        QCOMPARE(m_store->recordFinal(m_run, acct.records.first()).errorText(), QString());
        const QString local = m_store->runFilesDirectory(m_run) + QStringLiteral("/scalelab-gpu-88-tb-node1.csv");
        QVERIFY(QDir().mkpath(QFileInfo(local).path()));
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(csv), csv.size());
        f.close();
        QCOMPARE(m_store
                     ->recordFile({m_run, QStringLiteral("/home/researcher/scalelab-gpu-88-tb-node1.csv"), local,
                                   qint64(csv.size()), qint64(csv.size()), QDateTime::currentDateTimeUtc()})
                     .errorText(),
                 QString());
    }

    // The job output, fetched beside the samples.
    void addLog(const QByteArray &text)
    {
        const QString local = m_store->runFilesDirectory(m_run) + QStringLiteral("/scalelab-88.out");
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text), text.size());
        f.close();
        QCOMPARE(m_store
                     ->recordFile({m_run, QStringLiteral("/home/researcher/scalelab-88.out"), local,
                                   qint64(text.size()), qint64(text.size()), QDateTime::currentDateTimeUtc()})
                     .errorText(),
                 QString());
    }

    std::optional<MetricRecord> stored(const QString &name)
    {
        for (const MetricRecord &m : m_store->metrics(m_run).value())
            if (m.name == name)
                return m;
        return std::nullopt;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void cleanup() { m_store.reset(); }

    void exactOnAConstructedSeries()
    {
        // GPU 0: 100, 200, 200, 100 W at 0, 1, 2, 3 s -> 150 + 200 + 150 J; GPU 1: 50 W for 3 s -> 150 J.
        const GpuEnergyResult e = GpuEnergy::integrate(
            summaryOf({gpu(0, {0, 1, 2, 3}, {100, 200, 200, 100}), gpu(1, {0, 1, 2, 3}, {50, 50, 50, 50})}));
        QVERIFY(e.joules);
        QCOMPARE(*e.joules, 650.0);
        QCOMPARE(e.gpusWithPower, 2);
        QCOMPARE(e.intervals, qint64(6));
        QCOMPARE(e.gaps, qint64(0));
        QCOMPARE(e.coveredSeconds, 6.0);
    }

    void unevenSpacingIsExact()
    {
        // 0.5 s then 2 s (within 3 periods of the 1.25 s median): 0.5*(10+30)/2 + 2*(30+50)/2 = 10 + 80.
        const GpuEnergyResult e = GpuEnergy::integrate(summaryOf({gpu(0, {0, 0.5, 2.5}, {10, 30, 50})}));
        QVERIFY(e.joules);
        QCOMPARE(*e.joules, 90.0);
    }

    void gapIsNotIntegratedAcross()
    {
        // Samples every second, then nothing for 17 s (the sampler stalled), then again.
        const GpuEnergyResult e =
            GpuEnergy::integrate(summaryOf({gpu(0, {0, 1, 2, 3, 20, 21, 22}, {100, 100, 100, 100, 100, 100, 100})}));
        QVERIFY(e.joules);
        QCOMPARE(*e.joules, 500.0);   // 0-3 s and 20-22 s; not the 1700 J the gap would add
        QCOMPARE(e.gaps, qint64(1));
        QCOMPARE(e.intervals, qint64(5));
        // Three periods is still a sample, not a gap.
        const GpuEnergyResult near = GpuEnergy::integrate(summaryOf({gpu(0, {0, 1, 2, 5}, {10, 10, 10, 10})}));
        QCOMPARE(*near.joules, 50.0);
        QCOMPARE(near.gaps, qint64(0));
    }

    void missingPowerIsLeftOut()
    {
        // [N/A] in the middle: only the 2-3 s pair has both ends. The second GCD of an
        // MI250X reports no power at all (its package's is on the first): no interval.
        const GpuEnergyResult e = GpuEnergy::integrate(
            summaryOf({gpu(0, {0, 1, 2, 3}, {100, kNaN, 100, 100}), gpu(1, {0, 1, 2, 3}, {kNaN, kNaN, kNaN, kNaN})}));
        QVERIFY(e.joules);
        QCOMPARE(*e.joules, 100.0);
        QCOMPARE(e.gpusWithPower, 1);
        const GpuEnergyResult none = GpuEnergy::integrate(summaryOf({gpu(0, {0, 1}, {kNaN, kNaN}), gpu(1, {0}, {90})}));
        QVERIFY(!none.joules);
        QCOMPARE(none.gpusWithPower, 0);
    }

    void parsedSamplesIntegrate()
    {
        const GpuSampleSummary s = GpuSampleParser::parse(kTwoGpuCsv);
        QCOMPARE(s.gpus.size(), 2);
        const GpuEnergyResult e = GpuEnergy::integrate(s);
        QVERIFY(e.joules);
        QCOMPARE(*e.joules, kTwoGpuJoules);
    }

    void accountingReadsConsumedEnergy_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<double>("joules");   // NaN = not accounted
        QTest::newRow("accounted") << QStringLiteral("36000") << 36000.0;
        QTest::newRow("no plugin prints 0") << QStringLiteral("0") << kNaN;
        QTest::newRow("empty") << QString() << kNaN;
        QTest::newRow("NO_VAL64") << QStringLiteral("18446744073709551614") << kNaN;
    }
    void accountingReadsConsumedEnergy()
    {
        QFETCH(QString, raw);
        QFETCH(double, joules);
        AccountingMetrics::Record r;
        r[QStringLiteral("JobID")] = QStringLiteral("88");
        r[QStringLiteral("ConsumedEnergyRaw")] = raw;
        const AccountingMetricsResult m = AccountingMetrics::fromRecord(r);
        QCOMPARE(m.diagnostics.size(), 0);
        QCOMPARE(m.metrics.consumedEnergyJoules.has_value(), !std::isnan(joules));
        if (!std::isnan(joules))
            QCOMPARE(*m.metrics.consumedEnergyJoules, joules);
        AccountingMetrics::Record bad = r;
        bad[QStringLiteral("ConsumedEnergyRaw")] = QStringLiteral("12kJ");
        const AccountingMetricsResult b = AccountingMetrics::fromRecord(bad);
        QCOMPARE(b.diagnostics.size(), 1);
        QVERIFY(b.diagnostics.first().message.contains(QLatin1String("ConsumedEnergyRaw")));
    }

    void sacctAsksForConsumedEnergy()
    {
        QVERIFY(SacctParser::defaultFields().contains(QStringLiteral("ConsumedEnergyRaw")));
    }

    void ingestStoresTheSamplesIntegral()
    {
        makeRun(QStringLiteral("0"), kTwoGpuCsv);   // a site without energy accounting
        const IngestResult in = IngestService::ingestRun(*m_store, m_run);
        QCOMPARE(in.error, QString());
        const auto e = stored(metric::EnergyWh);
        QVERIFY2(e, qPrintable(in.written.join(u',')));
        QCOMPARE(e->value, kTwoGpuJoules / 3600.0);
        QCOMPARE(e->unit, QStringLiteral("Wh"));
        QCOMPARE(e->source, metric::SourceGpu);
        QVERIFY2(e->formula.contains(QLatin1String("trapezoidal")), qPrintable(e->formula));
        QVERIFY2(e->formula.contains(QLatin1String("of 2 GPU(s)")), qPrintable(e->formula));
        QVERIFY2(e->file.endsWith(QLatin1String("scalelab-gpu-88-tb-node1.csv")), qPrintable(e->file));

        // Results: a metric is a column, with its unit.
        const RunMetricsTable t = RunMetricsTable::load(*m_store);
        QCOMPARE(t.error, QString());
        QVERIFY(t.metricNames.contains(metric::EnergyWh));
        QCOMPARE(t.units.value(metric::EnergyWh), QStringLiteral("Wh"));
        QCOMPARE(t.rows.size(), 1);
        QCOMPARE(*t.rows.first().value(metric::EnergyWh), kTwoGpuJoules / 3600.0);
    }

    void ingestPrefersAccountedEnergy()
    {
        makeRun(QStringLiteral("36000"), kTwoGpuCsv);   // the site's energy plugin measured 36 kJ
        QCOMPARE(IngestService::ingestRun(*m_store, m_run).error, QString());
        const auto e = stored(metric::EnergyWh);
        QVERIFY(e);
        QCOMPARE(e->value, 10.0);
        QCOMPARE(e->source, metric::SourceSacct);
        QVERIFY2(e->formula.contains(QLatin1String("preferred")), qPrintable(e->formula));
        QVERIFY2(e->formula.contains(QStringLiteral("%1 Wh").arg(kTwoGpuJoules / 3600.0, 0, 'f', 3)),
                 qPrintable(e->formula));
    }

    void energyPerSampleWhenThroughputIsKnown()
    {
        // 400 samples/s for 9 s of training: 3600 samples for the samples' integral.
        makeRun(QStringLiteral("0"), kTwoGpuCsv);
        addLog("train_time_s 9\nsamples_per_s 400\n");
        const IngestResult in = IngestService::ingestRun(*m_store, m_run);
        QCOMPARE(in.error, QString());
        const auto e = stored(metric::EnergyJPerSample);
        QVERIFY2(e, qPrintable(in.written.join(u',')));
        QVERIFY(std::abs(e->value - kTwoGpuJoules / 3600.0) < 1e-12);
        QCOMPARE(e->unit, QStringLiteral("J/sample"));
        QCOMPARE(e->source, metric::SourceGpu);
        QVERIFY2(e->formula.contains(QStringLiteral("samples_per_s 400 × train_time_s 9 s")), qPrintable(e->formula));
        QVERIFY(metricDescription(metric::EnergyJPerSample).contains(QLatin1String("lower is better")));
    }

    void energyPerSampleOverElapsedWithoutTrainingTime()
    {
        // Without a training time, sacct's elapsed (16 s) and its accounted energy.
        makeRun(QStringLiteral("36000"), kTwoGpuCsv);
        addLog("samples_per_s 400\n");
        QCOMPARE(IngestService::ingestRun(*m_store, m_run).error, QString());
        QVERIFY(std::abs(stored(metric::EnergyJPerSample)->value - 36000.0 / (400.0 * 16.0)) < 1e-12);
        QCOMPARE(stored(metric::EnergyJPerSample)->source, metric::SourceSacct);
    }

    void noPowerNoEnergy()
    {
        makeRun(QStringLiteral("0"), "index, timestamp, utilization.gpu [%]\n"
                                     "0, 2026/11/27 10:00:00.000, 10 %\n"
                                     "0, 2026/11/27 10:00:05.000, 10 %\n");
        QCOMPARE(IngestService::ingestRun(*m_store, m_run).error, QString());
        QVERIFY(stored(metric::GpuSamples));
        QVERIFY(!stored(metric::EnergyWh));   // never a guess
        QVERIFY(!stored(metric::EnergyJPerSample));
    }
};

QTEST_GUILESS_MAIN(TstGpuEnergy)
#include "tst_gpu_energy.moc"
