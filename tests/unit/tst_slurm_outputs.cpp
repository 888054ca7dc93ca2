// SPDX-License-Identifier: GPL-3.0-or-later
// Real Slurm outputs from 17.11 to 25.11 (../shared/slurm-outputs, read in
// place; provenance in its MANIFEST.md). One row per file: the layout it was
// printed in, and the values a human reads off it, written here by hand.
// Files in a layout ScaleLab never asks for must be refused with a message
// that names what was seen, never misread.
#include "core/slurm/SacctParser.h"
#include "core/slurm/ScontrolJobParser.h"
#include "core/slurm/SlurmTime.h"
#include "core/slurm/SqueueParser.h"
#include "core/slurm/TresString.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <functional>

using namespace scalelab;

namespace {

const QString kDir = QStringLiteral(SCALELAB_SHARED_DIR "/slurm-outputs/");

QByteArray readShared(const QString &name)
{
    QFile f(kDir + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

const SacctRecord *rec(const SacctParseResult &r, const QString &id)
{
    for (const auto &x : r.records)
        if (x.jobId == id)
            return &x;
    return nullptr;
}

const SqueueRow *row(const SqueueParseResult &r, const QString &id)
{
    for (const auto &x : r.rows)
        if (x.jobId == id)
            return &x;
    return nullptr;
}

const ScontrolJob *job(const ScontrolJobParseResult &r, const QString &id)
{
    for (const auto &x : r.jobs)
        if (x.jobId() == id)
            return &x;
    return nullptr;
}

QString rules(const Diagnostics &d)
{
    QStringList out;
    for (const auto &x : d)
        out << QStringLiteral("%1@%2").arg(x.rule).arg(x.line);
    if (qEnvironmentVariableIsSet("SCALELAB_DEBUG_DIAG"))
        for (const auto &x : d)
            qWarning("%s", qPrintable(x.message));
    return out.join(QLatin1Char(' '));
}

QString firstMessage(const Diagnostics &d)
{
    return d.isEmpty() ? QString() : d.first().message;
}

QStringList split(const char *csv)
{
    return QString::fromLatin1(csv).split(QLatin1Char(','));
}

const QString kUnitSep = QString(QChar(0x1F));

// Refusal by every job-level reader: the file is not a job listing in any
// layout ScaleLab asks for. `shape` is the words the message must contain.
void checkRefusedEverywhere(const QByteArray &data, const QString &shape)
{
    const auto sq = SqueueParser().parse(data);
    QCOMPARE(sq.rows.size(), 0);
    QCOMPARE(rules(sq.diagnostics), QStringLiteral("squeue-layout@1"));
    QVERIFY2(firstMessage(sq.diagnostics).contains(shape), qPrintable(firstMessage(sq.diagnostics)));
    const auto sa = SacctParser().parse(data);
    QCOMPARE(sa.records.size(), 0);
    QCOMPARE(rules(sa.diagnostics), QStringLiteral("sacct-layout@1"));
    QVERIFY2(firstMessage(sa.diagnostics).contains(shape), qPrintable(firstMessage(sa.diagnostics)));
}

struct Case {
    QString file;
    std::function<void(const QByteArray &)> check;
};

QList<Case> cases()
{
    QList<Case> c;

    // ---------------------------------------------------------------- sacct
    c << Case{"sacct__OSC__unknown-2025__P-unitsep-n-unitsG-allocations.txt", [](const QByteArray &d) {
                  const SacctParser p(
                      split("User,Group,JobId,JobName,Elapsed,ReqMem,AllocCPUS,ReqCPUS,Timelimit,State,TotalCPU,"
                            "MaxRSS,Partition,Submit,Start,End,ReqTRES"),
                      kUnitSep);
                  const auto r = p.parse(d);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.records.size(), 3);
                  const auto *a = rec(r, "20251");
                  QVERIFY(a);
                  QCOMPARE(a->state, JobState::Pending);
                  QCOMPARE(a->start, QStringLiteral("Unknown"));
                  QCOMPARE(SlurmTime::parseTimestamp(a->start), std::nullopt);
                  QCOMPARE(SlurmTime::parseTimestamp(a->submit),
                           std::optional<qint64>(1735923297));   // 2025-01-03T16:54:57
                  QCOMPARE(a->allocCpus, 2);
                  QCOMPARE(a->lines.first().value("ReqTRES"), QStringLiteral("billing=2,cpu=2,gpu=1,mem=0.98G,node=2"));
                  // "gpu=1" is not a Slurm TRES name (Slurm prints gres/gpu): not counted.
                  QCOMPARE(TresString::parse(a->lines.first().value("ReqTRES")).gpuCount(), std::nullopt);
                  QCOMPARE(TresString::parseSizeBytes(QStringLiteral("0.98G")),
                           std::optional<double>(0.98 * 1024 * 1024 * 1024));
                  const auto *b = rec(r, "20252");
                  QVERIFY(b);
                  QCOMPARE(b->state, JobState::Running);
                  QCOMPARE(SlurmTime::parseSeconds(b->elapsed), std::optional<qint64>(13 * 60 + 47));
                  QCOMPARE(b->end, QStringLiteral("Unknown"));
                  const auto *x = rec(r, "5963565");
                  QVERIFY(x);
                  QCOMPARE(x->stateText, QStringLiteral("CANCELLED by 1001"));
                  QCOMPARE(x->state, JobState::Cancelled);
                  QCOMPARE(x->partition, QStringLiteral("interactive"));
              }};
    c << Case{"sacct__PrincetonUniversity__unknown__P-X-header-epochtime-gpu_utilization_missing.txt",
              [](const QByteArray &d) {
                  const auto r = SacctParser::parseWithHeader(d);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.records.size(), 1);
                  const auto &j = r.records.first();
                  QCOMPARE(j.jobId, QStringLiteral("845136"));   // from JobIDRaw: there is no JobID column
                  QCOMPARE(j.state, JobState::Completed);
                  // SLURM_TIME_FORMAT=%s was in force: UNIX seconds.
                  QCOMPARE(SlurmTime::parseTimestamp(j.start), std::optional<qint64>(1758532566));
                  QCOMPARE(*SlurmTime::parseTimestamp(j.end) - *SlurmTime::parseTimestamp(j.start), 19281);
                  QCOMPARE(j.allocatedGpus(), 1);
                  QCOMPARE(j.partition, QStringLiteral("cpu"));
                  QCOMPARE(j.jobName, QStringLiteral("onebitdiff_posterior_entropy_nsamples.sh"));
              }};
    c << Case{"sacct__PrincetonUniversity__unknown__P-X-header-epochtime-simple_cpu_job.txt", [](const QByteArray &d) {
                  const auto r = SacctParser::parseWithHeader(d);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.records.size(), 1);
                  const auto &j = r.records.first();
                  QCOMPARE(j.jobId, QStringLiteral("10920562"));
                  QCOMPARE(j.state, JobState::Running);
                  QCOMPARE(SlurmTime::parseTimestamp(j.start), std::optional<qint64>(1730212549));
                  QCOMPARE(SlurmTime::parseTimestamp(j.end), std::nullopt);   // "Unknown": still running
                  QCOMPARE(j.allocatedGpus(), 0);
                  QCOMPARE(TresString::parse(j.allocTres).count("cpu"), std::optional<double>(40));
              }};
    c << Case{"sacct__PrincetonUniversity__unknown__P-X-header-epochtime-simple_gpu_job.txt", [](const QByteArray &d) {
                  const auto r = SacctParser::parseWithHeader(d);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.records.size(), 1);
                  const auto &j = r.records.first();
                  QCOMPARE(j.jobId, QStringLiteral("60155093"));
                  QCOMPARE(j.allocatedGpus(), 1);
                  QCOMPARE(*SlurmTime::parseTimestamp(j.end) - *SlurmTime::parseTimestamp(j.start), 50944);
                  // The header says QOS before Partition (MANIFEST.md has the two swapped).
                  QCOMPARE(j.partition, QStringLiteral("gpu-shared"));
                  QCOMPARE(j.lines.first().value("QOS"), QStringLiteral("gpu-short"));
                  QCOMPARE(j.lines.first().value("TimelimitRaw"), QStringLiteral("990"));
              }};
    c << Case{"sacct__facebookincubator__unknown__o-JobID-State-parsable2-header.txt", [](const QByteArray &d) {
                  const auto r = SacctParser::parseWithHeader(d);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.records.size(), 3);
                  const auto *a = rec(r, "5610980");
                  QVERIFY(a);
                  QCOMPARE(a->state, JobState::Running);
                  QCOMPARE(a->steps.size(), 2);
                  QCOMPARE(a->steps[0].stepId, QStringLiteral("ext+"));   // truncated "extern"
                  QCOMPARE(a->steps[1].stepId, QStringLiteral("0"));
                  QCOMPARE(a->steps[1].state, JobState::Unknown);   // "RUNING": not a Slurm state
                  QCOMPARE(a->steps[1].stateText, QStringLiteral("RUNING"));
                  QVERIFY(rec(r, "20956421_0"));
                  const auto *range = rec(r, "20956421_[2-4%25]");
                  QVERIFY(range);
                  QCOMPARE(range->state, JobState::Pending);
              }};
    const auto troyFields12 =
        split("AdminComment,AllocCPUS,Elapsed,JobID,JobIDRaw,MaxRSS,NNodes,NTasks,ReqMem,State,Timelimit,TotalCPU");
    c << Case{"sacct__troycomi__unknown-pre21.08__parsable-n-caretdelim-12cols.txt",
              [troyFields12](const QByteArray &d) {
                  // The trailing "^|^" of --parsable is not a 13th field. Lines 5-10
                  // (array job 24220929) have no Timelimit (11 columns): refused here.
                  const auto r = SacctParser(troyFields12, QStringLiteral("^|^")).parse(d);
                  QCOMPARE(rules(r.diagnostics),
                           QStringLiteral("sacct-malformed-line@5 sacct-malformed-line@6 sacct-malformed-line@7 "
                                          "sacct-malformed-line@8 sacct-malformed-line@9 sacct-malformed-line@10"));
                  QVERIFY(r.diagnostics.first().message.contains("has 11 fields, expected 12"));
                  QCOMPARE(r.records.size(), 4);
                  const auto *a = rec(r, "24418435");
                  QVERIFY(a);
                  QCOMPARE(a->maxRss, QStringLiteral("499092K"));   // from the .batch step
                  QCOMPARE(a->timelimit, QStringLiteral("03:00:00"));
                  QCOMPARE(SlurmTime::parseSeconds(a->totalCpu), std::optional<qint64>(5249));
                  const auto *b = rec(r, "23000233");
                  QVERIFY(b);
                  QCOMPARE(b->stateText, QStringLiteral("CANCELLED by 129319"));
                  QCOMPARE(b->allocCpus, 16);
                  QCOMPARE(SlurmTime::parseSeconds(b->timelimit), std::optional<qint64>(6 * 86400));
                  QCOMPARE(rec(r, "23000381")->state, JobState::Failed);
                  QCOMPARE(rec(r, "23000210")->steps.size(), 2);
                  QCOMPARE(rec(r, "24220929_421"), nullptr);
                  // The same file in the 11-column layout reads exactly those lines.
                  QStringList f11 = troyFields12;
                  f11.removeAll(QStringLiteral("Timelimit"));
                  const auto r11 = SacctParser(f11, QStringLiteral("^|^")).parse(d);
                  QCOMPARE(r11.records.size(), 2);
                  QCOMPARE(r11.diagnostics.size(), 10);
                  const auto *c = rec(r11, "24220929_421");
                  QVERIFY(c);
                  QCOMPARE(c->state, JobState::Completed);
                  QCOMPARE(TresString::parseDurationSeconds(c->totalCpu), std::optional<double>(568.052));
                  QCOMPARE(c->maxRss, QStringLiteral("5664932K"));
                  QCOMPARE(rec(r11, "24220929_431")->state, JobState::Pending);
              }};
    c << Case{
        "sacct__troycomi__unknown-pre21.08__parsable-n-caretdelim-11cols-notimelimit.txt", [](const QByteArray &d) {
            const auto f =
                split("AdminComment,AllocCPUS,Elapsed,JobID,JobIDRaw,MaxRSS,NNodes,NTasks,ReqMem,State,TotalCPU");
            const auto r = SacctParser(f, QStringLiteral("^|^")).parse(d);
            QCOMPARE(rules(r.diagnostics), QString());
            QCOMPARE(r.records.size(), 2);
            const auto *a = rec(r, "25569410");
            QVERIFY(a);
            QCOMPARE(a->maxRss, QStringLiteral("62328K"));   // step .0 beats .extern's 1548K
            QCOMPARE(a->timelimit, QString());
            QCOMPARE(SlurmTime::parseSeconds(a->totalCpu), std::optional<qint64>(19 * 3600 + 28 * 60 + 36));
            // The 12-column layout on these 11-column lines: refused, not shifted.
            const auto shifted = SacctParser(split("AdminComment,AllocCPUS,Elapsed,JobID,JobIDRaw,MaxRSS,NNodes,NTasks,"
                                                   "ReqMem,State,Timelimit,TotalCPU"),
                                             QStringLiteral("^|^"))
                                     .parse(d);
            QCOMPARE(shifted.records.size(), 0);
            QCOMPARE(shifted.diagnostics.size(), 6);
            QVERIFY2(shifted.diagnostics.first().message.contains("has 11 fields, expected 12"),
                     qPrintable(shifted.diagnostics.first().message));
        }};
    c << Case{
        "sacct__troycomi__unknown__pipe-admincomment-gpu-multinode-rows.txt", [](const QByteArray &d) {
            const auto f =
                split("AdminComment,AllocCPUS,Elapsed,JobID,JobIDRaw,MaxRSS,NNodes,ReqMem,State,Timelimit,TotalCPU");
            const auto r = SacctParser(f, QStringLiteral("|")).parse(d);
            // Job 131042 was printed with a 12th column (NTasks): its 4 lines are refused.
            QCOMPARE(rules(r.diagnostics), QStringLiteral("sacct-malformed-line@9 sacct-malformed-line@10 "
                                                          "sacct-malformed-line@11 sacct-malformed-line@12"));
            QVERIFY(r.diagnostics.first().message.contains("has 12 fields, expected 11"));
            QCOMPARE(r.records.size(), 3);
            const auto *a = rec(r, "45352405");
            QVERIFY(a);
            QCOMPARE(a->stateText, QStringLiteral("CANCELLED by 349394"));
            QVERIFY(a->lines.first().value("AdminComment").startsWith("JS1:H4sI"));
            const auto *t = rec(r, "46044267");
            QVERIFY(t);
            QCOMPARE(t->state, JobState::Timeout);
            QCOMPARE(TresString::parseDurationSeconds(t->totalCpu), std::optional<double>(960361));   // 11-02:46:01
            QCOMPARE(t->allocCpus, 12);
            const auto *m = rec(r, "6196869");
            QVERIFY(m);
            QCOMPARE(m->allocCpus, 720);
            QCOMPARE(m->lines.first().value("NNodes"), QStringLiteral("20"));
            QCOMPARE(m->timelimit, QStringLiteral("UNLIMITED"));
            QCOMPARE(SlurmTime::parseSeconds(m->timelimit), std::nullopt);
            QCOMPARE(TresString::parseDurationSeconds(m->totalCpu), std::optional<double>(38988024));   // 451-06:00:24
            QCOMPARE(SlurmTime::parseSeconds(m->elapsed), std::optional<qint64>(12 * 86400 + 14 * 3600 + 16 * 60 + 39));
            QCOMPARE(m->maxRss, QStringLiteral("33824748K"));
            QCOMPARE(rec(r, "131042"), nullptr);
        }};
    c << Case{
        "sacct__rug-cit-hpc__unknown-ge21.08__parsable-noheader-snowmandelim-37cols.txt", [](const QByteArray &d) {
            const auto f =
                split("JobID,JobName,User,Partition,NodeList,NNodes,NCPUs,NTasks,State,Submit,Start,End,Timelimit,"
                      "Elapsed,TotalCPU,CPUTime,UserCPU,SystemCPU,ReqMem,MaxRSS,MaxVMSize,ReqTRES,AllocTRES,"
                      "TRESUsageInMax,TRESUsageInTot,TRESUsageOutTot,MaxDiskRead,MaxDiskWrite,MaxRSSNode,MaxRSSTask,"
                      "MaxVMSizeNode,MaxVMSizeTask,MaxDiskReadNode,MaxDiskReadTask,MaxDiskWriteNode,"
                      "MaxDiskWriteTask,Comment");
            QCOMPARE(f.size(), 37);
            const auto r = SacctParser(f, QStringLiteral("☃")).parse(d);
            QCOMPARE(rules(r.diagnostics), QString());
            QCOMPARE(r.records.size(), 100);
            QHash<JobState, int> states;
            int withGpus = 0;
            for (const auto &x : r.records) {
                states[x.state] += 1;
                withGpus += x.allocatedGpus() > 0;
            }
            QCOMPARE(states.value(JobState::Completed), 66);
            QCOMPARE(states.value(JobState::Cancelled), 8);
            QCOMPARE(states.value(JobState::Failed), 8);
            QCOMPARE(states.value(JobState::Pending), 7);
            QCOMPARE(states.value(JobState::Timeout), 7);
            QCOMPARE(states.value(JobState::Running), 3);
            QCOMPARE(states.value(JobState::NodeFail), 1);
            QCOMPARE(withGpus, 9);
            const auto *g = rec(r, "8150389");
            QVERIFY(g);
            QCOMPARE(g->stateText, QStringLiteral("CANCELLED by 33128806"));
            QCOMPARE(g->allocatedGpus(), 2);
            QCOMPARE(TresString::parse(g->allocTres).count("gres/gpu:a100"), std::optional<double>(2));
            QCOMPARE(g->nodeList, QStringLiteral("a100gpu3"));
            QCOMPARE(g->maxRss, QStringLiteral("25096524K"));
            QCOMPARE(TresString::parse(g->tresUsageInMax).count("gres/gpuutil"), std::optional<double>(100));
            QCOMPARE(g->comment, QString());   // the trailing ☃ of --parsable is not part of Comment
            QCOMPARE(SlurmTime::parseSeconds(g->elapsed), std::optional<qint64>(2 * 86400 + 21 * 3600 + 9 * 60 + 16));
            const auto *arr = rec(r, "5908801_3");
            QVERIFY(arr);
            QCOMPARE(arr->state, JobState::Completed);
            QCOMPARE(arr->allocatedGpus(), 0);
            const auto *none = rec(r, "4047445");
            QVERIFY(none);
            QCOMPARE(none->nodeList, QStringLiteral("None assigned"));
            QCOMPARE(SlurmTime::parseTimestamp(none->start), std::nullopt);   // "None"
        }};

    // ---------------------------------------------------------------- squeue
    c << Case{"squeue__OSC__unknown-2018__O-unitsep-allfields.txt", [](const QByteArray &d) {
                  const auto r = SqueueParser::parseWithHeader(d, kUnitSep);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.rows.size(), 2);
                  const auto *a = row(r, "5096321");
                  QVERIFY(a);
                  QCOMPARE(a->state, JobState::Completed);
                  QCOMPARE(a->tresPerNode, QStringLiteral("gres:gpu:1,gres:gpfs"));
                  QCOMPARE(TresString::gpusInGresRequest(a->tresPerNode), std::optional<int>(1));
                  QCOMPARE(a->name, QStringLiteral("Interact"));
                  QCOMPARE(a->timeLimit, QStringLiteral("1:00:00"));
                  const auto *b = row(r, "4320602");
                  QVERIFY(b);
                  QCOMPARE(b->state, JobState::Pending);
                  QCOMPARE(b->reason, QStringLiteral("Resources"));
                  QCOMPARE(b->nodes, 64);
                  QCOMPARE(b->startTime, QStringLiteral("N/A"));
                  QCOMPARE(TresString::gpusInGresRequest(b->tresPerNode), std::nullopt);   // gres:pfsdir:ess
              }};
    c << Case{"squeue__OSC__unknown-2024__O-unitsep-allfields-non_utf8_job_name.txt", [](const QByteArray &d) {
                  const auto r = SqueueParser::parseWithHeader(d, kUnitSep);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.rows.size(), 1);
                  const auto &a = r.rows.first();
                  QCOMPARE(a.jobId, QStringLiteral("29471683_9"));   // jobarrayid, the second JOBID column
                  QCOMPARE(a.name, QString(QChar(0xFFFD)) + QStringLiteral(" non-utf8"));
                  QCOMPARE(a.comment, QStringLiteral("stdout=/tmp/job.output"));
                  QCOMPARE(a.state, JobState::Completed);
                  QCOMPARE(TresString::gpusInGresRequest(a.tresPerNode), std::nullopt);   // gres/gpfs:ess:1
              }};
    c << Case{"squeue__OSC__unknown-2026__O-unitsep-allfields-null_submit_time.txt", [](const QByteArray &d) {
                  const auto r = SqueueParser::parseWithHeader(d, kUnitSep);
                  // Row 6779842 carries the separator inside its name: refused, not shifted.
                  QCOMPARE(rules(r.diagnostics), QStringLiteral("squeue-malformed-line@2"));
                  QCOMPARE(r.rows.size(), 3);
                  QCOMPARE(row(r, "6779842"), nullptr);
                  QCOMPARE(row(r, "6787542")->state, JobState::Running);
                  QCOMPARE(row(r, "6769365")->timeUsed, QStringLiteral("7:15:21"));
                  const auto *t = row(r, "6783828");
                  QVERIFY(t);
                  QCOMPARE(t->state, JobState::Timeout);
                  QCOMPARE(t->reason, QStringLiteral("TimeLimit"));
                  QCOMPARE(t->tresPerNode, QStringLiteral("N/A"));
                  QCOMPARE(t->comment, QString());   // "(null)"
              }};
    c << Case{"squeue__aau-claaudia__21.08.8-2__default-doc-capture-tabs-edited.txt",
              [](const QByteArray &d) { checkRefusedEverywhere(d, QStringLiteral("blank-aligned table")); }};
    c << Case{"squeue__aws__unknown-2020__r-O-200wide-gpu-tres.txt",
              [](const QByteArray &d) { checkRefusedEverywhere(d, QStringLiteral("blank-aligned table")); }};
    c << Case{
        "squeue__rug-cit-hpc__unknown__format-i-E-R-C-noheader.txt", [](const QByteArray &d) {
            checkRefusedEverywhere(d, QStringLiteral("unknown layout"));
            // Its own layout "%i|%E;%R;%C": the ids before the first '|'.
            const auto r = SqueueParser({QStringLiteral("%i"), QStringLiteral("-")}, QStringLiteral("|")).parse(d);
            QCOMPARE(rules(r.diagnostics), QString());
            QCOMPARE(r.rows.size(), 10);
            QVERIFY(row(r, "8322514_33"));
            QVERIFY(row(r, "7219441"));
        }};

    // ---------------------------------------------------------------- scontrol show job
    c << Case{"scontrol__irush-cs__mixed-17.11-to-2x__show-job-anonymised.txt", [](const QByteArray &d) {
                  const auto r = ScontrolJobParser::parse(d);
                  QCOMPARE(rules(r.diagnostics), QString());
                  QCOMPARE(r.jobs.size(), 9);
                  const auto *a = job(r, "153291");
                  QVERIFY(a);
                  QCOMPARE(a->state(), JobState::Running);
                  QCOMPARE(a->gpus().gpus, 4);
                  QCOMPARE(a->gpus().source, GpuCountSource::AllocTres);   // 22.05-style single TRES=
                  QCOMPARE(a->value("NumNodes"), QStringLiteral("1"));
                  const auto *arr = job(r, "2398617");
                  QVERIFY(arr);
                  QCOMPARE(arr->value("ArrayJobId"), QStringLiteral("2398463"));
                  QCOMPARE(arr->value("ArrayTaskId"), QStringLiteral("150"));
                  QCOMPARE(arr->gpus().gpus, 0);
                  QCOMPARE(arr->gpus().source, GpuCountSource::None);
                  const auto *p = job(r, "134238037");
                  QVERIFY(p);
                  QCOMPARE(p->state(), JobState::Pending);
                  QCOMPARE(p->value("Reason"), QStringLiteral("AssocGrpCpuLimit"));
                  QCOMPARE(p->reqTres(), QStringLiteral("cpu=4,mem=200M,node=1"));
                  QCOMPARE(p->allocTres(), QString());
                  const auto *t = job(r, "2423559");
                  QVERIFY(t);
                  QCOMPARE(t->value("TresPerNode"), QStringLiteral("gpu:1"));
                  QCOMPARE(t->gpus().gpus, 1);
                  const auto *typed = job(r, "25687666");
                  QVERIFY(typed);
                  QCOMPARE(typed->gpus().gpus, 1);   // gres/gpu=1, not + gres/gpu:rtx2080=1
                  QCOMPARE(TresString::gpusInGresRequest(typed->value("TresPerNode")),
                           std::optional<int>(1));   // gpu:rtx2080,gg:g0
                  QCOMPARE(job(r, "1")->value("NumNodes"), QStringLiteral("3"));
              }};

    // ---------------------------------------------------------------- not job listings
    // Node/partition/sinfo captures (read by the profile discovery parsers)
    // and slurmrestd JSON: every job-level text reader refuses them.
    for (const char *f :
         {"scontrol__OSC__unknown__show-part-o-owens.txt",
          "scontrol__aau-claaudia__21.08.8-2__show-node-doc-capture.txt",
          "scontrol__aws__22.05.7-and-23.02.4__show-nodes.txt", "scontrol__irush-cs__17.11__show-node-anonymised.txt",
          "scontrol__rug-cit-hpc__unknown__show-o-nodes.txt"}) {
        c << Case{QString::fromLatin1(f), [](const QByteArray &d) {
                      checkRefusedEverywhere(d, QStringLiteral("`scontrol show` Key=Value records"));
                      const auto r = ScontrolJobParser::parse(d);
                      QCOMPARE(r.jobs.size(), 0);
                      QVERIFY(!r.diagnostics.isEmpty());
                      QVERIFY2(r.diagnostics.first().message.contains("has no JobId"),
                               qPrintable(r.diagnostics.first().message));
                  }};
    }
    for (const char *f :
         {"sinfo__OSC__unknown__ahNO-nodehost-gres-gresused-statelong-EXCERPT-first100.txt",
          "sinfo__OSC__unknown__ahNO-nodehost-gres-gresused-statelong-long_hostnames.txt",
          "sinfo__OSC__unknown__aho-F-C.txt", "sinfo__aau-claaudia__21.08.8-2__default-doc-capture.txt"}) {
        c << Case{QString::fromLatin1(f), [](const QByteArray &d) {
                      const auto sq = SqueueParser().parse(d);
                      QCOMPARE(sq.rows.size(), 0);
                      QCOMPARE(rules(sq.diagnostics), QStringLiteral("squeue-layout@1"));
                      const auto sa = SacctParser().parse(d);
                      QCOMPARE(sa.records.size(), 0);
                      QCOMPARE(rules(sa.diagnostics), QStringLiteral("sacct-layout@1"));
                  }};
    }
    const QStringList json = QDir(kDir).entryList({QStringLiteral("slurmrestd-*.json")}, QDir::Files, QDir::Name);
    for (const QString &f : json) {
        c << Case{f, [](const QByteArray &d) {
                      checkRefusedEverywhere(d, QStringLiteral("JSON"));
                      const auto r = ScontrolJobParser::parse(d);
                      QCOMPARE(rules(r.diagnostics), QStringLiteral("scontrol-layout@1"));
                  }};
    }
    return c;
}

}   // namespace

class TestSlurmOutputs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!QDir(kDir).exists())
            QSKIP(
                qPrintable(QStringLiteral("%1 is absent (the shared captures live beside the repository)").arg(kDir)));
    }

    // Every capture in the folder has a row here: a new file cannot go unread.
    void everyFileHasACase()
    {
        QStringList files =
            QDir(kDir).entryList({QStringLiteral("*.txt"), QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QStringList covered;
        for (const auto &c : cases())
            covered << c.file;
        covered.sort();
        QCOMPARE(files.size(), 42);
        QCOMPARE(covered, files);
    }

    void capture_data()
    {
        QTest::addColumn<int>("index");
        const auto all = cases();
        for (int i = 0; i < all.size(); ++i)
            QTest::newRow(qPrintable(all[i].file)) << i;
    }

    void capture()
    {
        QFETCH(int, index);
        const auto c = cases().at(index);
        const QByteArray data = readShared(c.file);
        QVERIFY2(!data.isEmpty(), qPrintable(c.file));
        c.check(data);
    }
};

QTEST_GUILESS_MAIN(TestSlurmOutputs)
#include "tst_slurm_outputs.moc"
