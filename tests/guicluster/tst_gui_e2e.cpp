// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop app's cluster layer against the real loopback cluster: the
// Jobs place + ClusterManager submit a 2-GPU testbed job, the poller (10 s
// interval, the minimum) brings it to COMPLETED in the Jobs table and the
// output tail shows what the program printed; a dry run gives Slurm's
// verdict; a cancelled job shows CANCELLED. Fails without the cluster:
// start it with tests/cluster/testcluster up and run this binary directly.
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/cluster/ClusterManager.h"
#include "ui/cluster/ConnectionsDialog.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"
#include "ui/jobs/OutputTailView.h"
#include "ProfileFixtures.h"
#include "ui/jobs/RunDetailsView.h"
#include "core/store/RunStore.h"
#include "core/compose/SbatchRenderer.h"
#include "core/compose/StudyPlanner.h"
#include "core/model/JobSpecJson.h"
#include "TestClusterEnv.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

using namespace scalelab;

namespace {

JobSpec e2eSpec(const QString &program, const QStringList &args)
{
    return test::testbedSpec(QStringLiteral("gui-e2e"), 2, program, args);
}

}   // namespace

class TestGuiE2e : public QObject {
    Q_OBJECT

    test::TestClusterEnv m_env;
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ClusterManager> m_clusters;
    std::unique_ptr<JobsPlace> m_place;

    QString stateOf(qint64 runId)
    {
        return m_place->model()->indexOfRun(runId, JobsModel::State).data(JobsModel::StateIdRole).toString();
    }

