// SPDX-License-Identifier: GPL-3.0-or-later
// The live watch (issue 28): the increments of a running run's GPU samples and
// output are parsed in any split, fetched from the stored offsets in one
// command for all running runs, and the alert rules raise what they should.
#include "LocalShellExecutor.h"

#include "core/client/LiveFetch.h"
#include "core/client/LiveWatch.h"
#include "core/ingest/AlertRules.h"
#include "core/ingest/LiveRunState.h"
#include "core/store/RunStore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace scalelab;

namespace {

// nvidia-smi's CSV as the sampler writes it: 4 GPUs, one row each per second from t0.
QByteArray nvidiaCsv(int seconds, const std::function<int(int gpu, int second)> &util, int fromSecond = 0,
                     bool header = true)
{
    QByteArray out = header ? QByteArray("index, timestamp, utilization.gpu [%], utilization.memory [%], "
                                         "memory.used [MiB], memory.total [MiB], power.draw [W]\n")
                            : QByteArray();
    for (int s = fromSecond; s < fromSecond + seconds; ++s)
        for (int g = 0; g < 4; ++g) {
            const int u = util(g, s);
            out += QStringLiteral("%1, 2026/11/27 10:%2:%3.000, %4 %, %5 %, %6 MiB, 32480 MiB, %7 W\n")
                       .arg(g)
                       .arg(s / 60, 2, 10, QLatin1Char('0'))
                       .arg(s % 60, 2, 10, QLatin1Char('0'))
                       .arg(u)
                       .arg(u / 2)
                       .arg(u > 0 ? 30994 : 0)
                       .arg(52 + u * 2)
                       .toUtf8();
        }
    return out;
}

int oneOfFour(int gpu, int)
{
    return gpu == 0 ? 40 : 0;
}
int allBusy(int, int)
{
    return 35;
}
int allIdle(int, int)
{
    return 0;
}

AlertThresholds shortWindows()
{
    AlertThresholds t;
    t.idleSeconds = 20;
    t.warmupSeconds = 10;
    t.silentSeconds = 20;
    return t;
}

QStringList rules(const QList<AlertRecord> &alerts)
{
    QStringList out;
    for (const AlertRecord &a : alerts)
        out << a.rule;
    return out;
}

LiveRunState stateOf(const QByteArray &csv, double outputAt = 0)
{
    LiveRunState s;
    s.setFirstSeen(outputAt);
    s.addGpuBytes(QStringLiteral("scalelab-gpu-7-node1.csv"), csv, 0);
    return s;
}

}   // namespace

