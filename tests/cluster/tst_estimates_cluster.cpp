// SPDX-License-Identifier: GPL-3.0-or-later
// Before a job starts, on the real loopback cluster (22.05 and 24.11):
// sbatch --test-only answers for every partition that fits a job, in one
// remote command, and a job that waits behind a full cluster shows its
// reason in words and Slurm's expected start. Fails without the cluster.
#include "CliRunner.h"
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/analysis/PendingRunText.h"
#include "core/client/StartEstimator.h"
#include "core/compose/PartitionFit.h"
#include "core/compose/SbatchRenderer.h"
#include "core/model/JobSpecJson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestEstimatesCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;
    QString m_programs;

    JobSpec sleeperSpec(int gpus, const QString &time) const
    {
        JobSpec s = test::testbedSpec(QStringLiteral("estimate"), gpus, m_programs + QStringLiteral("/sleeper.py"));
        s.time = time;
        return s;
    }

    qint64 submit(const JobSpec &s)
    {
        RunRecord r;
        r.profile = s.profile;
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = s.partition;
        r.gpus = s.gpus;
        r.framework = frameworkId(s.framework);
        r.script = renderSbatch(s, test::repoProfile(QStringLiteral("testbed")));
        r.specJson = jobSpecToJson(s);
        const auto c = m_cluster.store->createRun(r);
        if (!c.ok())
            qFatal("%s", qPrintable(c.errorText()));
        const SubmitOutcome o = m_cluster.client->submit(c->id);
        if (o.kind != SubmitOutcome::Kind::Submitted)
            qFatal("submit: %s", qPrintable(o.message));
        return c->id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
        // Jobs run as the cluster's researcher on this machine: world-readable.
        m_programs = QStringLiteral("/tmp/scalelab-estimates-test-%1").arg(QCoreApplication::applicationPid());
        QDir().mkpath(m_programs);
        QFile::setPermissions(m_programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther);
        QFile sleeper(m_programs + QStringLiteral("/sleeper.py"));
        QVERIFY(sleeper.open(QIODevice::WriteOnly));
        sleeper.write("import time\nprint('sleeping', flush=True)\ntime.sleep(900)\n");
        sleeper.close();
        QFile::setPermissions(sleeper.fileName(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
    }

    void cleanupTestCase()
    {
        if (m_cluster.store)
            if (const auto runs = m_cluster.store->runs(); runs.ok())
                for (const RunRecord &r : *runs)
                    if (r.hasJob() && !r.isTerminal())
                        (void)m_cluster.client->cancel(r.id);
        QDir(m_programs).removeRecursively();
    }

    void testOnlyForEveryPartitionThatFits()
    {
        const JobSpec s = sleeperSpec(2, QStringLiteral("00:10:00"));
        const ClusterProfile &tb = test::repoProfile(QStringLiteral("testbed"));
        const QStringList partitions = PartitionFit::fitting(s, tb);
        QCOMPARE(partitions, (QStringList{"gpu", "gputest", "gpusmall"}));
        const StartEstimates e = StartEstimator(*m_cluster.ssh).estimate(renderSbatch(s, tb), partitions);
        QVERIFY2(e.ok(), qPrintable(e.error));
        QVERIFY(e.clusterNow.has_value());
        QCOMPARE(e.partitions.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const PartitionStart &p = e.partitions[i];
            QVERIFY2(p.reply.willRun, qPrintable(p.words()));
            QCOMPARE(p.exitCode, 0);
            QCOMPARE(p.partition, partitions[i]);
            QCOMPARE(p.reply.partition, partitions[i]);
            QVERIFY(p.waitSeconds.has_value());
        }
        // The testbed sets no GrpTRESMins: the allocation is unknown, never guessed.
        QVERIFY2(!e.allocation.known, qPrintable(e.allocation.text()));
        QVERIFY(e.allocation.unknownWhy.contains(QLatin1String("GrpTRESMins")));
        qInfo("estimate: %s", qPrintable(e.describe()));
    }

    void pendingJobShowsReasonAndExpectedStart()
    {
        // Eight GPUs for 30 minutes fill both nodes; two more must wait for them.
        const qint64 filler = submit(sleeperSpec(8, QStringLiteral("00:30:00")));
        QVERIFY(m_cluster.pollUntil([&] { return m_cluster.store->run(filler)->state == JobState::Running; }, 60));
        const qint64 waiter = submit(sleeperSpec(2, QStringLiteral("00:10:00")));
        // The backfill scheduler sets the expected start on its next pass (bf_interval, 30 s by default).
        QVERIFY(m_cluster.pollUntil(
            [&] {
                const RunRecord r = m_cluster.store->run(waiter).value();
                return r.state == JobState::Pending && !r.expectedStart.isEmpty();
            },
            120));
        const RunRecord r = m_cluster.store->run(waiter).value();
        QVERIFY2(r.reason == QLatin1String("Resources") || r.reason == QLatin1String("Priority"), qPrintable(r.reason));
        const PendingRunInfo info = PendingRunText::of(r, {});
        QVERIFY(info.pending && !info.words.isEmpty() && !info.advice.isEmpty());
        QVERIFY2(info.text().contains(QLatin1String("Expected start 20")), qPrintable(info.text()));
        qInfo("pending: %s", qPrintable(info.text()));
        // `scalelab status --json` on the same store carries it too.
        QProcessEnvironment env;
        env.insert(QStringLiteral("SCALELAB_DATA_DIR"), m_data.path());
        env.insert(QStringLiteral("SCALELAB_SSH_CONFIG"), m_cluster.env.sshConfig);
        const auto cli = test::runCli({QStringLiteral("status"), QStringLiteral("--json")}, env, 120000);
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QJsonObject pending;
        for (const auto &v : QJsonDocument::fromJson(cli.out.toUtf8()).object().value(QStringLiteral("runs")).toArray())
            if (v.toObject().value(QStringLiteral("id")).toInteger() == waiter)
                pending = v.toObject().value(QStringLiteral("pending")).toObject();
        QVERIFY2(!pending.isEmpty(), qPrintable(cli.out));
        QVERIFY(!pending.value(QStringLiteral("words")).toString().isEmpty());
        QVERIFY(!pending.value(QStringLiteral("advice")).toString().isEmpty());
        QVERIFY(!pending.value(QStringLiteral("expectedStart")).toString().isEmpty());
        // The filler's 30 minutes lie ahead of it: the expected start is not now.
        const StartEstimates busy = StartEstimator(*m_cluster.ssh)
                                        .estimate(renderSbatch(sleeperSpec(2, QStringLiteral("00:10:00")),
                                                               test::repoProfile(QStringLiteral("testbed"))),
                                                  {QStringLiteral("gpu")});
        QVERIFY2(busy.ok() && busy.partitions.size() == 1, qPrintable(busy.summary()));
        QVERIFY2(busy.partitions[0].waitSeconds.value_or(0) > 20 * 60, qPrintable(busy.summary()));
        QVERIFY(busy.summary().startsWith(QLatin1String("gpu: in about ")));
        for (qint64 id : {waiter, filler})
            QVERIFY(m_cluster.client->cancel(id).ok());
        QVERIFY(m_cluster.pollUntil([&] { return m_cluster.store->run(waiter)->isTerminal(); }, 60));
        QCOMPARE(m_cluster.store->run(waiter)->expectedStart, QString());
    }
};

QTEST_GUILESS_MAIN(TestEstimatesCluster)
#include "tst_estimates_cluster.moc"
