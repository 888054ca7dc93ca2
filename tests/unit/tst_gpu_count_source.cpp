// SPDX-License-Identifier: GPL-3.0-or-later
// GPU counts that do not depend on the site's accounting configuration:
// where AccountingStorageTRES lacks gres/gpu, AllocTRES shows no GPUs, and the
// count comes from the request forms (scontrol TresPerNode/TresPerJob) or the
// run's own spec, with the source named. Never 0 GPU-hours for a GPU job.
// The `scontrol show job -o` lines are shaped like those of the two test
// clusters (22.05 on the host, 24.11 in the chroot), written for this test.
#include "core/ingest/IngestService.h"
#include "core/model/MetricNames.h"
#include "core/slurm/SacctParser.h"
#include "core/slurm/ScontrolJobParser.h"
#include "core/slurm/TresString.h"
#include "core/store/RunStore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;

namespace {

std::optional<MetricRecord> storedMetric(RunStore &store, qint64 runId, const QString &name)
{
    const auto all = store.metrics(runId);
    for (const auto &m : all.value())
        if (m.name == name)
            return m;
    return std::nullopt;
}

// One finished 2-node job as ScaleLab's sacct call prints it; `alloc` is its AllocTRES.
SacctRecord finishedJob(const QString &alloc)
{
    const QString line = QStringLiteral("41|~|COMPLETED|~|0:0|~|2026-11-23T10:00:00|~|2026-11-23T10:00:05|~|2026-11-"
                                        "23T10:30:05|~|00:30:00|~|%1|~||~|"
                                        "tb-node[1-2]|~|None|~|00:59:00|~|2|~|gpu|~|project_2001234|~||~||~|00:10:00|~|"
                                        "|~|/home/researcher|~|sl-0123456789abcdef|~|ddp")
                             .arg(alloc);
    const auto parsed = SacctParser().parse(line.toUtf8());
    if (parsed.records.size() != 1)
        qFatal("test record did not parse: %s",
               qPrintable(parsed.diagnostics.isEmpty() ? QString() : parsed.diagnostics.first().message));
    return parsed.records.first();
}

}   // namespace

