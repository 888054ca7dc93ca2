// SPDX-License-Identifier: GPL-3.0-or-later
// The Jobs tree read in core: when a job's clock ran (JobClock, from the state
// history), its elapsed time and progress, the bulk read behind it
// (RunStore::jobsRecords: the same facts as the one-run reads, for every run
// or a few) and the tree built from it (grouping, order, hidden runs).
#include "core/analysis/JobsTree.h"
#include "core/store/RunStore.h"

#include <QTemporaryDir>
#include <QTimeZone>
#include <QTest>

using namespace scalelab;

class TstJobsTree : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clockFromHistory_data();
    void clockFromHistory();
    void elapsedAndProgress();
    void readMatchesOneRunReads();
    void readOnlyTheRunsAsked();
    void specThatIsNotJsonLeavesItsFieldsEmpty();
    void treeGroupsOrdersAndHides();
    void changesBetweenTreesOfOneShape();
};

namespace {

const QDateTime t0 = QDateTime(QDate(2026, 3, 1), QTime(10, 0), QTimeZone::utc());

StateChange at(JobState s, int seconds)
{
    return StateChange{1, s, {}, t0.addSecs(seconds)};
}

RunRecord newRun(qint64 studyId, int gpus, const QByteArray &spec = R"({"time":"00:10:00","jobName":"ddp"})")
{
    RunRecord r;
    r.studyId = studyId;
    r.profile = QStringLiteral("testbed");
    r.clusterAlias = QStringLiteral("testbed");
    r.partition = QStringLiteral("gpu");
    r.gpus = gpus;
    r.nodes = 1;
    r.framework = QStringLiteral("pytorch-ddp");
    r.specJson = spec;
    r.script = QStringLiteral("#!/bin/bash\necho 'a researcher’s run'\n");
    return r;
}

}   // namespace

void TstJobsTree::clockFromHistory_data()
{
    QTest::addColumn<QList<StateChange>>("history");
    QTest::addColumn<int>("started");   // seconds after t0, -1 = invalid
    QTest::addColumn<int>("ended");
    using S = JobState;
    QTest::newRow("never ran") << QList<StateChange>{at(S::Pending, 0)} << -1 << -1;
    QTest::newRow("running") << QList<StateChange>{at(S::Pending, 0), at(S::Running, 30)} << 30 << -1;
    QTest::newRow("completed") << QList<StateChange>{at(S::Pending, 0), at(S::Running, 30), at(S::Completed, 90)} << 30
                               << 90;
    // The processes end at COMPLETING: the clock stops there, not at the later final state.
    QTest::newRow("completing stops the clock")
        << QList<StateChange>{at(S::Running, 30), at(S::Completing, 60), at(S::Cancelled, 80)} << 30 << 60;
    // First seen COMPLETING (RUNNING missed between polls): it starts there, the final state ends it.
    QTest::newRow("completing first") << QList<StateChange>{at(S::Pending, 0), at(S::Completing, 40),
                                                            at(S::Completed, 50)}
                                      << 40 << 50;
    QTest::newRow("cancelled while pending") << QList<StateChange>{at(S::Pending, 0), at(S::Cancelled, 20)} << -1 << 20;
    QTest::newRow("first run counts") << QList<StateChange>{at(S::Running, 10), at(S::Requeued, 20), at(S::Running, 40),
                                                            at(S::Failed, 70)}
                                      << 10 << 70;
}

void TstJobsTree::clockFromHistory()
{
    QFETCH(QList<StateChange>, history);
    QFETCH(int, started);
    QFETCH(int, ended);
    const JobClock clock = JobClock::fromHistory(history);
    QCOMPARE(clock.started, started < 0 ? QDateTime() : t0.addSecs(started));
    QCOMPARE(clock.ended, ended < 0 ? QDateTime() : t0.addSecs(ended));
}

void TstJobsTree::elapsedAndProgress()
{
    JobsRunRecord rec;
    rec.run.jobId = QStringLiteral("101");
    rec.run.state = JobState::Running;
    rec.specTime = QStringLiteral("00:10:00");
    rec.history = {at(JobState::Pending, 0), at(JobState::Running, 60)};
    JobsRow running = JobsRow::from(rec);
    QCOMPARE(running.limitSeconds, 600);
    QCOMPARE(running.elapsedSeconds(t0.addSecs(180)), 120);
    QCOMPARE(running.progress(t0.addSecs(180)), 0.2);
    QCOMPARE(running.progress(t0.addSecs(6000)), 1.0);   // past its limit: full, not more
    QVERIFY(running.active());

    // Finished with accounting: sacct's Elapsed wins, whatever the clock says.
    rec.run.state = JobState::Completed;
    rec.history << at(JobState::Completed, 400);
    rec.hasAccounting = true;
    rec.accountedElapsed = QStringLiteral("00:05:00");
    rec.accountedLimit = QStringLiteral("01:00:00");
    const JobsRow done = JobsRow::from(rec);
    QCOMPARE(done.elapsedSeconds(t0.addSecs(9999)), 300);
    QCOMPARE(done.limitSeconds, 600);   // the spec's limit before sacct's
    QVERIFY(!done.active());
    rec.specTime.clear();
    QCOMPARE(JobsRow::from(rec).limitSeconds, 3600);   // no spec limit: sacct's Timelimit

    // Back in the queue after it ran: no clock runs.
    JobsRunRecord requeued;
    requeued.run.jobId = QStringLiteral("102");
    requeued.run.state = JobState::Pending;
    requeued.history = {at(JobState::Running, 10), at(JobState::Pending, 20)};
    QCOMPARE(JobsRow::from(requeued).elapsedSeconds(t0.addSecs(100)), -1);
    // Never reached Slurm: no clock, even with a history.
    JobsRunRecord unsent;
    unsent.history = {at(JobState::Running, 10)};
    QVERIFY(!JobsRow::from(unsent).started.isValid());
}

