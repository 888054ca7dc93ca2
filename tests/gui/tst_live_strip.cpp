// SPDX-License-Identifier: GPL-3.0-or-later
// Jobs while runs run (issue 28): the live watch's per-GPU strips (use and
// memory) and throughput in the "GPU use (live)" column, patched by run id,
// and the alert banner with Cancel job (asks first) and the summary of alerts
// raised while the window was closed. Saves live-strip.png.
#include "IdleClusterService.h"
#include "ScreenshotDir.h"
#include "core/ingest/AlertRules.h"
#include "core/ingest/LiveRunState.h"
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/jobs/AlertBanner.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"
#include "ui/jobs/LiveStripDelegate.h"
#include "ui/common/AppSettings.h"
#include "ui/window/AlertSettingsBox.h"

#include <QCheckBox>
#include <QLabel>
#include <QSpinBox>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace scalelab;

namespace {

// Four GPUs sampled for `seconds`: GPU 0 works, 1-3 idle (one process for four GPUs).
LiveRunState oneOfFour(int seconds)
{
    QByteArray csv("index, timestamp, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n");
    for (int s = 0; s < seconds; ++s)
        for (int g = 0; g < 4; ++g)
            csv += QStringLiteral("%1, 2026/11/27 10:%2:%3.000, %4 %, %5 MiB, 32480 MiB\n")
                       .arg(g)
                       .arg(s / 60, 2, 10, QLatin1Char('0'))
                       .arg(s % 60, 2, 10, QLatin1Char('0'))
                       .arg(g == 0 ? 60 + (s * 7) % 35 : 0)
                       .arg(g == 0 ? 30994 : 310)
                       .toUtf8();
    LiveRunState st;
    st.setFirstSeen(0);
    st.addGpuBytes(QStringLiteral("scalelab-gpu-301-gpu-node1.csv"), csv, 0);
    st.addOutputBytes("step 10 samples_per_s 812.5\nstep 20 samples_per_s 806.0\n", 1);
    return st;
}

}   // namespace

class TestLiveStrip : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    qint64 m_running = 0, m_other = 0;

    qint64 addRunning(const QString &jobId, const QString &name)
    {
        RunStore &store = m_services->store();
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = QStringLiteral("gpu");
        r.gpus = 4;
        r.nodes = 1;
        r.script = QStringLiteral("#!/bin/bash\n#SBATCH --job-name=%1\n").arg(name);
        const qint64 id = store.createRun(r).value().id;
        if (!store.markSubmitted(id, jobId) || !store.updateState(id, JobState::Running, {}))
            qFatal("store");
        return id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath("data").toLocal8Bit());
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath("settings.ini").toLocal8Bit());
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
        m_other = addRunning(QStringLiteral("300"), QStringLiteral("other"));
        m_running = addRunning(QStringLiteral("301"), QStringLiteral("one-process"));
    }

    void stripAndBannerOfARunningRun()
    {
        test::IdleClusterService cluster;
        m_services->setClusters(&cluster);
        const auto detach = qScopeGuard([this] { m_services->setClusters(nullptr); });
        JobsPlace place(*m_services);
        place.resize(1500, 520);
        place.show();
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.view()->itemDelegateForColumn(JobsModel::Live));

        // The live watch's view of one run reaches its row only (patched by run id).
        const LiveRunState state = oneOfFour(480);
        QSignalSpy changed(place.model(), &QAbstractItemModel::dataChanged);
        cluster.publishLive({state.view(m_running)});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0][0].toModelIndex(), place.model()->indexOfRun(m_running, JobsModel::Live));
        const QModelIndex cell = place.model()->indexOfRun(m_running, JobsModel::Live);
        QCOMPARE(cell.data().toString(), QStringLiteral("806 samples/s"));
        const QString tip = cell.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("GPU gpu-node1:1: 0 % · 0.3 of 31.7 GiB"))
                     && tip.contains(QStringLiteral("GPU gpu-node1:0: ")),
                 qPrintable(tip));
        QVERIFY(!place.model()->indexOfRun(m_other, JobsModel::Live).data(Qt::ToolTipRole).isValid()
                || place.model()->indexOfRun(m_other, JobsModel::Live).data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(place.model()->liveView(m_running)->gpus.size(), 4);
        QCOMPARE(place.model()->liveView(m_running)->gpus[0].recentUtil.size(), 24);

        // The rules' alert for that run: the banner says what, why and what to do, and offers Cancel.
        AlertThresholds t;
        const QList<AlertRecord> alerts = AlertRules::evaluate(m_running, state, t, 480);
        QCOMPARE(alerts.size(), 1);
        QVERIFY(!place.alertBanner()->isVisible());
        cluster.publishAlerts(alerts);
        QVERIFY(place.alertBanner()->isVisible());
        const QString text = place.alertBanner()->textLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("Run %1 — GPUs idle").arg(m_running))
                     && text.contains(QStringLiteral("gpu-node1:1, gpu-node1:2, gpu-node1:3 under 5 %"))
                     && text.contains(QStringLiteral("one process per GPU")),
                 qPrintable(text));
        place.view()->resizeColumnToContents(JobsModel::Live);
        QVERIFY(place.view()->columnWidth(JobsModel::Live) >= 4 * LiveStripDelegate::kStripWidth);
        QTest::qWait(50);
        QVERIFY(place.grab().save(test::screenshotPath(QStringLiteral("live-strip.png"))));

        // Cancel job asks first, about the alert's run.
        place.alertBanner()->cancelButton()->click();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = place.findChild<QMessageBox *>(QStringLiteral("cancelConfirmation"))));
        QVERIFY2(box->text().contains(QStringLiteral("job 301 (run %1)").arg(m_running)), qPrintable(box->text()));
        QCOMPARE(place.selectedRunId(), m_running);
        box->reject();

        // Dismiss empties the banner; a summary of alerts raised while closed says so.
        place.alertBanner()->findChild<QPushButton *>(QStringLiteral("alertDismissButton"))->click();
        QVERIFY(!place.alertBanner()->isVisible());
        QVERIFY(cluster.bannerAlerts().isEmpty());
        cluster.publishAlerts(alerts, true);
        QVERIFY2(place.alertBanner()->textLabel()->text().startsWith(QStringLiteral("While you were away: 1 alert")),
                 qPrintable(place.alertBanner()->textLabel()->text()));

        // The run ends: its strip goes.
        cluster.publishLive({}, {m_running});
        QVERIFY(!place.model()->liveView(m_running));
        QCOMPARE(cell.data().toString(), QString());
    }

    // Settings: every rule switchable, the windows in seconds; `scalelab status` reads the same keys.
    void thresholdsAndRulesInSettings()
    {
        AlertThresholds t;
        t.idleSeconds = 45;
        AlertSettingsBox box(t);
        QCOMPARE(box.findChildren<QCheckBox *>().size(), AlertRules::table().size());
        box.findChild<QCheckBox *>(QStringLiteral("alertRule-throughput-drop"))->setChecked(false);
        box.findChild<QSpinBox *>(QStringLiteral("alertWarmupSeconds"))->setValue(7);
        const AlertThresholds chosen = box.thresholds();
        QCOMPARE(chosen.disabled, QStringList{QStringLiteral("throughput-drop")});
        QCOMPARE(chosen.idleSeconds, 45.0);
        QCOMPARE(chosen.warmupSeconds, 7.0);
        AppSettings::setAlertThresholds(chosen);
        QCOMPARE(AppSettings::alertThresholds(), chosen);
    }
};

QTEST_MAIN(TestLiveStrip)
#include "tst_live_strip.moc"
