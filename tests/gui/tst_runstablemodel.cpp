// SPDX-License-Identifier: GPL-3.0-or-later
// The runs table's order: by run id (the store's own order, not sorted again),
// by number (ties keep their order both ways), runs without the value last,
// text without regard to case; a run found by id in any order; and a patch
// of a few changed runs (their rows changed in place, new runs inserted at
// the end, a run that moves or leaves rearranging the rows), checked by
// QAbstractItemModelTester.
#include "core/model/MetricNames.h"
#include "ui/results/RunsTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace scalelab;

class TstRunsTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void idOrderBothWays();
    void numbersKeepTiesInOrder();
    void runsWithoutTheValueComeLast();
    void textIgnoresCase();
    void runFoundInAnyOrder();
    void everyChangeKeepsTheModelSound();
    void patchChangesRowsInPlace();
    void patchInsertsNewRunsAtTheEnd();
    void patchRearrangesWhenARunMovesOrLeaves();
    void energyIsAColumnWithItsProvenance();
};

namespace {

// Runs 1..5: GPUs 4, 1, 4, 2, 1; cluster names in mixed case; a metric on some.
RunMetricsTable sampleTable()
{
    const int gpus[] = {4, 1, 4, 2, 1};
    const char *clusters[] = {"beta", "Alpha", "gamma", "alpha", "Beta"};
    const std::optional<double> speed[] = {20.0, {}, 5.0, 20.0, {}};
    RunMetricsTable t;
    for (int i = 0; i < 5; ++i) {
        RunMetricsRow row;
        row.run.id = i + 1;
        row.run.gpus = gpus[i];
        row.run.clusterAlias = QString::fromLatin1(clusters[i]);
        if (speed[i])
            row.metrics.insert(QStringLiteral("samples_per_s"),
                               MetricRecord{i + 1, QStringLiteral("samples_per_s"), *speed[i], QStringLiteral("1/s"),
                                            QStringLiteral("stdout")});
        t.rows << row;
    }
    t.metricNames = {QStringLiteral("samples_per_s")};
    return t;
}

// A patch as RunMetricsTable::load gives it for `rows` (sorted by id).
RunMetricsTable patchOf(QList<RunMetricsRow> rows)
{
    RunMetricsTable t;
    std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.run.id < b.run.id; });
    t.rows = rows;
    t.metricNames = {QStringLiteral("samples_per_s")};
    return t;
}

QList<qint64> order(const RunsTableModel &m)
{
    QList<qint64> ids;
    for (int r = 0; r < m.rowCount(); ++r)
        ids << m.index(r, 0).data(RunsTableModel::RunIdRole).toLongLong();
    return ids;
}

int columnOf(const RunsTableModel &m, const QString &name)
{
    return int(m.columns().indexOf(name));
}

}   // namespace

void TstRunsTableModel::idOrderBothWays()
{
    RunsTableModel m;
    m.setTable(sampleTable(), {QStringLiteral("id"), QStringLiteral("gpus")});
    QCOMPARE(order(m), (QList<qint64>{1, 2, 3, 4, 5}));
    m.sort(0, Qt::DescendingOrder);
    QCOMPARE(order(m), (QList<qint64>{5, 4, 3, 2, 1}));
    m.sort(0, Qt::AscendingOrder);
    QCOMPARE(order(m), (QList<qint64>{1, 2, 3, 4, 5}));
}

void TstRunsTableModel::numbersKeepTiesInOrder()
{
    RunsTableModel m;
    m.setTable(sampleTable(), {QStringLiteral("id"), QStringLiteral("gpus")});
    m.sort(1, Qt::AscendingOrder);
    QCOMPARE(order(m), (QList<qint64>{2, 5, 4, 1, 3}));
    m.sort(1, Qt::DescendingOrder);
    QCOMPARE(order(m), (QList<qint64>{1, 3, 4, 2, 5}));
}

