// SPDX-License-Identifier: GPL-3.0-or-later
// Parsers for squeue/sacct output, on real outputs of the testbed cluster
// (tests/data/slurm-samples) and on malformed input.
#include "core/slurm/SacctParser.h"
#include "core/slurm/SlurmJobState.h"
#include "core/slurm/SqueueParser.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTest>

using namespace scalelab;

namespace {
QByteArray sample(const QString &name)
{
    QFile f(QStringLiteral(SCALELAB_TEST_DATA_DIR "/slurm-samples/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing sample %s", qPrintable(name));
    return f.readAll();
}

const SqueueRow *findRow(const QList<SqueueRow> &rows, const QString &id)
{
    for (const auto &r : rows)
        if (r.jobId == id)
            return &r;
    return nullptr;
}

const SacctRecord *findRecord(const QList<SacctRecord> &recs, const QString &id)
{
    for (const auto &r : recs)
        if (r.jobId == id)
            return &r;
    return nullptr;
}
}   // namespace

class TestSlurmParsers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jobStateParsing_data();
    void jobStateParsing();
    void jobStateTerminalAndNames();

    void squeueSampleFormat();
    void squeueSampleLongFormat();
    void squeueDefaultLayoutWithHostileName();
    void squeueMalformedLines();
    void squeueControllerDown();
    void squeueFormatArgumentIsPlainText();

    void sacctParsable2All();
    void sacctDdpStepsMerge();
    void sacctNoHeaderX();
    void sacctDefaultLayoutWithHostileName();
    void sacctMalformedLines();
    void sacctHelpers();
    void randomGarbageNeverCrashes();
};

void TestSlurmParsers::jobStateParsing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<JobState>("state");
    QTest::newRow("long") << "RUNNING" << JobState::Running;
    QTest::newRow("short R") << "R" << JobState::Running;
    QTest::newRow("short PD") << "PD" << JobState::Pending;
    QTest::newRow("short CG") << "CG" << JobState::Completing;
    QTest::newRow("short CD") << "CD" << JobState::Completed;
    QTest::newRow("short F") << " F " << JobState::Failed;
    QTest::newRow("short CA") << "CA" << JobState::Cancelled;
    QTest::newRow("short TO") << "TO" << JobState::Timeout;
    QTest::newRow("short OOM") << "OOM" << JobState::OutOfMemory;
    QTest::newRow("cancelled by") << "CANCELLED by 1001" << JobState::Cancelled;
    QTest::newRow("cancelled plus") << "CANCELLED+" << JobState::Cancelled;
    QTest::newRow("lower") << "timeout" << JobState::Timeout;
    QTest::newRow("node fail") << "NODE_FAIL" << JobState::NodeFail;
    QTest::newRow("oom long") << "OUT_OF_MEMORY" << JobState::OutOfMemory;
    QTest::newRow("special exit") << "SPECIAL_EXIT" << JobState::SpecialExit;
    QTest::newRow("requeued") << "REQUEUED" << JobState::Requeued;
    QTest::newRow("requeue hold") << "REQUEUE_HOLD" << JobState::Requeued;
    QTest::newRow("configuring") << "CONFIGURING" << JobState::Configuring;
    QTest::newRow("empty") << "" << JobState::Unknown;
    QTest::newRow("nonsense") << "WHATEVER" << JobState::Unknown;
}

void TestSlurmParsers::jobStateParsing()
{
    QFETCH(QString, text);
    QFETCH(JobState, state);
    QCOMPARE(SlurmJobState::parse(text), state);
}

void TestSlurmParsers::jobStateTerminalAndNames()
{
    QVERIFY(SlurmJobState::isTerminal(JobState::Completed));
    QVERIFY(SlurmJobState::isTerminal(JobState::Timeout));
    QVERIFY(SlurmJobState::isTerminal(JobState::Cancelled));
    QVERIFY(!SlurmJobState::isTerminal(JobState::Pending));
    QVERIFY(!SlurmJobState::isTerminal(JobState::Running));
    QVERIFY(!SlurmJobState::isTerminal(JobState::Completing));
    QVERIFY(!SlurmJobState::isTerminal(JobState::Requeued));
    QVERIFY(!SlurmJobState::isTerminal(JobState::Unknown));
    for (int i = int(JobState::Unknown); i <= int(JobState::SpecialExit); ++i) {
        const auto s = JobState(i);
        QVERIFY(!SlurmJobState::displayName(s).isEmpty());
        if (s != JobState::Unknown)
            QCOMPARE(SlurmJobState::parse(SlurmJobState::id(s)), s);
    }
    QCOMPARE(SlurmJobState::id(JobState::OutOfMemory), QStringLiteral("OUT_OF_MEMORY"));
}

