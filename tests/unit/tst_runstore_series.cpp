// SPDX-License-Identifier: GPL-3.0-or-later
// Run store schema 2: where each metric came from, and the per-step series
// behind it (per-epoch curves), including stores written by schema 1.
#include "core/store/RunStore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace scalelab;

class TstRunStoreSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void provenanceRoundTrip();
    void seriesRoundTrip();
    void schemaOneStoreMigrates();
};

namespace {

qint64 newRun(RunStore &store)
{
    RunRecord r;
    r.profile = QStringLiteral("testbed");
    r.clusterAlias = QStringLiteral("testbed");
    r.gpus = 2;
    return store.createRun(r).value().id;
}

}   // namespace

void TstRunStoreSeries::provenanceRoundTrip()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    const qint64 id = newRun(store);
    MetricRecord m{id, QStringLiteral("throughput"), 2000.0, QStringLiteral("samples/s"), QStringLiteral("stdout")};
    m.file = QStringLiteral("/data/runs/7/scalelab-52.out");
    m.line = 12;
    m.rule = QStringLiteral("pytorch.example.epoch_samples_per_s");
    m.formula = QStringLiteral("mean of 3 values");
    QCOMPARE(store.setMetric(m).errorText(), QString());
    const auto back = store.metrics(id);
    QVERIFY(back.ok());
    QCOMPARE(back.value().size(), 1);
    QCOMPARE(back.value().front(), m);
}

void TstRunStoreSeries::seriesRoundTrip()
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    const qint64 id = newRun(store);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    MetricSeries s{id, QStringLiteral("eval_loss"), QString(), {1.0, 2.0, nan}, {1.9876, 1.6543, 1.6543}};
    QCOMPARE(store.setSeries(s).errorText(), QString());
    // Re-ingest replaces, it does not append.
    s.values = {1.9, 1.6, 1.5};
    QCOMPARE(store.setSeries(s).errorText(), QString());
    QCOMPARE(store.setSeries({id, QStringLiteral("train_loss"), QString(), {1, 2, 3}, {0.5, 0.25, 0.1667}}).errorText(),
             QString());
    const auto back = store.series(id);
    QVERIFY(back.ok());
    QCOMPARE(back.value().size(), 2);
    QCOMPARE(back.value()[0].name, QStringLiteral("eval_loss"));
    QCOMPARE(back.value()[0].values, (QVector<double>{1.9, 1.6, 1.5}));
    QCOMPARE(back.value()[0].steps.mid(0, 2), (QVector<double>{1.0, 2.0}));
    QVERIFY(std::isnan(back.value()[0].steps[2]));   // "no step printed" survives the store
    QCOMPARE(back.value()[1].values, (QVector<double>{0.5, 0.25, 0.1667}));
    // Mismatched lengths are refused with a reason.
    QVERIFY(store.setSeries({id, QStringLiteral("x"), QString(), {1}, {1, 2}})
                .errorText()
                .contains(QLatin1String("1 steps for 2 values")));
    // Deleting the run deletes its series.
    QCOMPARE(store.deleteRun(id).errorText(), QString());
    QCOMPARE(store.series(id).value().size(), 0);
}

void TstRunStoreSeries::schemaOneStoreMigrates()
{
    QTemporaryDir dir;
    {
        // A store as schema 1 left it: metrics without provenance.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
        db.setDatabaseName(dir.filePath(QStringLiteral("runs.sqlite")));
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec("CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT)"));
        QVERIFY(q.exec("CREATE TABLE metrics (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                       " name TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL DEFAULT '',"
                       " source TEXT NOT NULL DEFAULT '', PRIMARY KEY (run_id, name, source))"));
        QVERIFY(q.exec("INSERT INTO runs (id) VALUES (1)"));
        QVERIFY(q.exec("INSERT INTO metrics VALUES (1, 'test_accuracy', 0.9091, '', 'stdout')"));
        QVERIFY(q.exec("PRAGMA user_version=1"));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v1"));
    RunStore store(dir.path());
    QCOMPARE(store.open().errorText(), QString());
    QCOMPARE(store.schemaVersion().value(), RunStore::latestSchemaVersion());
    const auto m = store.metrics(1);
    QVERIFY2(m.ok(), qPrintable(m.errorText()));
    QCOMPARE(m.value().size(), 1);
    QCOMPARE(m.value()[0].value, 0.9091);
    QCOMPARE(m.value()[0].rule, QString());
    QCOMPARE(m.value()[0].line, qint64(0));
    QCOMPARE(store.series(1).value().size(), 0);
}

QTEST_GUILESS_MAIN(TstRunStoreSeries)
#include "tst_runstore_series.moc"
