// SPDX-License-Identifier: GPL-3.0-or-later
// Before a job starts: sbatch --test-only's reply (real 22.05 and 24.11
// captures), the one remote command that asks it for every partition, the
// cache, pending reasons in words, the median past queue wait, and the cost
// (billing weights x request x time; a study's cost is the sum of its runs),
// the remaining allocation from sshare.
#include "FakeRemoteExecutor.h"
#include "ProfileFixtures.h"
#include "core/analysis/PendingRunText.h"
#include "core/analysis/QueueWaitStats.h"
#include "core/analysis/UsedCost.h"
#include "core/client/StartEstimateCache.h"
#include "core/client/StartEstimator.h"
#include "core/compose/JobCost.h"
#include "core/compose/PartitionFit.h"
#include "core/compose/StudyPlanner.h"
#include "core/discovery/SshareAllocationParser.h"
#include "core/slurm/BillingWeights.h"
#include "core/slurm/PendingReason.h"
#include "core/slurm/SbatchTestOnlyParser.h"
#include "core/slurm/WaitText.h"

#include <QFile>
#include <QTest>

using namespace scalelab;

namespace {

// "$ command" blocks of a capture file: the reply lines and the exit code.
struct Capture {
    QString command;
    QString text;
    int exitCode = -1;
};

QList<Capture> captures(const QString &name)
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/slurm-samples/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing capture %s", qPrintable(name));
    QList<Capture> out;
    for (const QString &line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("$ ")))
            out << Capture{line.mid(2), {}, -1};
        else if (line.startsWith(QLatin1String("exit=")) && !out.isEmpty())
            out.back().exitCode = line.mid(5).toInt();
        else if (!out.isEmpty() && !line.startsWith(QLatin1Char('#')))
            out.back().text += line + QLatin1Char('\n');
    }
    return out;
}

ClusterProfile billedTestbed(const QString &weights)
{
    ClusterProfile p = test::repoProfile(QStringLiteral("testbed"));
    for (Partition &part : p.partitions)
        part.tresBillingWeights = weights;
    return p;
}

}   // namespace

class TestEstimates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void testOnlyRealCaptures_data();
    void testOnlyRealCaptures();
    void testOnlyOtherShapes();
    void testOnlyHostileShapes();
    void estimatorOneCommandForAllPartitions();
    void estimatorReadsItsOutput();
    void cacheKeepsFiveMinutes();
    void partitionsThatFit();
    void waitWords();
    void pendingReasonTable();
    void pendingReasonShapes();
    void queueWaitMedians();
    void pendingRunInWords();
    void billingWeights();
    void jobCost();
    void jobCostUnknownNeverGuessed();
    void studyCostIsTheSumOfItsRuns();
    void allocationFromSshare();
    void usedCostFromAccounting();
};

void TestEstimates::testOnlyRealCaptures_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("22.05") << QStringLiteral("sbatch-test-only-22.05.txt");
    QTest::newRow("24.11") << QStringLiteral("sbatch-test-only-24.11.txt");
}

void TestEstimates::testOnlyRealCaptures()
{
    QFETCH(QString, file);
    const QList<Capture> c = captures(file);
    QCOMPARE(c.size(), 8);
    const QStringList partitions{"gpu", "gputest", "gpusmall", "gpumedium"};
    for (int i = 0; i < 4; ++i) {
        const TestOnlyParse p = SbatchTestOnlyParser::parse(c[i].text);
        QVERIFY2(p.reply.willRun, qPrintable(c[i].text));
        QVERIFY(p.diagnostics.isEmpty());
        QCOMPARE(p.reply.partition, partitions[i]);
        QCOMPARE(p.reply.nodes, QStringLiteral("tb-node1"));
        QCOMPARE(p.reply.jobId, QString::number(39 + i));
        QCOMPARE(p.reply.processors, i == 3 ? 8 : 1);   // gpumedium is exclusive: the whole node
        QVERIFY(p.reply.start.has_value());
        QVERIFY(p.reply.startText.startsWith(QLatin1String("2026-11-27T06:19:")));
        QVERIFY(p.reply.refusal.isEmpty());
    }
    // Refused: the QOS's per-job GPU limit, and a time over the partition's.
    const TestOnlyParse qos = SbatchTestOnlyParser::parse(c[4].text);
    QVERIFY(!qos.reply.willRun);
    QCOMPARE(c[4].exitCode, 1);
    QVERIFY(qos.reply.refusal.startsWith(QLatin1String("QOSMaxGRESPerJob; Job violates accounting/QOS policy")));
    const TestOnlyParse time = SbatchTestOnlyParser::parse(c[5].text);
    QVERIFY(!time.reply.willRun);
    QVERIFY(time.reply.refusal.startsWith(QLatin1String("Requested time limit is invalid")));
    // Both nodes busy for an hour: later starts, gputest (15 min limit) before gpu.
    const TestOnlyParse busyGpu = SbatchTestOnlyParser::parse(c[6].text);
    const TestOnlyParse busyTest = SbatchTestOnlyParser::parse(c[7].text);
    QVERIFY(busyGpu.reply.willRun && busyTest.reply.willRun);
    QVERIFY(*busyGpu.reply.start - *SbatchTestOnlyParser::parse(c[0].text).reply.start > 3600);
    QVERIFY(*busyTest.reply.start < *busyGpu.reply.start);
}