void TstRunsTableModel::runsWithoutTheValueComeLast()
{
    RunsTableModel m;
    m.setTable(sampleTable(), {QStringLiteral("id"), QStringLiteral("samples_per_s")});
    m.sort(columnOf(m, QStringLiteral("samples_per_s")), Qt::AscendingOrder);
    QCOMPARE(order(m), (QList<qint64>{3, 1, 4, 2, 5}));
}

void TstRunsTableModel::textIgnoresCase()
{
    RunsTableModel m;
    m.setTable(sampleTable(), {QStringLiteral("id"), QStringLiteral("cluster")});
    m.sort(1, Qt::AscendingOrder);
    QCOMPARE(order(m), (QList<qint64>{2, 4, 1, 5, 3}));
    m.sort(1, Qt::DescendingOrder);
    QCOMPARE(order(m), (QList<qint64>{3, 1, 5, 2, 4}));
}

void TstRunsTableModel::runFoundInAnyOrder()
{
    RunsTableModel m;
    m.setTable(sampleTable(), {QStringLiteral("id"), QStringLiteral("gpus")});
    m.sort(0, Qt::DescendingOrder);
    QCOMPARE(m.indexOfRun(4).row(), 1);
    m.sort(1, Qt::AscendingOrder);
    QCOMPARE(m.indexOfRun(4).row(), 2);
    QVERIFY(!m.indexOfRun(99).isValid());
}

void TstRunsTableModel::everyChangeKeepsTheModelSound()
{
    // Qt's model checker watches every signal: rows that come and go
    // (a table replaced, filtered, grouped), columns changed, order changed.
    RunsTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RunMetricsTable table = sampleTable();
    m.setTable(table, {QStringLiteral("id"), QStringLiteral("gpus"), QStringLiteral("cluster")});
    RunMetricsRow added = table.rows.first();
    added.run.id = 6;
    table.rows << added;   // a run more
    m.setTable(table, m.columns());
    QCOMPARE(m.rowCount(), 6);
    table.rows.remove(1, 2);   // two runs fewer
    m.setTable(table, m.columns());
    QCOMPARE(m.rowCount(), 4);
    m.setFilter(QStringLiteral("alpha"));
    QCOMPARE(order(m), (QList<qint64>{4}));
    m.setFilter(QString());
    for (const auto g : {RunsTableModel::GroupBy::Study, RunsTableModel::GroupBy::Cluster,
                         RunsTableModel::GroupBy::Framework, RunsTableModel::GroupBy::Gpus}) {
        m.setGroupBy(g);
        QVERIFY(m.rowCount() > 0);
        m.setFilter(QStringLiteral("beta"));
        m.sort(1, Qt::DescendingOrder);
        m.setFilter(QString());
        m.sort(2, Qt::AscendingOrder);
    }
    m.setGroupBy(RunsTableModel::GroupBy::None);
    m.setColumns({QStringLiteral("id"), QStringLiteral("samples_per_s")});
    m.sort(1, Qt::AscendingOrder);
    QCOMPARE(order(m).size(), 4);
    QCOMPARE(order(m).last(), 5);   // the run without the value
    m.setTable(RunMetricsTable(), m.columns());   // all gone
    QCOMPARE(m.rowCount(), 0);
}

void TstRunsTableModel::patchChangesRowsInPlace()
{
    RunsTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setTable(sampleTable());
    QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    RunMetricsRow run3 = sampleTable().rows[2];
    run3.run.state = JobState::Completed;
    run3.metrics[QStringLiteral("samples_per_s")].value = 7.5;
    m.patchRows(patchOf({run3}), {3});
    QCOMPARE(resets.size(), 0);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex(), m.indexOfRun(3));
    QCOMPARE(changed.first().at(1).toModelIndex(), m.indexOfRun(3, m.columnCount() - 1));
    QCOMPARE(m.indexOfRun(3, columnOf(m, QStringLiteral("samples_per_s"))).data().toString(), QStringLiteral("7.5"));
    QCOMPARE(order(m), (QList<qint64>{1, 2, 3, 4, 5}));
    // Grouped by cluster: a change inside its group stays in place too.
    m.setGroupBy(RunsTableModel::GroupBy::Cluster);
    resets.clear();
    run3.metrics[QStringLiteral("samples_per_s")].value = 8.0;
    m.patchRows(patchOf({run3}), {3});
    QCOMPARE(resets.size(), 0);
    QCOMPARE(m.indexOfRun(3, columnOf(m, QStringLiteral("samples_per_s"))).data().toString(), QStringLiteral("8"));
}