void TstJobsTree::readMatchesOneRunReads()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    StudyRecord study;
    study.name = QStringLiteral("DDP scaling");
    const qint64 studyId = store.createStudy(study).value();
    QList<qint64> ids;
    for (int i = 0; i < 5; ++i) {
        RunRecord r = newRun(i < 3 ? studyId : 0, 1 << i);
        if (i == 4)
            r.script.clear();
        ids << store.createRun(r).value().id;
    }
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(store.markSubmitted(ids[i], QString::number(100 + i)).errorText(), QString());
        QCOMPARE(store.updateState(ids[i], JobState::Running, {}, t0.addSecs(10 * i)).errorText(), QString());
    }
    SacctRecord acct;
    acct.jobId = QStringLiteral("100");
    acct.state = JobState::Completed;
    acct.stateText = QStringLiteral("COMPLETED");
    acct.elapsed = QStringLiteral("00:04:00");
    acct.timelimit = QStringLiteral("00:30:00");
    QCOMPARE(store.recordFinal(ids[0], acct, t0.addSecs(300)).errorText(), QString());
    QCOMPARE(store.setHidden(ids[1], true).errorText(), QString());
    QCOMPARE(store.setFailureLine(ids[2], QStringLiteral("line 42: ValueError: bad batch")).errorText(), QString());

    const auto read = store.jobsRecords();
    QVERIFY2(read.ok(), qPrintable(read.errorText()));
    QCOMPARE(read->studies, store.studies().value());
    QCOMPARE(read->runs.size(), 5);
    const QSet<qint64> hidden = store.hiddenRuns().value();
    const QHash<qint64, QString> failures = store.failureLines().value();
    for (const JobsRunRecord &r : read->runs) {
        RunRecord expected = store.run(r.run.id).value();
        QCOMPARE(r.hasScript, !expected.script.isEmpty());
        expected.script.clear();   // never read in bulk
        QCOMPARE(r.run, expected);
        QList<StateChange> history = store.stateHistory(r.run.id).value();
        for (StateChange &c : history)
            c.reason.clear();   // left out of the bulk read
        QCOMPARE(r.history, history);
        const auto a = store.accounting(r.run.id).value();
        QCOMPARE(r.hasAccounting, a.has_value());
        QCOMPARE(r.accountedElapsed, a ? a->elapsed : QString());
        QCOMPARE(r.accountedLimit, a ? a->timelimit : QString());
        QCOMPARE(r.hidden, hidden.contains(r.run.id));
        QCOMPARE(r.failureLine, failures.value(r.run.id));
        QCOMPARE(r.specTime, QStringLiteral("00:10:00"));
        QCOMPARE(r.specJobName, QStringLiteral("ddp"));
    }
    const JobsRow first = JobsRow::from(read->runs.first());
    QCOMPARE(first.started, t0);
    QCOMPARE(first.ended, t0.addSecs(300));
    QCOMPARE(first.elapsedSeconds(t0.addSecs(9999)), 240);
}

void TstJobsTree::readOnlyTheRunsAsked()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    QList<qint64> ids;
    for (int i = 0; i < 4; ++i) {
        ids << store.createRun(newRun(0, 1)).value().id;
        QCOMPARE(store.markSubmitted(ids.last(), QString::number(200 + i)).errorText(), QString());
        QCOMPARE(store.setFailureLine(ids.last(), QStringLiteral("line %1").arg(i)).errorText(), QString());
    }
    const auto read = store.jobsRecords({ids[3], ids[1], 9999});
    QVERIFY2(read.ok(), qPrintable(read.errorText()));
    QCOMPARE(read->runs.size(), 2);   // by id; the unknown id is simply absent
    QCOMPARE(read->runs[0].run.id, ids[1]);
    QCOMPARE(read->runs[1].run.id, ids[3]);
    QCOMPARE(read->runs[1].failureLine, QStringLiteral("line 3"));
    QCOMPARE(read->runs[1].history.size(), 1);   // PENDING when submitted
}