void TestEstimates::testOnlyOtherShapes()
{
    // 17.11 and older: no partition; a job_submit message first; a Preempts line.
    const TestOnlyParse old = SbatchTestOnlyParser::parse(
        QStringLiteral("sbatch: Note: your job uses the site default account\n"
                       "sbatch: Job 12 to start at 2018-03-01T10:00:00 using 16 processors on nodes n[01-02]\n"
                       "sbatch:   Preempts: 7,9\n"));
    QVERIFY(old.reply.willRun);
    QCOMPARE(old.reply.partition, QString());
    QCOMPARE(old.reply.nodes, QStringLiteral("n[01-02]"));
    QCOMPARE(old.reply.processors, 16);
    QCOMPARE(old.reply.preempts, QStringLiteral("7,9"));
    QCOMPARE(old.reply.siteMessages, QStringList{QStringLiteral("Note: your job uses the site default account")});
    // A start time SLURM_TIME_FORMAT made unreadable: the line is read, the time is not guessed.
    const TestOnlyParse relative =
        SbatchTestOnlyParser::parse(QStringLiteral("sbatch: Job 5 to start at Tomorrow 10:00 using 1 processors on "
                                                   "nodes a in partition p\n"));
    QVERIFY(relative.reply.willRun);
    QVERIFY(!relative.reply.start.has_value());
    QCOMPARE(relative.reply.startText, QStringLiteral("Tomorrow 10:00"));
}

void TestEstimates::testOnlyHostileShapes()
{
    // A line that looks like the start line but is not: a warning, no start.
    const TestOnlyParse broken = SbatchTestOnlyParser::parse(
        QStringLiteral("sbatch: Job x to start at 2026-01-01T00:00:00 using y processors\n"));
    QVERIFY(!broken.reply.willRun);
    QCOMPARE(broken.diagnostics.size(), 1);
    // A flood: lines and their lengths are capped, one pass over the text.
    const QString flood = QStringLiteral("Job Job to start at using processors on nodes in partition ").repeated(20000)
                          + QLatin1Char('\n');
    const TestOnlyParse f1 = SbatchTestOnlyParser::parse(flood.repeated(3));
    QVERIFY(!f1.reply.willRun);
    QVERIFY(f1.reply.refusal.size() < 3 * 2100);
    const TestOnlyParse f2 = SbatchTestOnlyParser::parse(QStringLiteral("x\n").repeated(100000));
    QCOMPARE(f2.reply.siteMessages.size(), 200);
}

