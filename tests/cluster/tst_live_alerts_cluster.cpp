// SPDX-License-Identifier: GPL-3.0-or-later
// The live watch and its alerts against the real cluster with the emulated
// GPUs (issue 28): poll cycles with the live watch on, thresholds in seconds.
// A job that starts one process for four GPUs raises gpu-idle within two
// poll cycles after the threshold; a job with a process per GPU raises
// nothing; a job whose process sleeps raises likely-hang. Jobs are cancelled
// as soon as what is looked for is seen: no fixed waits beyond the poll's.
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/client/RunLifecycle.h"
#include "core/compose/SbatchRenderer.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <optional>

using namespace scalelab;

class TestLiveAlertsCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;
    QString m_programs;
    AlertThresholds m_thresholds;

    qint64 submit(const QString &name, Framework framework, const QString &program, const QString &seconds)
    {
        JobSpec s = test::testbedSpec(name, 4, m_programs + u'/' + program, {seconds});
        s.framework = framework;
        s.gpuSampleSeconds = 1;
        RunRecord r;
        r.profile = s.profile;
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = s.partition;
        r.gpus = s.gpus;
        r.nodes = 1;
        r.framework = frameworkId(s.framework);
        r.script = renderSbatch(s, test::repoProfile("testbed"));
        const auto created = m_cluster.store->createRun(r);
        if (!created)
            return -1;
        const SubmitOutcome o = m_cluster.client->submit(created->id);
        return o.kind == SubmitOutcome::Kind::Submitted ? created->id : -1;
    }

    QStringList alertRules(qint64 id)
    {
        QStringList out;
        for (const AlertRecord &a : m_cluster.store->alerts({id}).value_or(QList<AlertRecord>()))
            out << a.rule;
        return out;
    }

    struct Watched {
        int cycles = 0;
        int thresholdCycle = -1;   // the first cycle after the first sample + warm-up + idle window
        int raisedCycle = -1;   // the first cycle that stored `rule`
        double sampleSpan = 0;   // seconds of samples the watch saw while the job ran
        QStringList rules;
    };

    // Poll cycles with the live watch until `rule` is raised (rule "" : until the job ends).
    Watched watch(qint64 id, const QString &rule, int maxSeconds)
    {
        LiveWatch live;
        RunLifecycle lifecycle(*m_cluster.client, *m_cluster.store);
        Watched w;
        QElapsedTimer total;
        total.start();
        // The samples' clock (as nvidia-smi prints it: local time) against this one, set at the first
        // cycle that sees samples: from then on "now" on the samples' clock is known without them.
        std::optional<double> offset;
        while (total.elapsed() < maxSeconds * 1000) {
            PollCycleOptions o;
            o.live = &live;
            o.alerts = m_thresholds;
            const PollCycleReport rep = lifecycle.pollCycle(o);
            const double wall = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
            ++w.cycles;
            if (!rep.fetchErrors.isEmpty())
                qWarning("cycle %d: %s", w.cycles, qPrintable(rep.fetchErrors.join(u' ')));
            if (const LiveRunState *s = live.state(id); s && !s->gpus().isEmpty()) {
                double newest = s->firstSampleTime();
                for (const LiveGpu &g : s->gpus())
                    newest = std::max(newest, g.times.last());
                if (!offset)
                    offset = wall - newest;
                w.sampleSpan = std::max(w.sampleSpan, newest - s->firstSampleTime());
                const double threshold = s->firstSampleTime() + m_thresholds.warmupSeconds + m_thresholds.idleSeconds;
                if (w.thresholdCycle < 0 && wall - *offset >= threshold)
                    w.thresholdCycle = w.cycles;
            }
            w.rules = alertRules(id);
            if (w.raisedCycle < 0 && !rule.isEmpty() && w.rules.contains(rule))
                w.raisedCycle = w.cycles;
            if (w.raisedCycle > 0 || m_cluster.store->run(id).value().isTerminal())
                break;
            QThread::msleep(1000);   // the poll interval
        }
        if (!m_cluster.store->run(id).value().isTerminal())
            (void)m_cluster.client->cancel(id);
        qInfo("run %lld: %d cycles, threshold at cycle %d, %s at cycle %d, %.0f s of samples, alerts [%s]", id,
              w.cycles, w.thresholdCycle, qPrintable(rule), w.raisedCycle, w.sampleSpan,
              qPrintable(w.rules.join(u',')));
        return w;
    }

    void writeProgram(const QString &name, const QByteArray &text)
    {
        QFile f(m_programs + u'/' + name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        QFile::setPermissions(f.fileName(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther
                                                | QFileDevice::ReadGroup);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
        m_programs = QStringLiteral("/tmp/scalelab-live-alerts-%1").arg(QCoreApplication::applicationPid());
        QVERIFY(QDir().mkpath(m_programs));
        QFile::setPermissions(m_programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup
                                              | QFileDevice::ExeGroup);
        writeProgram(QStringLiteral("spin.py"), "import sys, time\n"
                                                "print('spinning', flush=True)\n"
                                                "end = time.time() + float(sys.argv[1])\n"
                                                "while time.time() < end:\n"
                                                "    pass\n");
        writeProgram(QStringLiteral("sleep.py"), "import sys, time\n"
                                                 "print('waiting for the other ranks', flush=True)\n"
                                                 "time.sleep(float(sys.argv[1]))\n");
        // Steady throughput, then a third lower, then an NCCL watchdog line and an out-of-memory
        // line as PyTorch prints them; the job stays up a little so the watch reads it running.
        writeProgram(QStringLiteral("faults.py"),
                     "import sys, time\n"
                     "for i in range(8):\n"
                     "    print(f'step {i} samples_per_s 300.0', flush=True)\n"
                     "    time.sleep(0.3)\n"
                     "print('step 8 samples_per_s 180.0', flush=True)\n"
                     "print('[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "
                     "timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.', "
                     "flush=True)\n"
                     "print('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB', flush=True)\n"
                     "time.sleep(float(sys.argv[1]))\n");
        m_thresholds.warmupSeconds = 3;
        m_thresholds.idleSeconds = 6;
        m_thresholds.silentSeconds = 6;
    }

    void cleanupTestCase() { QDir(m_programs).removeRecursively(); }

    void fewerProcessesThanGpusRaisesGpuIdle()
    {
        const qint64 id = submit(QStringLiteral("live-one-process"), Framework::DataParallel, QStringLiteral("spin.py"),
                                 QStringLiteral("90"));
        QVERIFY(id > 0);
        const Watched w = watch(id, QStringLiteral("gpu-idle"), 120);
        QVERIFY2(w.raisedCycle > 0, qPrintable(w.rules.join(u',')));
        // Within two cycles after the threshold (the cycle where it was raised may come first, when
        // the samples' clock ran ahead of the estimate); never before the samples spanned it.
        QVERIFY2(
            w.thresholdCycle < 0 || w.raisedCycle <= w.thresholdCycle + 2,
            qPrintable(QStringLiteral("threshold at cycle %1, raised at %2").arg(w.thresholdCycle).arg(w.raisedCycle)));
        QVERIFY2(w.sampleSpan >= m_thresholds.warmupSeconds + m_thresholds.idleSeconds,
                 qPrintable(QString::number(w.sampleSpan)));
        const AlertRecord a = m_cluster.store->alerts({id}).value().value(0);
        QVERIFY2(a.evidence.contains(QStringLiteral(":1, ")) && a.evidence.contains(QStringLiteral(":0 works")),
                 qPrintable(a.evidence));
    }

    void aProcessPerGpuRaisesNothing()
    {
        const qint64 id = submit(QStringLiteral("live-per-gpu"), Framework::PytorchDdp, QStringLiteral("spin.py"),
                                 QStringLiteral("16"));
        QVERIFY(id > 0);
        const Watched w = watch(id, QString(), 120);
        QVERIFY(m_cluster.store->run(id).value().isTerminal());
        // The watch saw the job past warm-up + idle window: silence is not from looking too briefly.
        QVERIFY2(w.sampleSpan >= m_thresholds.warmupSeconds + m_thresholds.idleSeconds + 2,
                 qPrintable(QString::number(w.sampleSpan)));
        QCOMPARE(w.rules, QStringList());
    }

    // The output rules on a real job's output as the live watch fetches it: the NCCL watchdog line,
    // the out-of-memory line and the fallen throughput, each once with the line as evidence.
    void faultLinesInTheOutputRaiseTheirAlerts()
    {
        const qint64 id = submit(QStringLiteral("live-faults"), Framework::PytorchDdp, QStringLiteral("faults.py"),
                                 QStringLiteral("30"));
        QVERIFY(id > 0);
        const Watched w = watch(id, QStringLiteral("gpu-oom"), 90);
        QVERIFY2(w.raisedCycle > 0, qPrintable(w.rules.join(u',')));
        QHash<QString, QString> evidence;
        for (const AlertRecord &a : m_cluster.store->alerts({id}).value())
            evidence.insert(a.rule, a.evidence);
        QVERIFY2(evidence.value(QStringLiteral("nccl-error")).contains(QLatin1String("Watchdog caught collective")),
                 qPrintable(evidence.keys().join(u',')));
        QVERIFY2(evidence.value(QStringLiteral("gpu-oom")).contains(QLatin1String("CUDA out of memory")),
                 qPrintable(evidence.value(QStringLiteral("gpu-oom"))));
        QVERIFY2(evidence.value(QStringLiteral("throughput-drop")).contains(QLatin1String("180")),
                 qPrintable(evidence.value(QStringLiteral("throughput-drop"))));
        QCOMPARE(w.rules.count(QStringLiteral("nccl-error")), 1);   // stored once per run and rule
    }

    void aSleepingJobRaisesLikelyHang()
    {
        const qint64 id = submit(QStringLiteral("live-sleeps"), Framework::DataParallel, QStringLiteral("sleep.py"),
                                 QStringLiteral("90"));
        QVERIFY(id > 0);
        const Watched w = watch(id, QStringLiteral("likely-hang"), 120);
        QVERIFY2(w.raisedCycle > 0, qPrintable(w.rules.join(u',')));
        const AlertRecord hang = [&] {
            for (const AlertRecord &a : m_cluster.store->alerts({id}).value())
                if (a.rule == QLatin1String("likely-hang"))
                    return a;
            return AlertRecord{};
        }();
        QVERIFY2(hang.evidence.startsWith(QStringLiteral("no new output for")), qPrintable(hang.evidence));
    }
};

QTEST_GUILESS_MAIN(TestLiveAlertsCluster)
#include "tst_live_alerts_cluster.moc"
