// SPDX-License-Identifier: GPL-3.0-or-later
// The test cluster's emulated nvidia-smi / rocm-smi (tests/cluster/gpusmi),
// run here on processes this test starts and kills by their PID: a GPU is
// busy exactly while a process bound to it (its CUDA_VISIBLE_DEVICES /
// ROCR_VISIBLE_DEVICES entry at LOCAL_RANK) uses CPU, and what the tool
// prints is read by ScaleLab's own GPU sample parser.
#include "core/ingest/GpuEnergy.h"
#include "core/ingest/GpuSampleParser.h"

#include <QProcess>
#include <QtTest>

#include <memory>
#include <vector>

using namespace scalelab;

namespace {

const QString kEmulator = QStringLiteral(SCALELAB_TESTS_DIR "/cluster/gpusmi");

}   // namespace

class TstGpuEmulator : public QObject {
    Q_OBJECT

    // The emulator counts only processes on its "node": this test's own name for it.
    const QString m_node = QStringLiteral("tst-gpu-emulator-%1").arg(QCoreApplication::applicationPid());
    std::vector<std::unique_ptr<QProcess>> m_procs;

    // A process bound to GPUs: `busy` spins on the CPU, otherwise it sleeps.
    void start(bool busy, const QString &visible, int localRank = -1,
               const QString &variable = QStringLiteral("CUDA_VISIBLE_DEVICES"))
    {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURMD_NODENAME"), m_node);
        env.insert(variable, visible);
        if (localRank >= 0)
            env.insert(QStringLiteral("LOCAL_RANK"), QString::number(localRank));
        p->setProcessEnvironment(env);
        p->start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), busy ? QStringLiteral("while :; do :; done")
                                                                        : QStringLiteral("exec sleep 300")});
        QVERIFY(p->waitForStarted(10000));
        m_procs.push_back(std::move(p));
    }

    QByteArray emulate(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURMD_NODENAME"), m_node);
        env.remove(QStringLiteral("CUDA_VISIBLE_DEVICES"));
        env.remove(QStringLiteral("ROCR_VISIBLE_DEVICES"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("python3"), QStringList{kEmulator} + args);
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) {
            p.kill();
            return {};
        }
        return p.readAllStandardOutput();
    }

    static QList<double> utilByIndex(const GpuSampleSummary &s)
    {
        QList<double> out;
        for (const GpuTimeline &g : s.gpus)
            out << g.utilPercent.value(0, -1);
        return out;
    }

    GpuSampleSummary query()
    {
        const QByteArray out = emulate({QStringLiteral("nvidia-smi"),
                                        QStringLiteral("--query-gpu=index,timestamp,utilization.gpu,utilization.memory,"
                                                       "memory.used,memory.total,power.draw"),
                                        QStringLiteral("--format=csv")});
        return GpuSampleParser::parse(out);
    }