void TestEstimates::estimatorOneCommandForAllPartitions()
{
    FakeRemoteExecutor ex;
    QString body;
    ex.onRun = [&body](const QStringList &argv) {
        body = argv.value(2);
        RemoteResult r;
        r.exitCode = 0;
        r.out = "2026-11-27T06:19:36\n";
        return r;
    };
    StartEstimator est(ex);
    const StartEstimates e =
        est.estimate(QStringLiteral("#!/bin/bash\n"), {"gpu", "gputest", "bad;name", "gpusmall", "gpumedium", "gpu2"});
    QVERIFY(e.ok());
    QCOMPARE(ex.commands().size(), 1);
    QCOMPARE(ex.calls.value(ex.calls.size() - 1).argv.value(0), QStringLiteral("sh"));
    for (const char *p : {"gpu", "gputest", "gpusmall", "gpumedium", "gpu2"})
        QVERIFY2(body.contains(QStringLiteral("--partition=%1 ").arg(QLatin1String(p))), qPrintable(body));
    QVERIFY(!body.contains(QLatin1String("bad;name")));
    QCOMPARE(body.count(QLatin1String("sbatch --test-only")), 5);
    QVERIFY(body.contains(QLatin1String("SLURM_TIME_FORMAT=standard")));
    QVERIFY(body.contains(QLatin1String("sshare --parsable2")));
    QVERIFY(body.contains(QLatin1String("rm -rf -- /home/researcher/.scalelab/test-only/sl-")));
    QVERIFY(!body.contains(QLatin1Char('\n')) && !body.contains(QLatin1Char('!')) && !body.contains(QLatin1Char('\\')));
}

void TestEstimates::estimatorReadsItsOutput()
{
    // The shape the shell body prints, with the real replies of 22.05 (both nodes busy for gpu).
    const QList<Capture> c = captures(QStringLiteral("sbatch-test-only-22.05.txt"));
    const QString mark = QStringLiteral("@@scalelab-estimate ");
    const QString out = QStringLiteral("2026-11-27T06:19:36\n") + mark + "partition gputest\n" + c[1].text + mark
                        + "exit 0\n" + mark + "partition gpu\n" + c[6].text + mark + "exit 0\n" + mark
                        + "partition gpusmall\n" + c[4].text + mark + "exit 1\n" + mark + "sshare\n"
                        + "project_2001234|researcher||cpu=0,billing=0\n" + mark + "exit 0\n";
    const StartEstimates e = StartEstimator::parseOutput(out);
    QVERIFY(e.ok());
    QCOMPARE(e.partitions.size(), 3);
    QCOMPARE(e.partitions[0].waitSeconds, std::optional<qint64>(0));   // 06:19:34 is before the clock: now
    QCOMPARE(e.partitions[1].waitSeconds, std::optional<qint64>(2 * 3600 + 5 * 60));
    QCOMPARE(e.partitions[2].exitCode, 1);
    QCOMPARE(e.summary(), QStringLiteral("gputest: now, gpu: in about 2 h, gpusmall: refused (QOSMaxGRESPerJob; Job "
                                         "violates accounting/QOS policy (job submit limit, user's size and/or time "
                                         "limits))"));
    QVERIFY(!e.allocation.known);
    QVERIFY(e.allocation.text().contains(QLatin1String("unknown")));
    const QString described =
        e.describe({{QStringLiteral("gpu"), QStringLiteral("median past wait about 2 h (3 jobs)")}});
    QVERIFY2(
        described.startsWith(QLatin1String("gputest: now, gpu: in about 2 h (median past wait about 2 h (3 jobs)), "
                                           "gpusmall: refused")),
        qPrintable(described));
    QVERIFY(described.endsWith(QLatin1String("\nremaining allocation: unknown (the site sets no GrpTRESMins on your "
                                             "associations (sshare))")));
    // No clock line: the time is shown as Slurm printed it, never turned into a guess of "now".
    const StartEstimates noClock =
        StartEstimator::parseOutput(mark + "partition gpu\n" + c[6].text + mark + "exit 0\n");
    QCOMPARE(noClock.summary(), QStringLiteral("gpu: at 2026-11-27T08:24:36"));
}

void TestEstimates::cacheKeepsFiveMinutes()
{
    StartEstimateCache cache;
    StartEstimates e;
    e.partitions << PartitionStart{QStringLiteral("gpu"), 0, {}, 0};
    const QStringList parts{"gpu"};
    cache.store("testbed", "script A", parts, e, 1000);
    QVERIFY(cache.find("testbed", "script A", parts, 1000 + 4 * 60 * 1000).has_value());
    QVERIFY(!cache.find("testbed", "script A", parts, 1000 + 6 * 60 * 1000).has_value());
    QVERIFY(!cache.find("testbed", "script B", parts, 2000).has_value());
    QVERIFY(!cache.find("other", "script A", parts, 2000).has_value());
    QVERIFY(!cache.find("testbed", "script A", {"gpu", "gputest"}, 2000).has_value());
    StartEstimates failed;
    failed.error = QStringLiteral("connection lost");
    cache.store("testbed", "script C", parts, failed, 1000);
    QVERIFY(!cache.find("testbed", "script C", parts, 1000).has_value());
    cache.store("testbed", "script D", parts, e, 1000 + 10 * 60 * 1000);   // the expired A goes
    QCOMPARE(cache.size(), 1);
}

