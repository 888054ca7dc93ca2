// SPDX-License-Identifier: GPL-3.0-or-later
// The runs table's bulk read (RunStore::tableRecords through SqliteCursor):
// the same records as the one-run reads, timestamps in any stored form,
// repeated texts shared, and a failing statement reported as a store error.
#include "core/store/RunStore.h"
#include "core/store/SqliteCursor.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;

class TstRunStoreTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesOneRunReads();
    void oneStudyOnly();
    void timestampsInEveryStoredForm();
    void poolSharesRepeatedTexts();
    void poolIsBounded();
    void failingStatementIsAStoreError();
};

namespace {

RunRecord newRun(const QString &partition, int gpus)
{
    RunRecord r;
    r.profile = QStringLiteral("testbed");
    r.clusterAlias = QStringLiteral("testbed");
    r.partition = partition;
    r.gpus = gpus;
    r.nodes = 1;
    r.framework = QStringLiteral("pytorch-ddp");
    r.specJson = R"({"partition":"gpu","gpus":2})";
    r.script = QStringLiteral("#!/bin/bash\necho 'a researcher’s run'\n");
    r.slurmVersion = QStringLiteral("24.11.5");
    return r;
}

SacctRecord accountingFor(const QString &jobId)
{
    SacctRecord a;
    a.jobId = jobId;
    a.stateText = QStringLiteral("COMPLETED");
    a.state = JobState::Completed;
    a.exitCode = QStringLiteral("0:0");
    a.elapsed = QStringLiteral("00:31:00");
    a.allocTres = QStringLiteral("billing=40,cpu=40,gres/gpu=4,mem=64G,node=1");
    a.partition = QStringLiteral("gpu");
    a.account = QStringLiteral("project_ä");
    a.allocCpus = 40;
    a.rawLines = {QStringLiteral("%1|COMPLETED|0:0").arg(jobId), QStringLiteral("%1.batch|COMPLETED|0:0").arg(jobId)};
    a.lines = {{{QStringLiteral("JobID"), jobId}}, {{QStringLiteral("JobID"), jobId + QStringLiteral(".batch")}}};
    return a;
}

}   // namespace

void TstRunStoreTable::matchesOneRunReads()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    QList<qint64> ids;
    for (int i = 0; i < 6; ++i) {
        const qint64 id =
            store.createRun(newRun(i % 2 ? QStringLiteral("gpu") : QStringLiteral("gpu-ä"), 1 << i)).value().id;
        ids << id;
        QCOMPARE(store.markSubmitted(id, QString::number(1000 + i)).errorText(), QString());
        if (i % 3 == 0)
            continue;   // some runs without accounting or metrics
        QCOMPARE(store.recordFinal(id, accountingFor(QString::number(1000 + i))).errorText(), QString());
        QCOMPARE(store.setMetric({id, "train_time_s", 10.5 * i, "s", "stdout", "/data/out.log", 42, "rule.a", ""})
                     .errorText(),
                 QString());
        QCOMPARE(store.setMetric({id, "gpu_util_mean_pct", 80.0 + i, "%", "gpu-samples", "", 0, "", "mean of 3"})
                     .errorText(),
                 QString());
    }
    const auto read = store.tableRecords(-1);
    QVERIFY2(read.ok(), qPrintable(read.errorText()));
    const RunTableRecords &t = *read;
    QCOMPARE(t.runs.size(), ids.size());
    for (int i = 0; i < ids.size(); ++i) {
        RunRecord one = store.run(ids[i]).value();
        one.script.clear();   // every run's table read leaves scripts out
        QCOMPARE(t.runs[i], one);
        QCOMPARE(t.metrics.value(ids[i]), store.metrics(ids[i]).value());
        const auto acct = store.accounting(ids[i]).value();
        QCOMPARE(t.accounting.contains(ids[i]), acct.has_value());
        if (acct)
            QCOMPARE(t.accounting.value(ids[i]), *acct);
    }
    QCOMPARE(t.accounting.value(ids[1]).lines.size(), 2);
    QCOMPARE(t.accounting.value(ids[1]).account, QStringLiteral("project_ä"));
}

void TstRunStoreTable::oneStudyOnly()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    (void)store.createRun(newRun(QStringLiteral("gpu"), 1)).value();
    StudyRecord study;
    study.name = QStringLiteral("scaling");
    const auto made = store.createRuns({newRun(QStringLiteral("gpu"), 2), newRun(QStringLiteral("gpu"), 4)}, study);
    QVERIFY(made.ok());
    const qint64 studyId = made->first().studyId;
    QVERIFY(studyId > 0);
    QCOMPARE(store.setMetric({made->first().id, "train_time_s", 3, "s", "stdout"}).errorText(), QString());
    const auto read = store.tableRecords(studyId);
    QVERIFY2(read.ok(), qPrintable(read.errorText()));
    QCOMPARE(read->runs.size(), 2);
    QCOMPARE(read->runs[0].script, made->first().script);   // one study's read keeps scripts
    QCOMPARE(read->metrics.size(), 1);
    QCOMPARE(read->studies.size(), 1);
}