void TestSlurmParsers::squeueSampleFormat()
{
    // squeue --noheader --format='%i|%P|%j|%u|%T|%M|%l|%D|%R|%b'
    SqueueParser p(QStringList{"%i", "%P", "%j", "%u", "%T", "%M", "%l", "%D", "%R", "%b"}, "|");
    const auto r = p.parse(sample("squeue-noheader-format.txt"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    QVERIFY(!r.controllerDown);
    QCOMPARE(r.rows.size(), 10);
    const SqueueRow *six = findRow(r.rows, "6");
    QVERIFY(six);
    QCOMPARE(six->state, JobState::Pending);
    QCOMPARE(six->reason, QStringLiteral("Resources"));
    QCOMPARE(six->partition, QStringLiteral("gpumedium"));
    QCOMPARE(six->nodes, 2);
    QCOMPARE(six->tresPerNode, QStringLiteral("gres:gpu:4"));
    const SqueueRow *two = findRow(r.rows, "2");
    QVERIFY(two);
    QCOMPARE(two->state, JobState::Running);
    QCOMPARE(two->nodeList, QStringLiteral("tb-node[1-2]"));
    QCOMPARE(two->name, QStringLiteral("running-2node"));
    QCOMPARE(two->timeLimit, QStringLiteral("10:00"));
    QCOMPARE(findRow(r.rows, "4")->state, JobState::Failed);
    QCOMPARE(findRow(r.rows, "4")->reason, QStringLiteral("NonZeroExitCode"));
    QCOMPARE(findRow(r.rows, "5")->state, JobState::Cancelled);
    QCOMPARE(findRow(r.rows, "10")->nodeList, QString());
}

void TestSlurmParsers::squeueSampleLongFormat()
{
    // -O output padded with spaces; fields are trimmed.
    SqueueParser p(QStringList{"%i", "%P", "%j", "%T", "%M", "%l", "%D", "%R", "%b", "%S"}, "|");
    const auto r = p.parse(sample("squeue-noheader-Format-long.txt"));
    QVERIFY(r.diagnostics.isEmpty());
    QCOMPARE(r.rows.size(), 10);
    QCOMPARE(findRow(r.rows, "8")->startTime, QStringLiteral("N/A"));
    QCOMPARE(findRow(r.rows, "1")->startTime, QStringLiteral("2026-11-22T10:08:24"));
    QCOMPARE(findRow(r.rows, "3")->state, JobState::Completed);
}

void TestSlurmParsers::squeueDefaultLayoutWithHostileName()
{
    const QString d = SqueueParser::delimiter();
    const QStringList cols{"42",
                           "PENDING",
                           "Resources",
                           "gpu",
                           "0:00",
                           "1:00:00",
                           "2",
                           "",
                           "gres:gpu:4",
                           "2026-11-22T10:08:24",
                           "N/A",
                           "/home/researcher/.scalelab/runs/sl-0123456789abcdef",
                           "sl-0123456789abcdef",
                           "  my job |~| with ' and \" and $(x)"};
    const QByteArray out =
        (cols.join(d) + "\n43" + d + "RUNNING" + d + "None" + d + "gpu" + d + "1:02" + d + "10:00" + d + "1" + d
         + "tb-node1" + d + "N/A" + d + "x" + d + "y" + d + "/tmp" + d + "(null)" + d + "\n")
            .toUtf8();
    const auto r = SqueueParser().parse(out);
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    QCOMPARE(r.rows.size(), 2);
    QCOMPARE(r.rows[0].name, QStringLiteral("  my job |~| with ' and \" and $(x)"));
    QCOMPARE(r.rows[0].comment, QStringLiteral("sl-0123456789abcdef"));
    QCOMPARE(r.rows[0].workDir, QStringLiteral("/home/researcher/.scalelab/runs/sl-0123456789abcdef"));
    QCOMPARE(r.rows[0].state, JobState::Pending);
    QCOMPARE(r.rows[0].nodes, 2);
    QCOMPARE(r.rows[1].comment, QString());
    QCOMPARE(r.rows[1].name, QString());
    QCOMPARE(r.rows[1].nodeList, QStringLiteral("tb-node1"));
}

void TestSlurmParsers::squeueMalformedLines()
{
    const QString d = SqueueParser::delimiter();
    QStringList good{"7", "RUNNING", "None", "gpu", "0:01", "5:00", "1", "tb-node1", "N/A", "a", "b", "/w", "c", "n"};
    QStringList badId = good;
    badId[0] = "7;rm -rf";
    QStringList badNodes = good;
    badNodes[6] = "two";
    const QByteArray out = (QStringLiteral("garbage line\n") + good.join(d) + "\n" + badId.join(d) + "\n\n"
                            + badNodes.join(d) + "\n" + "1" + d + "2\n")
                               .toUtf8();
    const auto r = SqueueParser().parse(out);
    QCOMPARE(r.rows.size(), 1);
    QCOMPARE(r.rows[0].line, 2);
    QCOMPARE(r.diagnostics.size(), 4);
    QCOMPARE(r.diagnostics[0].line, 1);
    QVERIFY(r.diagnostics[0].message.contains("garbage line"));
    QCOMPARE(r.diagnostics[1].line, 3);
    QVERIFY(r.diagnostics[1].message.contains("invalid job id"));
    QCOMPARE(r.diagnostics[2].line, 5);
    QCOMPARE(r.diagnostics[3].line, 6);
    QVERIFY(r.diagnostics[3].message.contains("expected 14"));
    for (const auto &diag : r.diagnostics)
        QCOMPARE(diag.severity, Severity::Warning);
}

void TestSlurmParsers::squeueControllerDown()
{
    const QByteArray text = sample("slurmctld-down.txt");
    QVERIFY(SqueueParser::isControllerDown(text));
    const auto r =
        SqueueParser().parse({}, "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
    QVERIFY(r.controllerDown);
    QVERIFY(r.rows.isEmpty());
    QCOMPARE(r.controllerMessage,
             QStringLiteral("slurm_load_jobs error: Unable to contact slurm controller (connect failure)"));
    QVERIFY(!SqueueParser::isControllerDown("squeue: error: Invalid user\n"));
}

void TestSlurmParsers::squeueFormatArgumentIsPlainText()
{
    const QString arg = SqueueParser::formatArgument();
    QVERIFY(arg.startsWith("--format=%i"));
    QVERIFY(arg.endsWith("%k|~|%j"));   // user text last
    for (QChar c : arg)
        QVERIFY(c.unicode() >= 0x20 && c.unicode() < 0x7f);
    for (const QString &a : SacctParser::formatArguments())
        for (QChar c : a)
            QVERIFY(c.unicode() >= 0x20 && c.unicode() < 0x7f);
    QVERIFY(SacctParser::defaultFields().last() == "JobName");
}

void TestSlurmParsers::sacctParsable2All()
{
    const auto r = SacctParser::parseWithHeader(sample("sacct-parsable2-all.txt"));
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    QCOMPARE(r.records.size(), 10);
    const SacctRecord *timeout = findRecord(r.records, "1");
    QVERIFY(timeout);
    QCOMPARE(timeout->state, JobState::Timeout);
    QCOMPARE(timeout->maxRss, QStringLiteral("62056K"));   // from the .batch step
    QCOMPARE(timeout->maxRssBytes(), 62056LL * 1024);
    QCOMPARE(timeout->steps.size(), 1);
    QCOMPARE(timeout->steps[0].stepId, QStringLiteral("batch"));
    QCOMPARE(timeout->steps[0].state, JobState::Cancelled);
    QCOMPARE(timeout->steps[0].exitCode, QStringLiteral("0:15"));
    QCOMPARE(timeout->elapsed, QStringLiteral("00:01:24"));
    QCOMPARE(timeout->timelimit, QStringLiteral("00:01:00"));
    QCOMPARE(timeout->allocatedGpus(), 1);
    QCOMPARE(timeout->rawLines.size(), 2);
    const SacctRecord *failed = findRecord(r.records, "4");
    QCOMPARE(failed->state, JobState::Failed);
    QCOMPARE(failed->exitStatus(), 3);
    QCOMPARE(failed->exitSignal(), 0);
    QCOMPARE(failed->allocatedGpus(), 0);
    const SacctRecord *cancelled = findRecord(r.records, "5");
    QCOMPARE(cancelled->state, JobState::Cancelled);
    QCOMPARE(cancelled->stateText, QStringLiteral("CANCELLED by 1001"));
    const SacctRecord *running = findRecord(r.records, "2");
    QCOMPARE(running->state, JobState::Running);
    QCOMPARE(running->allocatedGpus(), 4);
    QCOMPARE(running->end, QStringLiteral("Unknown"));
    QCOMPARE(running->nodeList, QStringLiteral("tb-node[1-2]"));
    QCOMPARE(findRecord(r.records, "7")->reason, QStringLiteral("JobHeldUser"));
    QCOMPARE(findRecord(r.records, "3")->state, JobState::Completed);
    QCOMPARE(findRecord(r.records, "3")->submit, QStringLiteral("2026-11-22T10:08:24"));
}

void TestSlurmParsers::sacctDdpStepsMerge()
{
    // ddp-runs.txt holds two sacct tables between other output.
    const QStringList lines = QString::fromUtf8(sample("ddp-runs.txt")).split('\n');
    QList<SacctRecord> all;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines[i].startsWith("JobID|"))
            continue;
        QStringList table{lines[i]};
        for (qsizetype j = i + 1; j < lines.size() && !lines[j].startsWith("=="); ++j)
            table << lines[j];
        const auto r = SacctParser::parseWithHeader(table.join('\n').toUtf8());
        QVERIFY(r.diagnostics.isEmpty());
        all << r.records;
    }
    QCOMPARE(all.size(), 2);
    const SacctRecord *one = findRecord(all, "52");
    QCOMPARE(one->maxRss, QStringLiteral("843688K"));
    QCOMPARE(one->allocatedGpus(), 2);
    const SacctRecord *two = findRecord(all, "53");
    QCOMPARE(two->steps.size(), 2);
    QCOMPARE(two->maxRss, QStringLiteral("541676K"));   // the largest step (.0), not .batch
    QCOMPARE(two->allocatedGpus(), 8);
    QCOMPARE(two->totalCpu, QStringLiteral("00:09.385"));
}

void TestSlurmParsers::sacctNoHeaderX()
{
    SacctParser p(QStringList{"JobID", "JobName", "State", "ExitCode", "Elapsed", "AllocTRES"}, "|");
    const auto r = p.parse(sample("sacct-parsable2-noheader-X.txt"));
    QVERIFY(r.diagnostics.isEmpty());
    QCOMPARE(r.records.size(), 10);
    QCOMPARE(findRecord(r.records, "10")->state, JobState::Cancelled);
    QCOMPARE(findRecord(r.records, "6")->allocTres, QString());
}

void TestSlurmParsers::sacctDefaultLayoutWithHostileName()
{
    const QString d = SacctParser::delimiter();
    const QStringList fields = SacctParser::defaultFields();
    QStringList job;
    QStringList batch;
    for (const QString &f : fields) {
        QString v;
        QString b;
        if (f == "JobID") {
            v = "77";
            b = "77.batch";
        } else if (f == "State") {
            v = "OUT_OF_MEMORY";
            b = "OUT_OF_MEMORY";
        } else if (f == "ExitCode") {
            v = "0:125";
            b = "0:125";
        } else if (f == "AllocTRES") {
            v = "billing=4,cpu=4,gres/gpu:v100=4,gres/gpu=4,mem=4000M,node=1";
            b = v;
        } else if (f == "MaxRSS")
            b = "1.50G";
        else if (f == "TRESUsageInMax")
            b = "cpu=00:00:01,mem=1.50G";
        else if (f == "AllocCPUS") {
            v = "4";
            b = "4";
        } else if (f == "Comment")
            v = "sl-00112233445566ff";
        else if (f == "WorkDir") {
            v = "/home/r/.scalelab/runs/sl-00112233445566ff";
            b = v;
        } else if (f == "JobName") {
            v = "name |~| with |~| delimiters";
            b = "batch";
        }
        job << v;
        batch << b;
    }
    const auto r = SacctParser().parse((job.join(d) + "\n" + batch.join(d) + "\n").toUtf8());
    QVERIFY2(r.diagnostics.isEmpty(), qPrintable(r.diagnostics.value(0).message));
    QCOMPARE(r.records.size(), 1);
    const SacctRecord &rec = r.records[0];
    QCOMPARE(rec.jobName, QStringLiteral("name |~| with |~| delimiters"));
    QCOMPARE(rec.comment, QStringLiteral("sl-00112233445566ff"));
    QCOMPARE(rec.state, JobState::OutOfMemory);
    QCOMPARE(rec.maxRss, QStringLiteral("1.50G"));
    QCOMPARE(rec.maxRssBytes(), qint64(1.5 * 1024 * 1024 * 1024));
    QCOMPARE(rec.tresUsageInMax, QStringLiteral("cpu=00:00:01,mem=1.50G"));
    QCOMPARE(rec.allocCpus, 4);
    QCOMPARE(rec.allocatedGpus(), 4);
    QCOMPARE(rec.exitSignal(), 125);
}

void TestSlurmParsers::sacctMalformedLines()
{
    SacctParser p(QStringList{"JobID", "State", "ExitCode"}, "|");
    const auto r = p.parse("12|COMPLETED|0:0\nabc|FAILED|1:0\n12.|X|0:0\n13|RUNNING\n14|PENDING|0:0|extra\n"
                           "\xff\xfe|\x01|\n15|COMPLETED|0:0\n");
    QCOMPARE(r.records.size(), 2);
    QCOMPARE(r.diagnostics.size(), 5);
    QCOMPARE(r.diagnostics[0].line, 2);
    QVERIFY(r.diagnostics[0].message.contains("invalid job id"));
    QCOMPARE(r.diagnostics[2].line, 4);
    QVERIFY(r.diagnostics[2].message.contains("has 2 fields, expected 3"));
    QCOMPARE(r.diagnostics[3].line, 5);
    // control characters never reach a message
    for (const auto &diag : r.diagnostics)
        for (QChar c : diag.message)
            QVERIFY(c.unicode() >= 0x20);
    const auto noId = SacctParser(QStringList{"State"}, "|").parse("COMPLETED\n");
    QCOMPARE(noId.records.size(), 0);
    QCOMPARE(noId.diagnostics.size(), 1);
    QVERIFY(SacctParser::parseWithHeader("").records.isEmpty());
}

void TestSlurmParsers::sacctHelpers()
{
    QCOMPARE(SacctParser::sizeToBytes("62056K"), 62056LL * 1024);
    QCOMPARE(SacctParser::sizeToBytes("2M"), 2LL * 1024 * 1024);
    QCOMPARE(SacctParser::sizeToBytes("0"), 0LL);
    QCOMPARE(SacctParser::sizeToBytes(""), -1LL);
    QCOMPARE(SacctParser::sizeToBytes("12Q"), -1LL);
    QCOMPARE(SacctParser::sizeToBytes("abcK"), -1LL);
    QCOMPARE(SacctParser::tresValue("billing=2,cpu=2,gres/gpu:v100=2,gres/gpu=2,mem=2000M,node=1", "gres/gpu"),
             QStringLiteral("2"));
    QCOMPARE(SacctParser::tresValue("cpu=2,mem=2000M", "mem"), QStringLiteral("2000M"));
    QCOMPARE(SacctParser::tresValue("cpu=2", "gres/gpu"), QString());
}

void TestSlurmParsers::randomGarbageNeverCrashes()
{
    auto *rng = QRandomGenerator::global();
    const QByteArray alphabet = "0123456789|~._ \nabcRUNNING\x00\xff\t";
    for (int round = 0; round < 300; ++round) {
        QByteArray junk;
        const int len = rng->bounded(400);
        for (int i = 0; i < len; ++i)
            junk += alphabet.at(rng->bounded(alphabet.size()));
        const auto s = SqueueParser().parse(junk, junk);
        const auto a = SacctParser().parse(junk);
        const auto h = SacctParser::parseWithHeader(junk);
        Q_UNUSED(s);
        Q_UNUSED(a);
        Q_UNUSED(h);
    }
}

QTEST_GUILESS_MAIN(TestSlurmParsers)
#include "tst_slurmparsers.moc"