void TestEstimates::partitionsThatFit()
{
    const ClusterProfile &tb = test::repoProfile(QStringLiteral("testbed"));
    JobSpec s = test::testbedSpec(QStringLiteral("fit"), 2, QStringLiteral("/tmp/x.py"));
    s.time = QStringLiteral("00:10:00");
    QCOMPARE(PartitionFit::fitting(s, tb), (QStringList{"gpu", "gputest", "gpusmall"}));   // gpumedium: 4 GPUs min
    s.time = QStringLiteral("01:00:00");   // over gputest's 15 minutes
    s.gpus = 4;   // over gpusmall's QOS
    QCOMPARE(PartitionFit::fitting(s, tb), (QStringList{"gpu", "gpumedium"}));
}

void TestEstimates::waitWords()
{
    QCOMPARE(WaitText::startsIn(0), QStringLiteral("now"));
    QCOMPARE(WaitText::startsIn(60), QStringLiteral("now"));
    QCOMPARE(WaitText::startsIn(61), QStringLiteral("in about 1 min"));
    QCOMPARE(WaitText::startsIn(20 * 60), QStringLiteral("in about 20 min"));
    QCOMPARE(WaitText::startsIn(2 * 3600 + 5 * 60), QStringLiteral("in about 2 h"));
    QCOMPARE(WaitText::startsIn(3 * 86400), QStringLiteral("in about 3 days"));
}

void TestEstimates::pendingReasonTable()
{
    QSet<QString> codes;
    for (const PendingReasonRow &row : PendingReason::table()) {
        QVERIFY2(!codes.contains(QLatin1String(row.code)), row.code);
        codes.insert(QLatin1String(row.code));
        QVERIFY(QByteArray(row.words).endsWith('.'));
        QVERIFY(QByteArray(row.advice).size() > 5);
    }
    for (const char *needed : {"Priority", "Resources", "QOSMaxGRESPerUser", "AssocGrpGRES", "ReqNodeNotAvail",
                               "Dependency", "JobHeldUser", "AssocGrpBillingMinutes", "PartitionTimeLimit"})
        QVERIFY2(codes.contains(QLatin1String(needed)), needed);
    const PendingExplanation p = PendingReason::explain(QStringLiteral("Priority"));
    QVERIFY(p.known && !p.blocked);
    QVERIFY(p.words.contains(QLatin1String("higher priority")));
    QVERIFY(PendingReason::explain(QStringLiteral("QOSMaxGRESPerJob")).blocked);
    QVERIFY(PendingReason::explain(QStringLiteral("JobHeldUser")).advice.contains(QLatin1String("scontrol release")));
}

void TestEstimates::pendingReasonShapes()
{
    // squeue's %r with details, NODELIST(REASON)'s parentheses, nothing.
    const PendingExplanation nodes =
        PendingReason::explain(QStringLiteral("ReqNodeNotAvail, UnavailableNodes:tb-node[1-2]"));
    QCOMPARE(nodes.code, QStringLiteral("ReqNodeNotAvail"));
    QCOMPARE(nodes.detail, QStringLiteral("UnavailableNodes:tb-node[1-2]"));
    QVERIFY(nodes.known);
    const PendingExplanation maint =
        PendingReason::explain(QStringLiteral("(ReqNodeNotAvail, Reserved for maintenance)"));
    QVERIFY(maint.words.contains(QLatin1String("maintenance")));
    QVERIFY(maint.advice.contains(QLatin1String("after the maintenance")));
    QCOMPARE(PendingReason::explain(QStringLiteral("None")).code, QString());
    QCOMPARE(PendingReason::explain(QString()).known, false);
    // Not in the table: by family, or Slurm's word alone.
    const PendingExplanation fam = PendingReason::explain(QStringLiteral("AssocGrpNodeMinutes"));
    QVERIFY(fam.known && fam.blocked);
    QVERIFY(fam.words.contains(QLatin1String("your project")));
    const PendingExplanation running = PendingReason::explain(QStringLiteral("AssocGrpMemRunMinutes"));
    QVERIFY(running.known && !running.blocked);
    const PendingExplanation qosLimit = PendingReason::explain(QStringLiteral("QOSGrpNodeLimit"));
    QVERIFY(qosLimit.known && !qosLimit.blocked);
    const PendingExplanation other = PendingReason::explain(QStringLiteral("FrontEndDown"));
    QCOMPARE(other.code, QStringLiteral("FrontEndDown"));
    QVERIFY(!other.known);
    // Hostile: a huge reason is cut, never scanned whole.
    QVERIFY(PendingReason::explain(QStringLiteral("x,").repeated(500000)).code.size() <= 400);
}