void TstJobsTree::specThatIsNotJsonLeavesItsFieldsEmpty()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    const qint64 bad = store.createRun(newRun(0, 1, "{not json")).value().id;
    const qint64 good = store.createRun(newRun(0, 2)).value().id;
    const auto read = store.jobsRecords();
    QVERIFY2(read.ok(), qPrintable(read.errorText()));   // one bad spec never hides every run
    QCOMPARE(read->runs.size(), 2);
    QCOMPARE(read->runs[0].run.id, bad);
    QCOMPARE(read->runs[0].specTime, QString());
    QCOMPARE(JobsRow::from(read->runs[0]).limitSeconds, -1);
    QCOMPARE(read->runs[1].run.id, good);
    QCOMPARE(JobsRow::from(read->runs[1]).jobName, QStringLiteral("ddp"));
}

void TstJobsTree::treeGroupsOrdersAndHides()
{
    JobsTreeRecords records;
    StudyRecord older{1, QStringLiteral("older"), t0};
    StudyRecord newer{2, QStringLiteral("newer"), t0.addSecs(100)};
    StudyRecord allHidden{3, QStringLiteral("all hidden"), t0.addSecs(200)};
    StudyRecord empty{4, QStringLiteral("empty"), t0.addSecs(50)};
    records.studies = {older, newer, allHidden, empty};
    auto run = [&](qint64 id, qint64 study, int gpus, int created, bool hidden = false) {
        JobsRunRecord r;
        r.run.id = id;
        r.run.studyId = study;
        r.run.gpus = gpus;
        r.run.created = t0.addSecs(created);
        r.hidden = hidden;
        records.runs << r;
    };
    run(1, 1, 8, 0);
    run(2, 1, 2, 0);
    run(3, 2, 4, 100);
    run(4, 0, 1, 150);   // a lone run between the studies
    run(5, 3, 1, 200, true);
    run(6, 0, 1, 300, true);

    const JobsTree tree = JobsTree::build(records, false);
    QCOMPARE(tree.hiddenCount, 2);
    QCOMPARE(tree.loose.size(), size_t(1));
    QStringList order;   // newest first
    for (const JobsTree::Top &t : tree.top)
        order << (t.study >= 0 ? tree.studies[size_t(t.study)].study.name : QStringLiteral("run"));
    QCOMPARE(order, (QStringList{"run", "newer", "empty", "older"}));   // "all hidden" left with its runs
    const auto &olderRuns = std::find_if(tree.studies.begin(), tree.studies.end(), [](const JobsStudyRow &s) {
                                return s.study.id == 1;
                            })->runs;
    QCOMPARE(olderRuns.size(), size_t(2));
    QCOMPARE(olderRuns[0].run.id, 2);   // by GPU count
    QCOMPARE(olderRuns[1].run.id, 1);

    const JobsTree all = JobsTree::build(records, true);
    QCOMPARE(all.hiddenCount, 2);
    QCOMPARE(all.top.size(), size_t(6));
    QCOMPARE(all.topTime(all.top.front()), t0.addSecs(300));
}

void TstJobsTree::changesBetweenTreesOfOneShape()
{
    JobsTreeRecords records;
    records.studies = {StudyRecord{1, QStringLiteral("study"), t0}};
    for (qint64 id : {1, 2, 3}) {
        JobsRunRecord r;
        r.run.id = id;
        r.run.studyId = id < 3 ? 1 : 0;
        r.run.gpus = int(id);
        r.run.jobId = QString::number(100 + id);
        r.run.state = JobState::Running;
        r.run.created = t0.addSecs(id);
        records.runs << r;
    }
    const JobsTree before = JobsTree::build(records, false);
    auto same = JobsTree::changesFrom(before, JobsTree::build(records, false));
    QVERIFY(same.has_value());
    QVERIFY(same->runs.empty());
    QVERIFY(same->studies.empty());

    records.runs[1].run.state = JobState::Completed;   // run 2, the study's second row
    records.runs[2].failureLine = QStringLiteral("line 3: boom");   // run 3, a lone run
    const JobsTree after = JobsTree::build(records, false);
    const auto changes = JobsTree::changesFrom(before, after);
    QVERIFY(changes.has_value());
    QCOMPARE(changes->runs, (std::vector<std::pair<int, int>>{{-1, 0}, {0, 1}}));
    QCOMPARE(changes->studies, std::vector<int>{0});

    records.runs[0].run.studyId = 0;   // leaves its study: another shape
    QVERIFY(!JobsTree::changesFrom(after, JobsTree::build(records, false)).has_value());
    records.runs[0].run.studyId = 1;
    records.runs.removeLast();   // gone: another shape
    QVERIFY(!JobsTree::changesFrom(after, JobsTree::build(records, false)).has_value());
}

QTEST_GUILESS_MAIN(TstJobsTree)
#include "tst_jobstree.moc"
