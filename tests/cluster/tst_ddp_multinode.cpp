// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-node PyTorch DDP end to end on the real cluster (both versions via
// the slurm22/slurm24 labels): a 2-node, 8-GPU job (4 per node, gloo on CPU)
// of the README's example program completes with world size 8 in its log,
// launched by torchrun (c10d rendezvous) and by srun (MASTER_ADDR). The test
// cluster's node names (tb-node1/2) do not resolve: the rendered script must
// take rank 0's address from Slurm (NodeAddr).
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/compose/SbatchRenderer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestDdpMultinode : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
        // The node names are labels only: they must not resolve here, or this
        // test would not prove anything about NodeAddr.
        const RemoteResult r =
            m_cluster.ssh->run({QStringLiteral("getent"), QStringLiteral("hosts"), QStringLiteral("tb-node1")});
        QCOMPARE(r.exitCode, 2);
    }

    void twoNodesEightRanks_data()
    {
        QTest::addColumn<int>("launcher");
        QTest::newRow("torchrun") << int(Launcher::Torchrun);
        QTest::newRow("srun") << int(Launcher::Srun);
    }

    void twoNodesEightRanks()
    {
        QFETCH(int, launcher);
        JobSpec s = test::testbedSpec(QStringLiteral("ddp-2node"), 8,
                                      QStringLiteral("/tmp/scalelab-testcluster/examples/pytorch_ddp_digits.py"),
                                      {QStringLiteral("--epochs"), QStringLiteral("2")});
        s.launcher = Launcher(launcher);
        s.time = QStringLiteral("00:10:00");
        s.memory = QStringLiteral("6000M");
        RunRecord r;
        r.profile = s.profile;
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = s.partition;
        r.gpus = s.gpus;
        r.nodes = 2;
        r.framework = frameworkId(s.framework);
        r.script = renderSbatch(s, test::repoProfile("testbed"));
        QVERIFY2(r.script.contains("NodeAddr="), qPrintable(r.script));
        const auto created = m_cluster.store->createRun(r);
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        const qint64 id = created.value().id;
        const SubmitOutcome o = m_cluster.client->submit(id);
        QVERIFY2(o.kind == SubmitOutcome::Kind::Submitted, qPrintable(o.message));
        QVERIFY(m_cluster.pollUntil([&] { return m_cluster.store->run(id).value().isTerminal(); }, 600));
        const RunRecord done = m_cluster.store->run(id).value();
        const FetchResult f = m_cluster.client->fetch(id);
        QString log;
        for (const auto &file : f.files)
            if (file.remotePath.endsWith(SlurmClient::outputFileName(done.jobId))) {
                QFile in(file.localPath);
                QVERIFY(in.open(QIODevice::ReadOnly));
                log = QString::fromUtf8(in.readAll());
            }
        QCOMPARE(SlurmJobState::id(done.state) + QStringLiteral("\n") + log.right(3000),
                 QStringLiteral("COMPLETED\n") + log.right(3000));
        for (int rank = 0; rank < 8; ++rank)
            QVERIFY2(log.contains(QStringLiteral("rank %1/8 ").arg(rank)), qPrintable(log.right(3000)));
        QVERIFY2(log.contains(QStringLiteral("node=tb-node1")) && log.contains(QStringLiteral("node=tb-node2")),
                 qPrintable(log.right(3000)));
        QVERIFY2(!log.contains(QStringLiteral("rank 0/1 ")), qPrintable(log.right(3000)));
    }
};

QTEST_GUILESS_MAIN(TestDdpMultinode)
#include "tst_ddp_multinode.moc"