void TestEstimates::queueWaitMedians()
{
    const QList<QueueWait> waits{{"tb", "gpu", 1, 10},   {"tb", "gpu", 1, 30},     {"tb", "gpu", 1, 7200},
                                 {"tb", "gpu", 4, 600},  {"tb", "gpu", 4, 1200},   {"tb", "gputest", 1, 5},
                                 {"other", "gpu", 1, 1}, {"tb", "gpu", 1, qQNaN()}};
    const QList<QueueWaitMedian> m = QueueWaitStats::medians(waits);
    QCOMPARE(m.size(), 4);
    const auto gpu1 = QueueWaitStats::find(m, "tb", "gpu", 1);
    QVERIFY(gpu1);
    QCOMPARE(gpu1->jobs, 3);
    QCOMPARE(gpu1->medianSeconds, 30.0);
    QCOMPARE(QueueWaitStats::find(m, "tb", "gpu", 4)->medianSeconds, 900.0);
    QCOMPARE(QueueWaitStats::find(m, "tb", "gpu", 4)->text(), QStringLiteral("median past wait about 15 min (2 jobs)"));
    QVERIFY(!QueueWaitStats::find(m, "tb", "gpumedium", 4));
}

void TestEstimates::pendingRunInWords()
{
    RunRecord r;
    r.clusterAlias = QStringLiteral("tb");
    r.partition = QStringLiteral("gpu");
    r.gpus = 4;
    r.jobId = QStringLiteral("44");
    r.state = JobState::Pending;
    r.reason = QStringLiteral("QOSMaxGRESPerUser");
    r.expectedStart = QStringLiteral("2026-11-27T08:24:58");
    const QList<QueueWaitMedian> m = QueueWaitStats::medians({{"tb", "gpu", 4, 600}, {"tb", "gpu", 4, 1200}});
    const PendingRunInfo p = PendingRunText::of(r, m);
    QVERIFY(p.pending && !p.blocked);
    QCOMPARE(p.reason, QStringLiteral("QOSMaxGRESPerUser"));
    QCOMPARE(p.text(),
             QStringLiteral("Waits: Your QOS limits the GPUs one researcher may use at once, and your running "
                            "jobs use them. (QOSMaxGRESPerUser) It starts when enough of your other jobs "
                            "end; or cancel one, or ask for fewer GPUs. Expected start 2026-11-27 08:24:58 "
                            "(cluster time). Your jobs like it: median past wait about 15 min (2 jobs)."));
    r.reason = QStringLiteral("ReqNodeNotAvail, Reserved for maintenance");
    r.expectedStart.clear();
    const PendingRunInfo maint = PendingRunText::of(r, {});
    QCOMPARE(maint.reason, QStringLiteral("ReqNodeNotAvail, Reserved for maintenance"));
    QVERIFY(maint.text().contains(QLatin1String("reserved for a maintenance")));
    QVERIFY(maint.text().contains(QLatin1String("Slurm has no expected start yet.")));
    r.state = JobState::Running;
    QVERIFY(!PendingRunText::of(r, m).pending);
    QCOMPARE(PendingRunText::of(r, m).text(), QString());
}

