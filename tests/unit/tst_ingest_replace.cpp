// SPDX-License-Identifier: GPL-3.0-or-later
// One ingest is one write: IngestService collects a run's metrics and series
// (accounting, GPU samples, job output with the study's patterns) and
// RunStore::replaceRunMetrics stores them in one transaction. A study pattern
// renamed between two ingests leaves no metric or series under the old name,
// and a store write failing part way (an SQLite trigger refuses the Nth
// insert, as a full disk would) leaves the previous metrics and series whole.
#include "core/ingest/IngestService.h"
#include "core/ingest/StudyMetricPatterns.h"
#include "core/slurm/SacctParser.h"
#include "core/store/RunStore.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace scalelab;

namespace {

const QString kInjector = QStringLiteral("injector");

// The store refuses its `nth` insert into `table` from now on (1 = the
// next), through a trigger on a connection of its own. "" or why not.
QString failNthInsert(const RunStore &store, const QString &table, int nth)
{
    QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), kInjector);
    raw.setDatabaseName(store.databasePath());
    if (!raw.open())
        return raw.lastError().text();
    QSqlQuery q(raw);
    for (const QString &sql :
         {QStringLiteral("CREATE TABLE injected_inserts (n INTEGER NOT NULL)"),
          QStringLiteral("INSERT INTO injected_inserts VALUES (0)"),
          QStringLiteral("CREATE TRIGGER injected BEFORE INSERT ON %1 BEGIN"
                         " UPDATE injected_inserts SET n = n + 1;"
                         " SELECT RAISE(ABORT, 'injected store failure') WHERE (SELECT n FROM injected_inserts) >= %2;"
                         " END")
              .arg(table)
              .arg(nth)})
        if (!q.exec(sql))
            return q.lastError().text();
    return {};
}

QString removeFailure()
{
    QString error;
    {
        QSqlDatabase raw = QSqlDatabase::database(kInjector);
        QSqlQuery q(raw);
        for (const char *sql : {"DROP TRIGGER injected", "DROP TABLE injected_inserts"})
            if (!q.exec(QLatin1String(sql)))
                error = q.lastError().text();
        raw.close();
    }
    QSqlDatabase::removeDatabase(kInjector);
    return error;
}

QStringList namesOf(const QList<MetricRecord> &metrics)
{
    QStringList out;
    for (const MetricRecord &m : metrics)
        out << m.name;
    return out;
}

QStringList namesOf(const QList<MetricSeries> &series)
{
    QStringList out;
    for (const MetricSeries &s : series)
        out << s.name;
    return out;
}

MetricPattern lossPattern(const QString &name)
{
    MetricPattern p;
    p.name = name;
    p.regex = QStringLiteral("loss=([0-9.]+)");
    p.aggregation = MetricAggregation::Last;
    return p;
}

}   // namespace