class TestLiveAlerts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Any cut of the same bytes (mid-line too) gives the same samples as the whole file.
    void incrementsInAnySplitGiveTheWholeFile()
    {
        const QByteArray csv = nvidiaCsv(30, oneOfFour);
        const LiveRunState whole = stateOf(csv);
        QCOMPARE(whole.gpus().size(), 4);
        QCOMPARE(whole.gpus()[0].times.size(), 30);
        for (int step : {1, 7, 64, 113, 1000}) {
            LiveRunState s;
            for (qsizetype at = 0; at < csv.size(); at += step)
                s.addGpuBytes(QStringLiteral("scalelab-gpu-7-node1.csv"),
                              QByteArrayView(csv).sliced(at, std::min<qsizetype>(step, csv.size() - at)), 0);
            QCOMPARE(s.gpus().size(), 4);
            for (int g = 0; g < 4; ++g) {
                QCOMPARE(s.gpus()[g].key, whole.gpus()[g].key);
                QCOMPARE(s.gpus()[g].times, whole.gpus()[g].times);
                QCOMPARE(s.gpus()[g].util, whole.gpus()[g].util);
                QCOMPARE(s.gpus()[g].memUsedMiB, whole.gpus()[g].memUsedMiB);
            }
        }
        QCOMPARE(whole.gpus()[0].util.last(), 40.0);
        QCOMPARE(whole.gpus()[1].memUsedMiB, 0.0);
        QCOMPARE(whole.gpus()[0].times.last() - whole.firstSampleTime(), 29.0);
    }

    void idleGpusWhileOneWorksAfterWarmup()
    {
        const AlertThresholds t = shortWindows();
        // Warm-up 10 s + idle 20 s: at second 29 (29 s after the first sample) not yet, at 31 yes.
        QVERIFY(!rules(AlertRules::evaluate(1, stateOf(nvidiaCsv(30, oneOfFour)), t, 0)).contains("gpu-idle"));
        const QList<AlertRecord> a = AlertRules::evaluate(1, stateOf(nvidiaCsv(32, oneOfFour)), t, 0);
        QCOMPARE(rules(a), QStringList{"gpu-idle"});
        QVERIFY2(a[0].evidence.contains("node1:1, node1:2, node1:3") && a[0].evidence.contains("while node1:0 works"),
                 qPrintable(a[0].evidence));
        QVERIFY(!a[0].action.isEmpty());
        // A correct job (every GPU works) raises nothing; switched off, the rule is silent.
        QCOMPARE(AlertRules::evaluate(1, stateOf(nvidiaCsv(120, allBusy)), t, 0), QList<AlertRecord>());
        AlertThresholds off = t;
        off.disabled << QStringLiteral("gpu-idle");
        QCOMPARE(AlertRules::evaluate(1, stateOf(nvidiaCsv(60, oneOfFour)), off, 0), QList<AlertRecord>());
    }

    void idleStreakStartsAtTheLastBusySample()
    {
        // Every GPU works for 40 s, then GPU 3 stops: idle for 19 s is not yet 20.
        const auto stops = [](int g, int s) { return g == 3 && s >= 40 ? 0 : 30; };
        QCOMPARE(AlertRules::evaluate(1, stateOf(nvidiaCsv(60, stops)), shortWindows(), 0), QList<AlertRecord>());
        QCOMPARE(rules(AlertRules::evaluate(1, stateOf(nvidiaCsv(62, stops)), shortWindows(), 0)),
                 QStringList{"gpu-idle"});
    }

    void silentOutputWhileAllIdleIsALikelyHang()
    {
        const AlertThresholds t = shortWindows();
        LiveRunState s = stateOf(nvidiaCsv(60, allIdle), 1000);
        // Output grew 10 s ago: GPUs idle, but not silent long enough.
        QCOMPARE(rules(AlertRules::evaluate(1, s, t, 1010)), QStringList{"gpu-idle"});
        const QList<AlertRecord> a = AlertRules::evaluate(1, s, t, 1021);
        QCOMPARE(rules(a), (QStringList{"gpu-idle", "likely-hang"}));
        QVERIFY2(a[1].evidence.startsWith("no new output for 21 s"), qPrintable(a[1].evidence));
        s.addOutputBytes("step 10\n", 1030);   // it moved
        QVERIFY(!rules(AlertRules::evaluate(1, s, t, 1040)).contains("likely-hang"));
    }

    void failureLinesOfTheOutput()
    {
        LiveRunState s;
        s.setFirstSeen(0);
        s.addOutputBytes("step 1\n[rank3]:[E ProcessGroupNCCL.cpp:616] Watchdog caught collective operation timeout: "
                         "WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600000 milliseconds before tim",
                         1);
        QCOMPARE(AlertRules::evaluate(1, s, shortWindows(), 2), QList<AlertRecord>());   // the line is not ended yet
        s.addOutputBytes("ing out.\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", 2);
        const QList<AlertRecord> a = AlertRules::evaluate(1, s, shortWindows(), 3);
        QCOMPARE(rules(a), (QStringList{"nccl-error", "gpu-oom"}));
        QVERIFY2(a[0].evidence.contains("Watchdog caught collective operation timeout")
                     && a[0].evidence.contains("timing out"),
                 qPrintable(a[0].evidence));
        QVERIFY2(a[1].evidence.contains("CUDA out of memory"), qPrintable(a[1].evidence));
    }

    void oneNodeIdleWhileTheOtherWorks()
    {
        LiveRunState s;
        s.addGpuBytes(QStringLiteral("scalelab-gpu-7-node1.csv"), nvidiaCsv(40, allBusy), 0);
        s.addGpuBytes(QStringLiteral("scalelab-gpu-7-node2.csv"), nvidiaCsv(40, allIdle), 0);
        const QList<AlertRecord> a = AlertRules::evaluate(1, s, shortWindows(), 0);
        QCOMPARE(rules(a), (QStringList{"gpu-idle", "node-idle"}));
        QVERIFY2(a[1].evidence.startsWith("node node2:") && a[1].evidence.endsWith("while node1 works"),
                 qPrintable(a[1].evidence));
    }

    void throughputFallenByAThirdFromItsMedian()
    {
        LiveRunState s;
        s.setFirstSeen(0);
        QByteArray log;
        for (int i = 0; i < 6; ++i)
            log += "samples_per_s 300.0\n";
        s.addOutputBytes(log + "samples_per_s 210.0\n", 1);
        QCOMPARE(s.throughputName(), QStringLiteral("samples_per_s"));
        QCOMPARE(s.throughput().size(), 7);
        QCOMPARE(AlertRules::evaluate(1, s, shortWindows(), 2), QList<AlertRecord>());   // 210 > 2/3 x 300
        s.addOutputBytes("samples_per_s 190.0\n", 3);
        const QList<AlertRecord> a = AlertRules::evaluate(1, s, shortWindows(), 4);
        QCOMPARE(rules(a), QStringList{"throughput-drop"});
        QVERIFY2(a[0].evidence.contains("190") && a[0].evidence.contains("median is 300"), qPrintable(a[0].evidence));
    }

    void everyRuleHasIdTitleAction()
    {
        QStringList ids;
        for (const AlertRule &r : AlertRules::table()) {
            QVERIFY(!r.id.isEmpty() && !r.title.isEmpty() && !r.action.isEmpty() && r.evidence);
            ids << r.id;
        }
        QCOMPARE(ids,
                 (QStringList{"gpu-idle", "likely-hang", "nccl-error", "gpu-oom", "node-idle", "throughput-drop"}));
    }

    // The reply's frames: names and folders quoted in the script, a cut frame refused.
    void fetchScriptAndReply()
    {
        LiveTarget t{4,
                     QStringLiteral("/home/r/.scalelab/runs/sl-1"),
                     QStringLiteral("12"),
                     {{QStringLiteral("scalelab-12.out"), 100}}};
        const QString s = LiveFetch::script({t}, 4096);
        QVERIFY2(s.contains("cd /home/r/.scalelab/runs/sl-1 ") && s.contains(" scalelab-12.out) o=100;;")
                     && s.contains("for f in scalelab-gpu-12-*.csv scalelab-12.out; do"),
                 qPrintable(s));
        const auto ok = LiveFetch::parse("@@scalelab-live 4 scalelab-12.out 100 104 4\nabcd"
                                         "@@scalelab-live 4 scalelab-gpu-12-n1.csv 0 0 0\n");
        QVERIFY(ok);
        QCOMPARE(ok->size(), 2);
        QCOMPARE(ok->at(0).data, QByteArray("abcd"));
        QCOMPARE(ok->at(0).offset, qint64(100));
        QVERIFY(!LiveFetch::parse("@@scalelab-live 4 scalelab-12.out 100 104 9\nabcd"));
        QVERIFY(!LiveFetch::parse("@@scalelab-live 4 ../x 0 4 4\nabcd"));
    }

    // Two running runs, one command per cycle; each cycle fetches only what is new, from the
    // stored offsets, at most the cap per file; the local copies are the remote files.
    void offsetsResumeInOneCommandPerCycle()
    {
        QTemporaryDir data, remote;
        RunStore store(data.path());
        QVERIFY(store.open());
        test::LocalShellExecutor exec(remote.path());
        QList<qint64> ids;
        for (int i = 0; i < 2; ++i) {
            RunRecord r;
            r.clusterAlias = QStringLiteral("c");
            r.gpus = 4;
            r.nodes = 1;
            r.script = QStringLiteral("#!/bin/bash\n");
            const qint64 id = store.createRun(r).value().id;
            const QString dir = remote.path() + QStringLiteral("/run%1").arg(i);
            QVERIFY(QDir().mkpath(dir));
            QVERIFY(store.setRemoteDir(id, dir));
            QVERIFY(store.markSubmitted(id, QString::number(70 + i)));
            QVERIFY(store.updateState(id, JobState::Running, {}));
            ids << id;
        }
        const auto write = [&](int i, const QString &name, const QByteArray &bytes) {
            QFile f(remote.path() + QStringLiteral("/run%1/").arg(i) + name);
            QVERIFY(f.open(QIODevice::Append));
            f.write(bytes);
        };
        const QByteArray first = nvidiaCsv(10, oneOfFour);
        write(0, "scalelab-gpu-70-node1.csv", first);
        write(0, "scalelab-70.out", "hello\n");
        write(1, "scalelab-71.out", QByteArray(3000, 'x') + '\n');
        LiveWatch live;
        live.setCaps(1024, 1 << 20);
        const auto running = [&] { return store.activeRuns(QStringLiteral("c")).value(); };
        LiveCycleReport c1 = live.cycle(exec, store, running(), shortWindows(), 100);
        QCOMPARE(c1.errors, QStringList());
        QCOMPARE(c1.remoteCommands, 1);
        QCOMPARE(exec.commands, 1);
        QCOMPARE(c1.bytes, qint64(1024 + 6 + 1024));   // capped per file
        QCOMPARE(c1.runs, ids);
        // Until every byte is here, one command per cycle; then the copies are the files.
        for (int n = 2; n < 10; ++n)
            live.cycle(exec, store, running(), shortWindows(), 100 + n);
        QCOMPARE(exec.commands, 9);
        const auto local = [&](qint64 id, const QString &name) {
            QFile f(store.runFilesDirectory(id) + u'/' + name);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        QCOMPARE(local(ids[0], "scalelab-gpu-70-node1.csv"), first);
        QCOMPARE(local(ids[1], "scalelab-71.out"), QByteArray(3000, 'x') + '\n');
        QCOMPARE(live.state(ids[0])->gpus()[0].times.size(), 10);
        // New bytes only.
        const QByteArray more = nvidiaCsv(2, oneOfFour, 10, false);
        write(0, "scalelab-gpu-70-node1.csv", more);
        const LiveCycleReport c2 = live.cycle(exec, store, running(), shortWindows(), 120);
        QCOMPARE(c2.bytes, qint64(more.size()));
        QCOMPARE(c2.outputGrew, QList<qint64>());
        QCOMPARE(live.state(ids[0])->gpus()[0].times.size(), 12);
        // A new watch (the next `scalelab status`) starts from the local copies and fetches nothing again.
        LiveWatch fresh;
        const LiveCycleReport c3 = fresh.cycle(exec, store, running(), shortWindows(), 130);
        QCOMPARE(c3.bytes, qint64(0));
        QCOMPARE(fresh.state(ids[0])->gpus()[0].times, live.state(ids[0])->gpus()[0].times);
        // A run that leaves the running list is forgotten.
        QVERIFY(store.updateState(ids[1], JobState::Completed, {}));
        fresh.cycle(exec, store, running(), shortWindows(), 140);
        QVERIFY(!fresh.state(ids[1]));
    }

    // The idle GPUs are stored as one alert per run and rule; the window's summary reads the unshown ones.
    void alertsStoredOncePerRunAndRule()
    {
        QTemporaryDir data;
        RunStore store(data.path());
        QVERIFY(store.open());
        RunRecord r;
        r.clusterAlias = QStringLiteral("c");
        r.script = QStringLiteral("#!/bin/bash\n");
        const qint64 id = store.createRun(r).value().id;
        AlertRecord a = AlertRules::evaluate(id, stateOf(nvidiaCsv(40, oneOfFour)), shortWindows(), 5).value(0);
        QCOMPARE(a.rule, QStringLiteral("gpu-idle"));
        QCOMPARE(store.recordAlert(a).value(), true);
        QVERIFY(a.id > 0);
        AlertRecord again = a;
        again.evidence = QStringLiteral("later");
        QCOMPARE(store.recordAlert(again).value(), false);
        const QList<AlertRecord> stored = store.alerts({id}).value();
        QCOMPARE(stored.size(), 1);
        QCOMPARE(stored[0].evidence, a.evidence);
        QCOMPARE(stored[0].raisedAt, a.raisedAt);
        QCOMPARE(store.unnotifiedAlerts().value().size(), 1);
        QVERIFY(store.markAlertsNotified({a.id}));
        QCOMPARE(store.unnotifiedAlerts().value().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLiveAlerts)
#include "tst_live_alerts.moc"