    qint64 newestRunId()
    {
        qint64 id = 0;
        for (const RunRecord &r : m_services->store().runs().value())
            id = std::max(id, r.id);
        return id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(m_dir.isValid());
        // Our own store and settings, not the fixture's shared data dir.
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath("data").toLocal8Bit());
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath("settings.ini").toLocal8Bit());
        AppSettings::set(AppSettings::Key::PollIntervalSeconds, 10);
        QCOMPARE(AppSettings::pollIntervalSeconds(), 10);
        QCOMPARE(AppSettings::sshConfigPath(), m_env.sshConfig);

        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
        QVERIFY(m_services->profiles().find(QStringLiteral("testbed")));
        m_clusters = std::make_unique<ClusterManager>(*m_services);
        QCOMPARE(m_services->clusters(), m_clusters.get());
        QCOMPARE(m_clusters->aliasForProfile(QStringLiteral("testbed")), QStringLiteral("testbed"));
        m_place = std::make_unique<JobsPlace>(*m_services);
        m_place->resize(1280, 720);
        m_place->show();
    }

    void cleanupTestCase()
    {
        m_place.reset();
        m_clusters.reset();   // stops the worker threads
        m_services.reset();
    }

    void connectionsDialogTest()
    {
        ConnectionsDialog d(*m_services);
        d.selectProfile(QStringLiteral("testbed"));
        QSignalSpy finished(&d, &ConnectionsDialog::testFinished);
        d.startTest();
        QVERIFY(d.isTesting());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        QVERIFY2(finished.first().first().toBool(), qPrintable(d.resultText()));
        QVERIFY2(d.resultText().contains(m_env.slurmSeries), qPrintable(d.resultText()));
        QVERIFY2(d.resultText().contains(QLatin1String("User: researcher")), qPrintable(d.resultText()));
        QVERIFY2(d.resultText().contains(QLatin1String("project_2001234: all partitions")), qPrintable(d.resultText()));
    }

    void dryRunGivesSlurmsVerdict()
    {
        QSignalSpy done(m_clusters.get(), &ClusterManager::dryRunFinished);
        m_clusters->dryRun(e2eSpec(QStringLiteral("/bin/true"), {}));
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
        QVERIFY2(done.first().at(1).toBool(), qPrintable(done.first().at(0).toString()));
        QVERIFY2(done.first().at(0).toString().contains(QLatin1String("to start at")),
                 qPrintable(done.first().at(0).toString()));
    }

    // Dry run also asks the cluster whether the program exists (`test -e` over
    // the open connection). The path carries a space and a `;`: it reaches the
    // remote shell as one quoted word, so the command after `;` never runs.
    void dryRunFindsAMissingProgram()
    {
        const QString canary = QStringLiteral("/tmp/scalelab-dryrun-canary-%1").arg(QCoreApplication::applicationPid());
        QFile::remove(canary);
        const QString program = QStringLiteral("/tmp/scalelab no-such-program;touch ") + canary;
        QSignalSpy done(m_clusters.get(), &ClusterManager::dryRunFinished);
        m_clusters->dryRun(e2eSpec(program, {}));
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
        const QString verdict = done.first().at(0).toString();
        QVERIFY2(!done.first().at(1).toBool(), qPrintable(verdict));
        QVERIFY2(verdict.contains(QLatin1String("does not exist on the cluster")), qPrintable(verdict));
        QVERIFY2(verdict.contains(program), qPrintable(verdict));
        QVERIFY2(!QFile::exists(canary), "the text after ';' ran in a remote shell");
    }

    void submitRunsToCompletedWithOutput()
    {
        QSignalSpy submitted(m_clusters.get(), &ClusterManager::submitFinished);
        QSignalSpy status(m_clusters.get(), &ClusterManager::clusterMessage);   // "submitting 1 run(s) to testbed…"
        // What the store holds for a run at the moment the window learns it
        // finished: the poll cycle that saw it finish has already ingested it,
        // and no Results place exists in this test.
        QMap<qint64, QMap<QString, double>> metricsWhenFinished;
        const QMetaObject::Connection finishedWatch =
            connect(m_clusters.get(), &ClusterManager::runFinished, this, [&](qint64 id, const QString &) {
                for (const MetricRecord &m : m_services->store().metrics(id).value())
                    metricsWhenFinished[id].insert(m.name, m.value);
            });
        const qint64 before = newestRunId();
        m_clusters->submit({e2eSpec(QStringLiteral("/bin/echo"),
                                    {QStringLiteral("hello"), QStringLiteral("from"), QStringLiteral("gui-e2e")})},
                           QStringLiteral("GUI end-to-end"));
        // The batch (the intent) is stored on the pool, before anything is sent.
        QTRY_VERIFY(newestRunId() > before);
        const qint64 runId = newestRunId();
        // Shown in the table under its study (read on a pool thread).
        QTRY_VERIFY(m_place->model()->indexOfRun(runId).isValid());
        const QModelIndex row = m_place->model()->indexOfRun(runId);
        QCOMPARE(row.parent().data().toString(), QStringLiteral("GUI end-to-end"));
        QVERIFY(m_place->selectRun(runId));

        QTRY_VERIFY_WITH_TIMEOUT(submitted.count() == 1, 60000);
        QVERIFY2(submitted.first().at(1).toBool(), qPrintable(submitted.first().at(0).toString()));
        const RunRecord run = m_services->store().run(runId).value();
        QVERIFY(run.hasJob());
        QCOMPARE(run.clusterAlias, QStringLiteral("testbed"));
        QVERIFY(!status.isEmpty());

        // The poller (not the test) brings the state into the table.
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runId) == QLatin1String("COMPLETED"), 120000);
        QCOMPARE(m_place->model()->indexOfRun(runId, JobsModel::JobId).data().toString(), run.jobId);
        QTRY_VERIFY_WITH_TIMEOUT(metricsWhenFinished.contains(runId), 30000);
        QCOMPARE(metricsWhenFinished[runId].value(QStringLiteral("gpus")), 2.0);
        QCOMPARE(metricsWhenFinished[runId].value(QStringLiteral("exit_code")), 0.0);
        QVERIFY(metricsWhenFinished[runId].contains(QStringLiteral("elapsed_s")));
        disconnect(finishedWatch);
        QTRY_VERIFY_WITH_TIMEOUT(
            m_place->details()->outputView()->toPlainText().contains(QLatin1String("hello from gui-e2e")), 30000);
        // Accounting was stored with the final state and is shown.
        QTRY_VERIFY_WITH_TIMEOUT(!m_place->details()
                                      ->accountingView()
                                      ->findItems(QStringLiteral("AllocTRES"), Qt::MatchExactly, 0)
                                      .isEmpty(),
                                 10000);
        const QString tres = m_place->details()
                                 ->accountingView()
                                 ->findItems(QStringLiteral("AllocTRES"), Qt::MatchExactly, 0)
                                 .first()
                                 ->text(1);
        QVERIFY2(tres.contains(QLatin1String("gres/gpu=2")), qPrintable(tres));
        const QString shot =
            qEnvironmentVariable("SCALELAB_SCREENSHOT_DIR", QDir::tempPath()) + QStringLiteral("/jobs-e2e.png");
        m_place->grab().save(shot);
    }

    // A run left "unknown" by a crash (sbatch may or may not have run) is
    // settled from the cluster when a new ClusterManager connects: here no
    // job exists, so it is submitted once and completes.
    void unresolvedRunIsReconciledOnConnect()
    {
        const JobSpec spec = e2eSpec(QStringLiteral("/bin/echo"), {QStringLiteral("reconciled")});
        RunRecord r;
        r.profile = spec.profile;
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = spec.partition;
        r.gpus = spec.gpus;
        r.framework = frameworkId(spec.framework);
        r.specJson = jobSpecToJson(spec);
        r.script = renderSbatch(spec, *m_services->profiles().find(QStringLiteral("testbed")));
        const auto created = m_services->store().createRun(r);
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        QCOMPARE(m_services->store().setSubmitState(created.value().id, SubmitState::Unknown).errorText(), QString());

        m_clusters.reset();
        m_clusters = std::make_unique<ClusterManager>(*m_services);
        QTRY_VERIFY_WITH_TIMEOUT(m_services->store().run(created.value().id).value().hasJob(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(created.value().id) == QLatin1String("COMPLETED"), 120000);
        // Exactly one job: the token is on one job only.
        QCOMPARE(m_services->store().run(created.value().id).value().submitState, SubmitState::Submitted);
    }

    // The window's study path on the real cluster: two repeats of one point,
    // one at a time (the default order). The second job waits for the first
    // (a Slurm dependency), so their run times never overlap, and both land
    // in the Jobs table under the study with their accounting.
    void studyRepeatsRunOneAtATime()
    {
        const JobSpec spec = e2eSpec(QStringLiteral("/bin/sleep"), {QStringLiteral("3")});
        QSignalSpy submitted(m_clusters.get(), &ClusterManager::submitFinished);
        const qint64 before = newestRunId();
        m_clusters->submit({spec, spec}, QStringLiteral("GUI repeats"), StudyOrder::OneAtATime);
        QTRY_VERIFY_WITH_TIMEOUT(submitted.count() == 1, 60000);
        QVERIFY2(submitted.first().at(1).toBool(), qPrintable(submitted.first().at(0).toString()));
        const QList<qint64> ids{before + 1, before + 2};
        QCOMPARE(newestRunId(), ids.last());
        for (qint64 id : ids) {
            QCOMPARE(m_place->model()->indexOfRun(id).parent().data().toString(), QStringLiteral("GUI repeats"));
            QTRY_VERIFY_WITH_TIMEOUT(stateOf(id) == QLatin1String("COMPLETED"), 180000);
        }
        QList<std::optional<SacctRecord>> acct;
        for (qint64 id : ids) {
            QTRY_VERIFY_WITH_TIMEOUT(m_services->store().accounting(id).value().has_value()
                                         && !m_services->store().accounting(id).value()->end.isEmpty(),
                                     60000);
            acct << m_services->store().accounting(id).value();
        }
        const QDateTime firstEnd = QDateTime::fromString(acct[0]->end, Qt::ISODate);
        const QDateTime secondStart = QDateTime::fromString(acct[1]->start, Qt::ISODate);
        QVERIFY2(firstEnd.isValid() && secondStart.isValid(), qPrintable(acct[0]->end + " / " + acct[1]->start));
        QVERIFY2(secondStart >= firstEnd,
                 qPrintable(QStringLiteral("the second repeat started %1, before the first ended %2")
                                .arg(acct[1]->start, acct[0]->end)));
    }

    void cancelShowsCancelled()
    {
        QSignalSpy submitted(m_clusters.get(), &ClusterManager::submitFinished);
        const qint64 before = newestRunId();
        m_clusters->submit({e2eSpec(QStringLiteral("/bin/sleep"), {QStringLiteral("240")})}, QString());
        QTRY_VERIFY(newestRunId() > before);   // stored on the pool
        const qint64 runId = newestRunId();
        QTRY_VERIFY_WITH_TIMEOUT(submitted.count() == 1, 60000);
        QVERIFY2(submitted.first().at(1).toBool(), qPrintable(submitted.first().at(0).toString()));
        QVERIFY(!m_place->model()->indexOfRun(runId).parent().isValid());   // no study: a top-level row
        QSignalSpy cancelled(m_clusters.get(), &ClusterManager::cancelFinished);
        m_clusters->cancel(runId);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.count() == 1, 60000);
        QVERIFY2(cancelled.first().at(2).toBool(), qPrintable(cancelled.first().at(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runId) == QLatin1String("CANCELLED"), 120000);
    }
};

QTEST_MAIN(TestGuiE2e)
#include "tst_gui_e2e.moc"