class TestIngestReplace : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    qint64 m_study = 0;
    qint64 m_run = 0;

    // The run's job output, fetched: a researcher's per-epoch loss and a final accuracy.
    void writeOutput(const QByteArray &text)
    {
        const QString local = m_store->runFilesDirectory(m_run) + QStringLiteral("/scalelab-77.out");
        QVERIFY(QDir().mkpath(QFileInfo(local).path()));
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(f.write(text), text.size());
        f.close();
        QCOMPARE(m_store
                     ->recordFile({m_run, QStringLiteral("/scratch/researcher/run/scalelab-77.out"), local,
                                   qint64(text.size()), qint64(text.size()), QDateTime::currentDateTimeUtc()})
                     .errorText(),
                 QString());
    }

    void setPattern(const QString &name)
    {
        QCOMPARE(
            m_store->setStudyNotes(m_study, StudyMetricPatterns::write(QStringLiteral("notes"), {lossPattern(name)}))
                .errorText(),
            QString());
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_store =
            std::make_unique<RunStore>(m_dir.filePath(QStringLiteral("data-%1").arg(QTest::currentTestFunction())));
        QCOMPARE(m_store->open().errorText(), QString());
        StudyRecord study;
        study.name = QStringLiteral("a researcher's study");
        study.created = QDateTime::currentDateTimeUtc();
        const auto sid = m_store->createStudy(study);
        QVERIFY(sid.ok());
        m_study = sid.value();
        RunRecord r;
        r.studyId = m_study;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.gpus = 2;
        r.nodes = 1;
        r.framework = QStringLiteral("pytorch-ddp");
        const auto created = m_store->createRun(r);
        QVERIFY(created.ok());
        m_run = created.value().id;
        QCOMPARE(m_store->markSubmitted(m_run, QStringLiteral("77")).errorText(), QString());
        const SacctParseResult acct = SacctParser::parseWithHeader(
            "JobID|JobName|State|ExitCode|Submit|Start|End|Elapsed|AllocTRES|NodeList\n"
            "77|ddp|COMPLETED|0:0|2026-11-23T10:00:00|2026-11-23T10:00:05|2026-11-23T10:30:05|00:30:00|"
            "billing=4,cpu=4,gres/gpu=2,node=1|tb-node1\n");
        QCOMPARE(acct.records.size(), 1);
        QCOMPARE(m_store->recordFinal(m_run, acct.records.first()).errorText(), QString());
        writeOutput("epoch 1 loss=0.50\nepoch 2 loss=0.30\ntest_accuracy 0.91  train_time_s 40\n");
        setPattern(QStringLiteral("epoch_loss"));
    }

    void cleanup() { m_store.reset(); }

    void renamedPatternLeavesNoOldMetric()
    {
        IngestResult first = IngestService::ingestRun(*m_store, m_run);
        QCOMPARE(first.error, QString());
        QVERIFY2(first.written.contains(QStringLiteral("epoch_loss")), qPrintable(first.written.join(u',')));
        // The built-in reader takes the same lines as train_loss: two curves.
        first.series.sort();
        QCOMPARE(first.series, (QStringList{QStringLiteral("epoch_loss"), QStringLiteral("train_loss")}));
        QVERIFY(namesOf(m_store->metrics(m_run).value()).contains(QStringLiteral("epoch_loss")));

        // The researcher renames the pattern and ingests again.
        setPattern(QStringLiteral("train_loss_user"));
        const IngestResult second = IngestService::ingestRun(*m_store, m_run);
        QCOMPARE(second.error, QString());
        const QList<MetricRecord> stored = m_store->metrics(m_run).value();
        const QStringList names = namesOf(stored);
        QVERIFY2(!names.contains(QStringLiteral("epoch_loss")), qPrintable(names.join(u',')));
        QVERIFY2(names.contains(QStringLiteral("train_loss_user")), qPrintable(names.join(u',')));
        QCOMPARE(namesOf(m_store->series(m_run).value()),
                 (QStringList{QStringLiteral("train_loss"), QStringLiteral("train_loss_user")}));
        // Exactly what this ingest produced, accounting included.
        QStringList written = second.written;
        written.sort();
        QStringList sortedNames = names;
        sortedNames.sort();
        QCOMPARE(sortedNames, written);
        QVERIFY(names.contains(QStringLiteral("elapsed_s")));
        QVERIFY(names.contains(QStringLiteral("test_accuracy")));
    }

    void failedWriteLeavesPreviousMetricsWhole_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<int>("nth");
        QTest::newRow("first metric") << "metrics" << 1;
        QTest::newRow("a metric half way") << "metrics" << 4;
        QTest::newRow("the series after every metric") << "metric_series" << 1;
    }

    void failedWriteLeavesPreviousMetricsWhole()
    {
        QFETCH(QString, table);
        QFETCH(int, nth);
        QCOMPARE(IngestService::ingestRun(*m_store, m_run).error, QString());
        const QList<MetricRecord> before = m_store->metrics(m_run).value();
        const QList<MetricSeries> seriesBefore = m_store->series(m_run).value();
        QVERIFY(before.size() > 4);
        QCOMPARE(seriesBefore.size(), 2);

        // New values and a renamed pattern, and the store fails part way through writing them.
        writeOutput("epoch 1 loss=0.40\nepoch 2 loss=0.20\nepoch 3 loss=0.10\ntest_accuracy 0.95  train_time_s 30\n");
        setPattern(QStringLiteral("train_loss_user"));
        QCOMPARE(failNthInsert(*m_store, table, nth), QString());
        const IngestResult failed = IngestService::ingestRun(*m_store, m_run);
        QCOMPARE(removeFailure(), QString());
        QVERIFY2(failed.error.contains(QLatin1String("injected store failure")), qPrintable(failed.error));
        QCOMPARE(failed.written, QStringList());
        QCOMPARE(failed.series, QStringList());
        QCOMPARE(m_store->metrics(m_run).value(), before);
        QCOMPARE(m_store->series(m_run).value(), seriesBefore);

        // Once the store writes again, the next ingest stores the new values whole.
        QCOMPARE(IngestService::ingestRun(*m_store, m_run).error, QString());
        const QStringList names = namesOf(m_store->metrics(m_run).value());
        QVERIFY(names.contains(QStringLiteral("train_loss_user")) && !names.contains(QStringLiteral("epoch_loss")));
        const QList<MetricSeries> series = m_store->series(m_run).value();
        QCOMPARE(namesOf(series), (QStringList{QStringLiteral("train_loss"), QStringLiteral("train_loss_user")}));
        QCOMPARE(series.back().values, (QVector<double>{0.4, 0.2, 0.1}));
    }

    void replacementRefusedBeforeAnythingIsWritten()
    {
        QCOMPARE(IngestService::ingestRun(*m_store, m_run).error, QString());
        const QList<MetricRecord> before = m_store->metrics(m_run).value();
        MetricRecord ok{m_run, QStringLiteral("train_time_s"), 1, QStringLiteral("s"), QStringLiteral("stdout")};
        MetricRecord unnamed{m_run, QString(), 1, QString(), QStringLiteral("stdout")};
        MetricRecord otherRun{m_run + 1, QStringLiteral("x"), 1, QString(), QStringLiteral("stdout")};
        MetricSeries uneven{m_run, QStringLiteral("loss"), QString(), {1, 2}, {0.5}};
        QVERIFY(m_store->replaceRunMetrics(m_run, {ok, unnamed}, {}).failedWith(ErrorCode::InvalidValue));
        QVERIFY(m_store->replaceRunMetrics(m_run, {ok, otherRun}, {}).failedWith(ErrorCode::InvalidValue));
        QVERIFY(m_store->replaceRunMetrics(m_run, {ok}, {uneven}).failedWith(ErrorCode::InvalidValue));
        QVERIFY(m_store->replaceRunMetrics(m_run + 100, {}, {}).failedWith(ErrorCode::NotFound));
        QCOMPARE(m_store->metrics(m_run).value(), before);
        // An empty replacement is a replacement: nothing stays.
        QCOMPARE(m_store->replaceRunMetrics(m_run, {}, {}).errorText(), QString());
        QCOMPARE(m_store->metrics(m_run).value().size(), 0);
        QCOMPARE(m_store->series(m_run).value().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestIngestReplace)
#include "tst_ingest_replace.moc"
