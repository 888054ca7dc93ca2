// SPDX-License-Identifier: GPL-3.0-or-later
// After an action the app polls that cluster at once: against the real
// loopback cluster with a 5-minute poll interval (the maximum), a submitted job leaves
// "Not sent yet"/PENDING and a cancelled job reaches CANCELLED well before
// any timed poll could have run. Fails without the cluster: start it with
// tests/cluster/testcluster up and run this binary directly.
#include "ProfileFixtures.h"
#include "TestClusterEnv.h"
#include "core/store/RunStore.h"
#include "ui/cluster/ClusterManager.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestCancelE2e : public QObject {
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

private Q_SLOTS:
    void initTestCase()
    {
        m_env = test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(m_dir.isValid());
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath("data").toLocal8Bit());
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath("settings.ini").toLocal8Bit());
        // No timed poll can happen during this test: only the ones an action asks for.
        AppSettings::set(AppSettings::Key::PollIntervalSeconds, 300);
        QCOMPARE(AppSettings::pollIntervalSeconds(), 300);   // the maximum
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
        m_clusters = std::make_unique<ClusterManager>(*m_services);
        m_place = std::make_unique<JobsPlace>(*m_services);
        m_place->show();
    }

    void cleanupTestCase()
    {
        m_place.reset();
        m_clusters.reset();
        m_services.reset();
    }

    void stateFollowsSubmitAndCancelAtOnce()
    {
        QSignalSpy submitted(m_clusters.get(), &ClusterManager::submitFinished);
        m_clusters->submit(
            {test::testbedSpec(QStringLiteral("cancel-now"), 1, QStringLiteral("/bin/sleep"), {QStringLiteral("300")})},
            QString());
        QTRY_VERIFY_WITH_TIMEOUT(submitted.count() == 1, 60000);
        QVERIFY2(submitted.first().at(1).toBool(), qPrintable(submitted.first().at(0).toString()));
        qint64 runId = 0;
        for (const RunRecord &r : m_services->store().runs().value())
            runId = std::max(runId, r.id);
        QVERIFY(m_services->store().run(runId).value().hasJob());
        // The poll right after submit reads squeue: RUNNING (or PENDING while
        // nodes are busy), never left at "Not sent yet".
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runId) == QLatin1String("RUNNING"), 120000);

        QElapsedTimer sinceCancel;
        sinceCancel.start();
        QSignalSpy cancelled(m_clusters.get(), &ClusterManager::cancelFinished);
        m_clusters->cancel(runId);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.count() == 1, 60000);
        QVERIFY2(cancelled.first().at(2).toBool(), qPrintable(cancelled.first().at(1).toString()));
        // The 300 s timer never fires within these 120 s: CANCELLED comes from the poll
        // right after scancel (and its one follow-up while COMPLETING).
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runId) == QLatin1String("CANCELLED"), 120000);
        qInfo("CANCELLED in the table %.1f s after the cancel was asked", sinceCancel.elapsed() / 1000.0);
        // Elapsed stopped: the row is no longer active.
        QVERIFY(!m_place->model()->indexOfRun(runId).data(JobsModel::ActiveRole).toBool());
    }
};

QTEST_MAIN(TestCancelE2e)
#include "tst_cancel_e2e.moc"