class TestGpuCountSource : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;

    qint64 runWith(int gpus, const SacctRecord &acct)
    {
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = QStringLiteral("gpu");
        r.gpus = gpus;
        r.nodes = 2;
        r.framework = QStringLiteral("pytorch-ddp");
        r.script = QStringLiteral("#!/bin/bash\n");
        const auto c = m_store->createRun(r);
        if (!c.ok())
            qFatal("%s", qPrintable(c.errorText()));
        if (const QString e = m_store->saveAccounting(c.value().id, acct).errorText(); !e.isEmpty())
            qFatal("%s", qPrintable(e));
        return c.value().id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<RunStore>(m_dir.path());
        QCOMPARE(m_store->open().errorText(), QString());
    }

    void allocTresWithGpusIsTheSource()
    {
        const qint64 id =
            runWith(8, finishedJob(QStringLiteral("billing=2,cpu=2,gres/gpu:v100=8,gres/gpu=8,mem=2000M,node=2")));
        const IngestResult r = IngestService::ingestRun(*m_store, id);
        QCOMPARE(r.error, QString());
        QCOMPARE(storedMetric(*m_store, id, metric::Gpus)->value, 8.0);
        QCOMPARE(storedMetric(*m_store, id, metric::Gpus)->source, metric::SourceSacct);
        QCOMPARE(storedMetric(*m_store, id, metric::GpuHours)->value, 4.0);   // 8 GPUs x 30 min
        QCOMPARE(storedMetric(*m_store, id, metric::GpuHours)->source, metric::SourceSacct);
    }

    void allocTresWithoutGpusFallsBackToTheSpec()
    {
        // AccountingStorageTRES without gres/gpu: no GPU in AllocTRES at all.
        const qint64 id = runWith(8, finishedJob(QStringLiteral("billing=2,cpu=2,mem=2000M,node=2")));
        const IngestResult r = IngestService::ingestRun(*m_store, id);
        QCOMPARE(r.error, QString());
        QCOMPARE(storedMetric(*m_store, id, metric::Gpus)->value, 8.0);
        QCOMPARE(storedMetric(*m_store, id, metric::Gpus)->source, metric::SourceSpecGpus);
        QCOMPARE(storedMetric(*m_store, id, metric::GpuHours)->value, 4.0);
        QCOMPARE(storedMetric(*m_store, id, metric::GpuHours)->source, metric::SourceSpecGpus);
    }

    void cpuJobStaysWithoutGpus()
    {
        const qint64 id = runWith(0, finishedJob(QStringLiteral("billing=2,cpu=2,mem=2000M,node=2")));
        QCOMPARE(IngestService::ingestRun(*m_store, id).error, QString());
        QCOMPARE(storedMetric(*m_store, id, metric::GpuHours), std::nullopt);
    }

    void scontrolSourcesInOrder_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<QString>("source");
        // 22.05: one TRES= (the allocation while running) and "gres:gpu:N".
        QTest::newRow("22.05 with gres/gpu accounting") << QByteArray(
            "JobId=12 JobName=ddp UserId=researcher(1001) JobState=RUNNING Reason=None NumNodes=2 NumCPUs=2 "
            "NumTasks=2 TRES=cpu=2,mem=2000M,node=2,billing=2,gres/gpu=8 TresPerNode=gres:gpu:4\n")
                                                        << 8 << "AllocTRES";
        QTest::newRow("22.05 without gres/gpu accounting")
            << QByteArray("JobId=13 JobName=ddp JobState=RUNNING Reason=None NumNodes=2 NumCPUs=2 NumTasks=2 "
                          "TRES=cpu=2,mem=2000M,node=2,billing=2 TresPerNode=gres:gpu:4\n")
            << 8 << "TresPerNode";
        // 24.11: ReqTRES=/AllocTRES= and "gres/gpu:N".
        QTest::newRow("24.11 with gres/gpu accounting") << QByteArray(
            "JobId=2 JobName=ddp JobState=COMPLETED Reason=None NumNodes=2 NumCPUs=2 NumTasks=2 "
            "ReqTRES=cpu=2,mem=2000M,node=2,billing=2,gres/gpu=8 "
            "AllocTRES=cpu=2,mem=2000M,node=2,billing=2,gres/gpu=8,gres/gpu:v100=8 TresPerNode=gres/gpu:4\n")
                                                        << 8 << "AllocTRES";
        QTest::newRow("24.11 without gres/gpu accounting")
            << QByteArray("JobId=3 JobName=x JobState=COMPLETED Reason=None NumNodes=1 NumCPUs=1 NumTasks=1 "
                          "ReqTRES=cpu=1,mem=1000M,node=1,billing=1 AllocTRES=cpu=1,mem=1000M,node=1,billing=1 "
                          "TresPerNode=gres/gpu:2\n")
            << 2 << "TresPerNode";
        QTest::newRow("--gpus per job, typed")
            << QByteArray("JobId=4 JobName=x JobState=PENDING Reason=Resources NumNodes=2 NumCPUs=2 NumTasks=2 "
                          "ReqTRES=cpu=2,mem=2000M,node=2,billing=2 AllocTRES=(null) TresPerJob=gres/gpu:v100:8\n")
            << 8 << "TresPerJob";
        QTest::newRow("per task") << QByteArray(
            "JobId=5 JobName=x JobState=RUNNING Reason=None NumNodes=1 NumCPUs=4 NumTasks=4 "
            "ReqTRES=cpu=4,mem=4000M,node=1 AllocTRES=cpu=4,mem=4000M,node=1 TresPerTask=gres/gpu=1\n")
                                  << 4 << "TresPerTask";
        QTest::newRow("no GPUs") << QByteArray("JobId=6 JobName=x JobState=RUNNING NumNodes=1 AllocTRES=cpu=1,node=1\n")
                                 << 0 << "none";
        // Counts from outside past what an int holds (found by fuzz_scontroljob
        // under UBSan): the count saturates instead of wrapping to a negative.
        QTest::newRow("per node x nodes past INT_MAX")
            << QByteArray("JobId=7 JobName=x JobState=RUNNING NumNodes=4 TresPerNode=gres:gpu:2000000000\n")
            << 2147483647 << "TresPerNode";
        QTest::newRow("AllocTRES 1e300") << QByteArray(
            "JobId=8 JobName=x JobState=RUNNING NumNodes=1 AllocTRES=cpu=1,gres/gpu=1e300\n")
                                         << 2147483647 << "AllocTRES";
    }

    void scontrolSourcesInOrder()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, gpus);
        QFETCH(QString, source);
        const auto r = ScontrolJobParser::parse(text);
        QCOMPARE(r.diagnostics.size(), 0);
        QCOMPARE(r.jobs.size(), 1);
        const GpuCount g = r.jobs.first().gpus();
        QCOMPARE(g.gpus, gpus);
        QCOMPARE(gpuCountSourceId(g.source), source);
    }

    void gresRequestForms_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("gpus");   // -1 = none
        QTest::newRow("22.05 squeue %b") << "gres:gpu:2" << 2;
        QTest::newRow("24.11 squeue %b") << "gres/gpu:2" << 2;
        QTest::newRow("typed") << "gres/gpu:a100:4" << 4;
        QTest::newRow("typed, old") << "gres:gpu:v100:1" << 1;
        QTest::newRow("bare") << "gpu:6" << 6;
        QTest::newRow("type without count") << "gpu:rtx2080,gg:g0" << 1;
        QTest::newRow("per task") << "gres/gpu=2" << 2;
        QTest::newRow("with other gres") << "gres:gpu:1,gres:gpfs" << 1;
        QTest::newRow("none") << "N/A" << -1;
        QTest::newRow("other gres only") << "gres/gpfs:ess:1" << -1;
        QTest::newRow("empty") << "" << -1;
        // Two counts whose sum does not fit an int: saturated, never negative.
        QTest::newRow("sum past INT_MAX") << "gres/gpu:2000000000,gres/gpu:2000000000" << 2147483647;
    }

    void gresRequestForms()
    {
        QFETCH(QString, text);
        QFETCH(int, gpus);
        const auto g = TresString::gpusInGresRequest(text);
        QCOMPARE(g.value_or(-1), gpus);
    }
};

QTEST_GUILESS_MAIN(TestGpuCountSource)
#include "tst_gpu_count_source.moc"