void TstRunsTableModel::patchInsertsNewRunsAtTheEnd()
{
    RunsTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setTable(sampleTable());
    QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
    RunMetricsRow run7, run6;
    run7.run.id = 7;
    run6.run.id = 6;
    run6.run.clusterAlias = QStringLiteral("delta");
    m.patchRows(patchOf({run7, run6}), {7, 6});
    QCOMPARE(resets.size(), 0);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(order(m), (QList<qint64>{1, 2, 3, 4, 5, 6, 7}));
    QVERIFY(m.table().find(6) && m.table().find(7));
    QCOMPARE(m.indexOfRun(6, columnOf(m, QStringLiteral("cluster"))).data().toString(), QStringLiteral("delta"));
}

void TstRunsTableModel::patchRearrangesWhenARunMovesOrLeaves()
{
    RunsTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setTable(sampleTable());
    m.sort(columnOf(m, QStringLiteral("samples_per_s")), Qt::AscendingOrder);
    QCOMPARE(order(m), (QList<qint64>{3, 1, 4, 2, 5}));
    // Run 3 gets faster than the others: it moves to the end of the numbers.
    RunMetricsRow run3 = sampleTable().rows[2];
    run3.metrics[QStringLiteral("samples_per_s")].value = 50;
    m.patchRows(patchOf({run3}), {3});
    QCOMPARE(order(m), (QList<qint64>{1, 4, 3, 2, 5}));
    // Run 4 is gone (deleted, or hidden while hidden runs are left out).
    m.patchRows(patchOf({}), {4});
    QCOMPARE(order(m), (QList<qint64>{1, 3, 2, 5}));
    QVERIFY(!m.table().find(4));
    QVERIFY(!m.indexOfRun(4).isValid());
    // A run in the middle of the ids comes back (shown again).
    m.sort(columnOf(m, QStringLiteral("id")), Qt::AscendingOrder);
    m.patchRows(patchOf({sampleTable().rows[3]}), {4});
    QCOMPARE(order(m), (QList<qint64>{1, 2, 3, 4, 5}));
    QCOMPARE(m.table().rows.size(), 5);
}

QTEST_MAIN(TstRunsTableModel)
#include "tst_runstablemodel.moc"

void TstRunsTableModel::energyIsAColumnWithItsProvenance()
{
    RunMetricsTable t = sampleTable();
    MetricRecord e{1, metric::EnergyWh, 1.024, QStringLiteral("Wh"), metric::SourceGpu};
    e.file = QStringLiteral("/data/runs/1/scalelab-gpu-88-tb-node1.csv");
    e.rule = QStringLiteral("gpu.nvidia-smi");
    e.formula = QStringLiteral("trapezoidal integral of each GPU's power samples over time, summed");
    t.rows[0].metrics.insert(metric::EnergyWh, e);
    t.metricNames << metric::EnergyWh;
    t.units.insert(metric::EnergyWh, QStringLiteral("Wh"));
    RunsTableModel m;
    m.setTable(t);
    const int c = columnOf(m, metric::EnergyWh);
    QVERIFY2(c >= 0, qPrintable(m.columns().join(u',')));   // shown without being picked
    QVERIFY(m.headerData(c, Qt::Horizontal).toString().contains(QLatin1String("Wh")));
    QVERIFY(m.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QLatin1String("ConsumedEnergy")));
    QCOMPARE(m.index(0, c).data().toString(), QStringLiteral("1.024"));
    const QString tip = RunsTableModel::provenance(t.rows[0], metric::EnergyWh);
    QVERIFY2(tip.contains(QLatin1String("scalelab-gpu-88-tb-node1.csv")) && tip.contains(QLatin1String("trapezoidal")),
             qPrintable(tip));
}