void TestEstimates::billingWeights()
{
    // slurm.conf's own example: CPU=1.0,Mem=0.25G,GRES/gpu=2.0.
    const BillingWeights w = BillingWeights::parse(QStringLiteral("CPU=1.0,Mem=0.25G,GRES/gpu=2.0"));
    QVERIFY(w.diagnostics.isEmpty());
    TresRequest r;
    r.cpus = 8;
    r.memMB = 16 * 1024.0;
    r.gpus = 4;
    r.nodes = 1;
    QCOMPARE(*w.billingOf(r), 8 * 1.0 + 16 * 0.25 + 4 * 2.0);
    // Mem without a suffix: per MB. A typed GPU weight counts only GPUs of that type, beside the untyped one.
    const BillingWeights typed = BillingWeights::parse(QStringLiteral("mem=0.001,gres/gpu:a100=10,GRES/gpu=1,node=2"));
    r.gpuType = QStringLiteral("a100");
    QCOMPARE(*typed.billingOf(r), 16 * 1024 * 0.001 + 4 * 10 + 4 * 1 + 2);
    r.gpuType = QStringLiteral("v100");
    QCOMPARE(*typed.billingOf(r), 16 * 1024 * 0.001 + 4 * 1 + 2);
    // Memory weighted but not known: no billing, not a guess.
    r.memMB.reset();
    QVERIFY(!typed.billingOf(r).has_value());
    // Broken items are named and left out.
    const BillingWeights bad = BillingWeights::parse(QStringLiteral("CPU=abc,GRES/gpu=-1,=3,node,gres/gpu=4"));
    QCOMPARE(bad.diagnostics.size(), 4);
    QCOMPARE(bad.perUnit.size(), 1);
}

void TestEstimates::jobCost()
{
    const ClusterProfile p = billedTestbed(QStringLiteral("CPU=1.0,Mem=0.25G,GRES/gpu=2.0"));
    JobSpec s = test::testbedSpec(QStringLiteral("cost"), 4, QStringLiteral("/tmp/x.py"));
    s.time = QStringLiteral("02:00:00");
    s.cpusPerGpu = 2;
    s.memory = QStringLiteral("8G");
    const JobCost c = JobCostEstimator::estimate(s, p);
    QCOMPARE(*c.hours, 2.0);
    QCOMPARE(*c.gpuHours, 8.0);
    // 8 CPUs + 8 GB x 0.25 + 4 GPUs x 2 = 18 per hour.
    QCOMPARE(*c.billingPerHour, 18.0);
    QCOMPARE(*c.billingUnits, 36.0);
    QCOMPARE(c.summary(), QStringLiteral("8 GPU-hours, 36 billing units (18 per hour × 02:00:00, the time limit)"));
    // No --time: the partition's maximum, said so.
    s.time.clear();
    s.partition = QStringLiteral("gputest");
    const JobCost max = JobCostEstimator::estimate(s, p);
    QCOMPARE(*max.hours, 0.25);
    QCOMPARE(max.timeFrom, QStringLiteral("the partition's maximum time"));
    QCOMPARE(max.summary(), QStringLiteral("1 GPU-hour, 4.50 billing units (18 per hour × 00:15:00, the partition's "
                                           "maximum time)"));
}

void TestEstimates::jobCostUnknownNeverGuessed()
{
    // The shipped testbed profile states no TRESBillingWeights: GPU-hours yes, billing unknown with why.
    JobSpec s = test::testbedSpec(QStringLiteral("cost"), 2, QStringLiteral("/tmp/x.py"));
    const JobCost c = JobCostEstimator::estimate(s, test::repoProfile(QStringLiteral("testbed")));
    QCOMPARE(*c.gpuHours, 2 * 5.0 / 60.0);
    QVERIFY(!c.billingUnits && !c.billingPerHour);
    QVERIFY(c.summary().contains(QLatin1String("billing unknown: the profile states no TRESBillingWeights for gpu")));
    s.time = QStringLiteral("soon");
    const JobCost bad = JobCostEstimator::estimate(s, billedTestbed(QStringLiteral("GRES/gpu=1")));
    QVERIFY(!bad.gpuHours && !bad.billingUnits);
    QVERIFY(bad.unknownWhy.contains(QLatin1String("\"soon\" is not a Slurm time")));
}