private Q_SLOTS:
    void cleanup()
    {
        for (auto &p : m_procs) {
            p->kill();   // by its PID
            p->waitForFinished(5000);
        }
        m_procs.clear();
    }

    void oneProcessForFourGpusShowsThreeIdle()
    {
        start(true, QStringLiteral("0,1,2,3"));   // no LOCAL_RANK: it drives the first visible device
        const GpuSampleSummary s = query();
        QCOMPARE(s.diagnostics.size(), 0);
        QCOMPARE(s.tool, GpuSampleSummary::Tool::NvidiaSmi);
        QCOMPARE(s.gpus.size(), 4);
        const QList<double> util = utilByIndex(s);
        QVERIFY2(util[0] > 0, qPrintable(QString::number(util[0])));
        QCOMPARE(util.mid(1), (QList<double>{0, 0, 0}));
        QCOMPARE(s.gpus[0].memUsedMiB[0], 30994.0);   // the real capture's training figure
        QCOMPARE(*s.gpus[0].memTotalMiB, 32480.0);
        QVERIFY(s.gpus[0].powerW[0] > 52.0);
        for (int i = 1; i < 4; ++i) {
            QCOMPARE(s.gpus[i].memUsedMiB[0], 0.0);
            QCOMPARE(s.gpus[i].powerW[0], 52.0);   // idle board power
        }
    }

    void oneProcessPerGpuShowsAllBusy()
    {
        for (int rank = 0; rank < 4; ++rank)
            start(true, QStringLiteral("0,1,2,3"), rank);
        const QList<double> util = utilByIndex(query());
        QCOMPARE(util.size(), 4);
        for (double u : util)
            QVERIFY2(u > 0, qPrintable(QString::number(u)));
    }

    void waitingProcessHoldsMemoryButIsIdle()
    {
        start(false, QStringLiteral("2"));
        const GpuSampleSummary s = query();
        QCOMPARE(utilByIndex(s), (QList<double>{0, 0, 0, 0}));
        QCOMPARE(s.gpus[2].memUsedMiB[0], 310.0);   // a CUDA context
        QCOMPARE(s.gpus[1].memUsedMiB[0], 0.0);
    }

    void otherNodesProcessesDoNotCount()
    {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURMD_NODENAME"), m_node + QStringLiteral("-other"));
        env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("3"));
        p->setProcessEnvironment(env);
        p->start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("while :; do :; done")});
        QVERIFY(p->waitForStarted(10000));
        m_procs.push_back(std::move(p));
        QCOMPARE(utilByIndex(query()), (QList<double>{0, 0, 0, 0}));
    }

    void loopSamplesCarryPower()
    {
        start(true, QStringLiteral("1"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURMD_NODENAME"), m_node);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("python3"),
                {kEmulator, QStringLiteral("nvidia-smi"), QStringLiteral("--query-gpu=index,timestamp,power.draw"),
                 QStringLiteral("--format=csv"), QStringLiteral("-l"), QStringLiteral("1")});
        QVERIFY(p.waitForStarted(10000));
        QByteArray out;
        // Three rounds of four rows after the header, however slow the machine.
        while (out.count('\n') < 13 && p.waitForReadyRead(30000))
            out += p.readAllStandardOutput();
        p.kill();   // as the job's end stops the sampler
        p.waitForFinished(5000);
        const GpuSampleSummary s = GpuSampleParser::parse(out);
        QCOMPARE(s.gpus.size(), 4);
        QVERIFY2(s.gpus[0].seconds.size() >= 3, out.constData());
        const GpuEnergyResult e = GpuEnergy::integrate(s);
        QVERIFY(e.joules);
        QCOMPARE(e.gpusWithPower, 4);
        // GPU 0 idles at 52 W the whole time: its share is exact.
        GpuEnergyResult idle;
        GpuEnergy::integrate(s.gpus[0], idle);
        QCOMPARE(*idle.joules, 52.0 * s.gpus[0].seconds.back());
    }

    void rocmCsvAndConciseTable()
    {
        start(true, QStringLiteral("2"), -1, QStringLiteral("ROCR_VISIBLE_DEVICES"));
        const GpuSampleSummary csv = GpuSampleParser::parse(
            emulate({QStringLiteral("rocm-smi"), QStringLiteral("--showuse"), QStringLiteral("--showmemuse"),
                     QStringLiteral("--showmeminfo"), QStringLiteral("vram"), QStringLiteral("--showpower"),
                     QStringLiteral("--csv")}),
            {QString(), QString(), 1.0});
        QCOMPARE(csv.tool, GpuSampleSummary::Tool::RocmSmi);
        QCOMPARE(csv.gpus.size(), 4);
        const QList<double> util = utilByIndex(csv);
        QVERIFY2(util[2] > 0, qPrintable(QString::number(util[2])));
        QCOMPARE(util[0], 0.0);
        QCOMPARE(util[3], 0.0);
        QVERIFY(std::isnan(csv.gpus[3].powerW[0]));   // the package's power is on its first GCD
        QCOMPARE(csv.gpus[0].powerW[0], 95.0);   // an idle MI250X package
        QVERIFY(csv.gpus[2].powerW[0] > 95.0);
        QVERIFY(csv.gpus[2].memUsedMiB[0] > 1000);

        const GpuSampleSummary concise = GpuSampleParser::parse(emulate({QStringLiteral("rocm-smi")}));
        QCOMPARE(concise.gpus.size(), 4);
        QVERIFY(concise.gpus[2].utilPercent[0] > 0);
        QCOMPARE(concise.gpus[1].utilPercent[0], 0.0);
    }

    void plainFormsAreTheRealOnes()
    {
        // The default table is recognised as nvidia-smi's own (and refused as samples, as the real one).
        const GpuSampleSummary table = GpuSampleParser::parse(emulate({QStringLiteral("nvidia-smi")}));
        QCOMPARE(table.rows, qint64(0));
        QVERIFY2(table.noSamplesReason.contains(QLatin1String("nvidia-smi's default table")),
                 qPrintable(table.noSamplesReason));
        const QByteArray list = emulate({QStringLiteral("nvidia-smi"), QStringLiteral("-L")});
        QCOMPARE(list.count('\n'), 4);
        QVERIFY(list.startsWith("GPU 0: Tesla V100-SXM3-32GB (UUID: GPU-"));
        // An unknown field fails as nvidia-smi does.
        QProcess p;
        p.start(QStringLiteral("python3"), {kEmulator, QStringLiteral("nvidia-smi"),
                                            QStringLiteral("--query-gpu=index,bogus"), QStringLiteral("--format=csv")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QCOMPARE(p.readAllStandardOutput(), QByteArray("Field \"bogus\" is not a valid field to query.\n"));
    }
};

QTEST_GUILESS_MAIN(TstGpuEmulator)
#include "tst_gpu_emulator.moc"