void TstRunStoreTable::timestampsInEveryStoredForm()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    const qint64 a = store.createRun(newRun(QStringLiteral("gpu"), 1)).value().id;
    const qint64 b = store.createRun(newRun(QStringLiteral("gpu"), 2)).value().id;
    const qint64 c = store.createRun(newRun(QStringLiteral("gpu"), 4)).value().id;
    {
        // Forms a hand edit or an older writer may have left: no milliseconds,
        // an offset, an impossible date.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("edit"));
        db.setDatabaseName(store.databasePath());
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("UPDATE runs SET created = '2026-03-04T05:06:07Z' WHERE id = %1").arg(b)));
        QVERIFY(
            q.exec(QStringLiteral("UPDATE runs SET created = '2026-03-04T07:06:07.250+02:00' WHERE id = %1").arg(c)));
        QVERIFY(q.exec(QStringLiteral("UPDATE runs SET updated = '2026-02-30T00:00:00.000Z' WHERE id = %1").arg(c)));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("edit"));
    const auto read = store.tableRecords(-1);
    QVERIFY2(read.ok(), qPrintable(read.errorText()));
    QCOMPARE(read->runs.size(), 3);
    for (const RunRecord &r : read->runs) {
        const RunRecord one = store.run(r.id).value();
        QCOMPARE(r.created, one.created);
        QCOMPARE(r.updated, one.updated);
    }
    QCOMPARE(read->runs[0].id, a);
    QCOMPARE(read->runs[0].created.timeSpec(), Qt::UTC);
    QCOMPARE(read->runs[1].created, QDateTime(QDate(2026, 3, 4), QTime(5, 6, 7), Qt::UTC));
    QCOMPARE(read->runs[2].created, QDateTime(QDate(2026, 3, 4), QTime(5, 6, 7, 250), Qt::UTC));
    QVERIFY(!read->runs[2].updated.isValid());
}

void TstRunStoreTable::poolSharesRepeatedTexts()
{
    TextPool pool;
    const QString first = pool.get("COMPLETED");
    const QString second = pool.get("COMPLETED");
    QCOMPARE(first, QStringLiteral("COMPLETED"));
    QCOMPARE(second.constData(), first.constData());   // one string, shared
    QCOMPARE(pool.get("gpu-ä"), QStringLiteral("gpu-ä"));
    QCOMPARE(pool.get(""), QString());
    QCOMPARE(pool.size(), 3);
}

void TstRunStoreTable::poolIsBounded()
{
    TextPool pool;
    for (size_t i = 0; i < TextPool::kMaxEntries + 100; ++i)
        QCOMPARE(pool.get(std::to_string(i)), QString::number(i));
    QCOMPARE(size_t(pool.size()), TextPool::kMaxEntries);
    const std::string longText(TextPool::kMaxLength + 1, 'x');
    QCOMPARE(pool.get(longText).size(), qsizetype(longText.size()));
    QCOMPARE(size_t(pool.size()), TextPool::kMaxEntries);
}

void TstRunStoreTable::failingStatementIsAStoreError()
{
    QTemporaryDir dir;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("bad"));
        db.setDatabaseName(dir.filePath(QStringLiteral("x.sqlite")));
        QVERIFY(db.open());
        {
            // Cursors end before the connection closes: Qt closes with
            // sqlite3_close, which refuses (and leaks the connection) while a
            // statement is still open.
            auto bad = SqliteCursor::prepare(db, "SELECT nope FROM nowhere");
            QVERIFY(!bad);
            QCOMPARE(bad.error().code, ErrorCode::StoreFailed);
            QVERIFY2(bad.error().message.contains(QLatin1String("no such table: nowhere")),
                     qPrintable(bad.error().message));
            QVERIFY2(bad.error().message.contains(QLatin1String("SELECT nope")), qPrintable(bad.error().message));
            auto good = SqliteCursor::prepare(db, "SELECT ?1 + 1", {41});
            QVERIFY(good);
            QCOMPARE(good->next().value(), true);
            QCOMPARE(good->integer(0), qint64(42));
            QCOMPARE(good->next().value(), false);
            // Every row, then done; a step that fails (here at run time, not at
            // prepare) ends the walk with its error.
            auto two = SqliteCursor::prepare(db, "SELECT 1 UNION ALL SELECT 2");
            QVERIFY(two);
            qint64 sum = 0;
            QVERIFY(two->eachRow([&sum](const SqliteCursor &c) { sum += c.integer(0); }).ok());
            QCOMPARE(sum, qint64(3));
            auto overflow = SqliteCursor::prepare(db, "SELECT abs(-9223372036854775807 - 1)");
            QVERIFY(overflow);
            const auto walked = overflow->eachRow([](const SqliteCursor &) { QFAIL("no row expected"); });
            QVERIFY(!walked);
            QCOMPARE(walked.error().code, ErrorCode::StoreFailed);
            QVERIFY2(walked.error().message.contains(QLatin1String("integer overflow")),
                     qPrintable(walked.error().message));
        }
        db.close();
        // A closed connection has no handle to read through.
        auto closed = SqliteCursor::prepare(db, "SELECT 1");
        QVERIFY(!closed);
        QCOMPARE(closed.error().code, ErrorCode::StoreFailed);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bad"));
}

QTEST_GUILESS_MAIN(TstRunStoreTable)
#include "tst_runstore_table.moc"