void TestEstimates::studyCostIsTheSumOfItsRuns()
{
    const ClusterProfile p = billedTestbed(QStringLiteral("CPU=0.5,GRES/gpu=4,Mem=0.1G"));
    JobSpec base = test::testbedSpec(QStringLiteral("study"), 1, QStringLiteral("/tmp/x.py"));
    base.time = QStringLiteral("00:30:00");
    const QList<JobSpec> runs = planStudy(base, {1, 2, 4, 8}, {}, p, 2);
    QCOMPARE(runs.size(), 8);
    QList<JobCost> costs;
    double gpuHours = 0, billing = 0;
    for (const JobSpec &r : runs) {
        costs << JobCostEstimator::estimate(r, p);
        gpuHours += *costs.back().gpuHours;
        billing += *costs.back().billingUnits;
    }
    const StudyCost total = JobCostEstimator::total(costs);
    QCOMPARE(total.runs, 8);
    QCOMPARE(*total.gpuHours, gpuHours);
    QCOMPARE(*total.gpuHours, 2 * (1 + 2 + 4 + 8) * 0.5);
    QCOMPARE(*total.billingUnits, billing);
    QVERIFY(billing > gpuHours * 4);   // GPUs alone weigh 4; CPUs and memory add
    // One run without a number: no total, the count said.
    costs[3].billingUnits.reset();
    costs[3].unknownWhy = QStringLiteral("why");
    const StudyCost partial = JobCostEstimator::total(costs);
    QVERIFY(!partial.billingUnits);
    QCOMPARE(partial.runsWithoutBilling, 1);
    QVERIFY(partial.summary().contains(QLatin1String("billing unknown for 1 of 8 runs")));
}

void TestEstimates::allocationFromSshare()
{
    // Real 22.05 and 24.11 captures: no GrpTRESMins on the testbed's association -> unknown.
    for (const QString &v : {QStringLiteral("22.05"), QStringLiteral("24.11")}) {
        const QList<Capture> c = captures(QStringLiteral("sshare-allocation-%1.txt").arg(v));
        const QString row = c[0].text.trimmed();
        const QStringList f = row.split(QLatin1Char('|'));
        const RemainingAllocation a = SshareAllocationParser::parse(f.mid(0, 4).join(QLatin1Char('|')));
        QVERIFY(!a.known);
        QVERIFY(a.text().startsWith(QLatin1String("remaining allocation: unknown")));
    }
    // The same row with a limit on the account and one on the researcher: the tighter billing wins.
    const RemainingAllocation a = SshareAllocationParser::parse(
        QStringLiteral("project_2001234||billing=60000,gres/gpu=12000|cpu=3,billing=30000,gres/gpu=300\n"
                       "project_2001234|researcher|billing=36000|cpu=3,billing=12000,gres/gpu=3\n"));
    QVERIFY(a.known);
    QCOMPARE(a.tres, QStringLiteral("billing"));
    QCOMPARE(a.remainingMinutes, 24000.0);
    QCOMPARE(a.text(), QStringLiteral("remaining allocation: 400.0 of 600.0 billing-hours (project_2001234)"));
    // Only GPUs limited; usage beyond the limit stays at 0 left.
    const RemainingAllocation g =
        SshareAllocationParser::parse(QStringLiteral("p|r|gres/gpu=600|gres/gpu=900,billing=5\n"));
    QCOMPARE(g.tres, QStringLiteral("gres/gpu"));
    QCOMPARE(g.remainingMinutes, 0.0);
    // A line of another shape is named.
    QCOMPARE(SshareAllocationParser::parse(QStringLiteral("a|b\n")).diagnostics.size(), 1);
}

// After the run: what accounting says it used (IngestService's gpu_hours and billing_hours).
void TestEstimates::usedCostFromAccounting()
{
    const UsedCost u = UsedCost::of({{1, "elapsed_s", 600, "s", "sacct"},
                                     {1, "gpu_hours", 4.0 / 6.0, "GPU h", "sacct"},
                                     {1, "billing_hours", 8.0 / 6.0, "billing h", "sacct"}});
    QCOMPARE(u.text(),
             QStringLiteral("Used 0.67 GPU-hours, 1.33 billing units (Slurm accounting: allocated × elapsed)."));
    QVERIFY(!UsedCost::of({{1, "elapsed_s", 600, "s", "sacct"}}).known());
    QCOMPARE(UsedCost::of({}).text(), QString());
}

QTEST_GUILESS_MAIN(TestEstimates)
#include "tst_estimates.moc"
