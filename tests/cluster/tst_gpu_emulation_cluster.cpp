// SPDX-License-Identifier: GPL-3.0-or-later
// The test cluster's emulated GPUs end to end: jobs submitted through
// ScaleLab with GPU sampling on run the sampler against the nodes' emulated
// nvidia-smi (tests/cluster/gpusmi, on the jobs' PATH through the TaskProlog);
// the fetched samples show which GPUs the program really kept busy, and the
// stored energy is the integral of the sampled power.
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/compose/SbatchRenderer.h"
#include "core/ingest/GpuSampleParser.h"
#include "core/ingest/IngestService.h"
#include "core/model/MetricNames.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace scalelab;

namespace {

// Energy of the sampler's CSVs worked out here, apart from core/: trapezoids
// over each GPU's rows (host file + index), summed. nvidia-smi rows carry
// their timestamp; rocm-smi's are timed by the sampler's "# time" line before
// each call, and its power column is empty (N/A) on a package's second GCD.
double csvJoules(const QStringList &files)
{
    double joules = 0;
    for (const QString &path : files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        QStringList header;
        qsizetype idx = -1, ts = -1, pw = -1;
        double marked = 0;
        QHash<QString, QPair<double, double>> last;   // index -> (time, watts)
        for (const QString &line : QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts)) {
            QStringList v = line.split(u',');
            for (QString &x : v)
                x = x.trimmed();
            if (line.startsWith(QLatin1String("# time "))) {
                marked = line.mid(7).toDouble();
            } else if (line.startsWith(QLatin1String("index,")) || line.startsWith(QLatin1String("device,"))) {
                header = v;
                idx = 0;
                ts = header.indexOf(QStringLiteral("timestamp"));
                pw = std::max(header.indexOf(QStringLiteral("power.draw [W]")),
                              header.indexOf(QStringLiteral("Average Graphics Package Power (W)")));
            } else if (idx >= 0 && pw >= 0 && v.size() == header.size() && v[pw] != QLatin1String("N/A")) {
                const double s = ts >= 0
                                     ? double(QDateTime::fromString(v[ts], QStringLiteral("yyyy/MM/dd HH:mm:ss.zzz"))
                                                  .toMSecsSinceEpoch())
                                           / 1000.0
                                     : marked;
                const double w = v[pw].section(u' ', 0, 0).toDouble();
                if (last.contains(v[idx]))
                    joules += (last[v[idx]].second + w) / 2.0 * (s - last[v[idx]].first);
                last[v[idx]] = {s, w};
            }
        }
        if (pw < 0)
            return -1;
    }
    return joules;
}

// `testcluster up` with the emulated GPU tool of `gpu` ("nvidia", "rocm"); "" when it worked.
QString testclusterUp(const QString &gpu)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SCALELAB_TESTCLUSTER_GPU"), gpu);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(test::TestClusterEnv::scriptPath(), {QStringLiteral("up")});
    if (!p.waitForFinished(400000) || p.exitCode() != 0)
        return QStringLiteral("testcluster up failed: %1").arg(QString::fromLocal8Bit(p.readAll()));
    return {};
}

}   // namespace

class TestGpuEmulationCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;
    QString m_programs;
    bool m_rocm = false;   // the cluster runs with rocm-smi: plain `up` restores nvidia-smi

    // A 4-GPU job of `framework` whose every process spins on the CPU for 15 s,
    // sampled every second; run, fetched and ingested. Returns its run id.
    qint64 runJob(const QString &name, Framework framework,
                  const ClusterProfile &profile = test::repoProfile("testbed"))
    {
        JobSpec s = test::testbedSpec(name, 4, m_programs + QStringLiteral("/spin.py"), {QStringLiteral("15")});
        s.launcher = Launcher::Srun;
        s.framework = framework;
        s.gpuSampleSeconds = 1;
        RunRecord r;
        r.profile = s.profile;
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = s.partition;
        r.gpus = s.gpus;
        r.framework = frameworkId(s.framework);
        r.script = renderSbatch(s, profile);
        const auto created = m_cluster.store->createRun(r);
        if (!created.ok())
            return -1;
        const qint64 id = created.value().id;
        const SubmitOutcome o = m_cluster.client->submit(id);
        if (o.kind != SubmitOutcome::Kind::Submitted) {
            qWarning("submit: %s", qPrintable(o.message));
            return -1;
        }
        if (!m_cluster.pollUntil([&] { return m_cluster.store->run(id).value().isTerminal(); }, 300))
            return -1;
        const FetchResult f = m_cluster.client->fetch(id);
        if (!f.ok())
            qWarning("fetch: %s", qPrintable(f.errors.join(u' ')));
        return id;
    }

    QStringList sampleFiles(qint64 id) { return IngestService::gpuSampleFiles(m_cluster.store->files(id).value()); }

    // The run's GPU samples (as Results reads them) and its stored energy against the samples' integral.
    GpuSampleSummary checkSamplesAndEnergy(qint64 id)
    {
        const QStringList files = sampleFiles(id);
        const GpuSampleSummary g = GpuSampleParser::parseFiles(files);
        const IngestResult in = IngestService::ingestRun(*m_cluster.store, id);
        [&] {
            QCOMPARE(in.error, QString());
            QCOMPARE(files.size(), 1);
            QVERIFY2(g.noSamplesReason.isEmpty(), qPrintable(g.noSamplesReason));
            std::optional<MetricRecord> energy;
            for (const MetricRecord &m : m_cluster.store->metrics(id).value())
                if (m.name == metric::EnergyWh)
                    energy = m;
            QVERIFY2(energy, qPrintable(in.written.join(u',')));
            // The test cluster accounts no energy (no AcctGatherEnergyType): sacct says 0, the samples count.
            QCOMPARE(energy->source, metric::SourceGpu);
            const double expected = csvJoules(files) / 3600.0;
            QVERIFY2(expected > 0, qPrintable(files.join(u' ')));
            QVERIFY2(std::abs(energy->value - expected) <= 0.01 * expected,
                     qPrintable(QStringLiteral("stored %1 Wh, samples %2 Wh").arg(energy->value).arg(expected)));
            qInfo("energy %.4f Wh (samples %.4f Wh), %s", energy->value, expected, qPrintable(energy->formula));
            for (const GpuTimeline &t : g.gpus)
                qInfo("GPU %s: %lld samples, util mean %.1f %% peak %.0f %%, memory peak %.0f MiB", qPrintable(t.key),
                      qint64(t.seconds.size()), t.meanUtilPercent.value_or(-1), t.peakUtilPercent.value_or(-1),
                      t.peakMemUsedMiB.value_or(-1));
        }();
        return g;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
        // Jobs run as the cluster's researcher account on this machine: the program must be world-readable.
        m_programs = QStringLiteral("/tmp/scalelab-gpu-emulation-%1").arg(QCoreApplication::applicationPid());
        QVERIFY(QDir().mkpath(m_programs));
        QFile::setPermissions(m_programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup
                                              | QFileDevice::ExeGroup);
        QFile spin(m_programs + QStringLiteral("/spin.py"));
        QVERIFY(spin.open(QIODevice::WriteOnly));
        spin.write("import os, sys, time\n"
                   "print('spinning on', os.environ.get('SLURMD_NODENAME'), 'task', os.environ.get('SLURM_LOCALID'),\n"
                   "      'gpus', os.environ.get('CUDA_VISIBLE_DEVICES'), flush=True)\n"
                   "end = time.time() + float(sys.argv[1])\n"
                   "while time.time() < end:\n"
                   "    pass\n");
        spin.close();
        QFile::setPermissions(spin.fileName(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther
                                                   | QFileDevice::ReadGroup);
    }

    void cleanupTestCase()
    {
        QDir(m_programs).removeRecursively();
        if (m_rocm)
            QCOMPARE(testclusterUp(QStringLiteral("nvidia")), QString());
    }

    void oneProcessForFourGpusLeavesThreeIdle()
    {
        const qint64 id = runJob(QStringLiteral("gpu-one-process"), Framework::DataParallel);
        QVERIFY(id > 0);
        QCOMPARE(m_cluster.store->run(id).value().state, JobState::Completed);
        const GpuSampleSummary g = checkSamplesAndEnergy(id);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(g.gpus.size(), 4);
        QVERIFY2(g.gpus[0].seconds.size() >= 5, qPrintable(QString::number(g.gpus[0].seconds.size())));
        // A busy GPU's figure is its process's CPU share, which the machine's load sets (four spinners on
        // the 2-core machine got ~20 % each); an idle one is exactly 0.
        QVERIFY2(*g.gpus[0].peakUtilPercent >= 5, qPrintable(QString::number(*g.gpus[0].peakUtilPercent)));
        QVERIFY2(*g.gpus[0].meanUtilPercent >= 2, qPrintable(QString::number(*g.gpus[0].meanUtilPercent)));
        for (int i = 1; i < 4; ++i) {
            QCOMPARE(g.gpus[i].index, i);
            QCOMPARE(*g.gpus[i].peakUtilPercent, 0.0);   // nothing ever ran there
            QCOMPARE(*g.gpus[i].peakMemUsedMiB, 0.0);
            QCOMPARE(*g.gpus[i].peakPowerW, 52.0);   // idle board power, the whole run
        }
    }

    void oneProcessPerGpuKeepsAllBusy()
    {
        const qint64 id = runJob(QStringLiteral("gpu-per-process"), Framework::PytorchDdp);
        QVERIFY(id > 0);
        QCOMPARE(m_cluster.store->run(id).value().state, JobState::Completed);
        const GpuSampleSummary g = checkSamplesAndEnergy(id);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(g.gpus.size(), 4);
        for (const GpuTimeline &t : g.gpus) {
            QVERIFY2(*t.peakUtilPercent >= 5,
                     qPrintable(t.key + QLatin1Char(' ') + QString::number(*t.peakUtilPercent)));
            QVERIFY2(*t.meanUtilPercent >= 2,
                     qPrintable(t.key + QLatin1Char(' ') + QString::number(*t.meanUtilPercent)));
            QCOMPARE(*t.peakMemUsedMiB, 30994.0);
        }
    }

    // A ROCm node: the partition's GPUs as the profile of an AMD site gives them (monitor rocm-smi),
    // the cluster's nodes with the emulated rocm-smi (MI250X GCDs).
    void rocmNodeSamplesWithRocmSmi()
    {
        m_rocm = true;
        QCOMPARE(testclusterUp(QStringLiteral("rocm")), QString());
        ClusterProfile profile = test::repoProfile("testbed");
        for (GpuType &t : profile.gpuTypes) {
            t.vendor = GpuVendor::Amd;
            t.monitor = GpuMonitor::RocmSmi;
        }
        const qint64 id = runJob(QStringLiteral("gpu-rocm-one-process"), Framework::DataParallel, profile);
        QVERIFY(id > 0);
        QCOMPARE(m_cluster.store->run(id).value().state, JobState::Completed);
        const GpuSampleSummary g = checkSamplesAndEnergy(id);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(g.tool, GpuSampleSummary::Tool::RocmSmi);
        QCOMPARE(g.gpus.size(), 4);
        QVERIFY2(*g.gpus[0].peakUtilPercent >= 5, qPrintable(QString::number(*g.gpus[0].peakUtilPercent)));
        for (int i = 1; i < 4; ++i)
            QCOMPARE(*g.gpus[i].peakUtilPercent, 0.0);
        QVERIFY(!g.gpus[1].peakPowerW);   // the package's power is on its first GCD
        QCOMPARE(*g.gpus[2].peakPowerW, 95.0);   // an idle MI250X package
    }
};

QTEST_GUILESS_MAIN(TestGpuEmulationCluster)
#include "tst_gpu_emulation_cluster.moc"
