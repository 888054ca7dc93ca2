// SPDX-License-Identifier: GPL-3.0-or-later
// Compose and the study dialog show what a job costs (computed in core on
// every edit) and, on demand, when it would start in each partition that fits
// it; an estimate of an earlier form of the job is not shown as this one's.
#include "IdleClusterService.h"
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "core/client/StartEstimator.h"
#include "ui/common/AppServices.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/JobForm.h"
#include "ui/compose/ScalingStudyDialog.h"
#include "ui/compose/StartCostPanel.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace scalelab;

namespace {

// Answers estimateStart with the words core makes of what the 22.05 test
// cluster printed while both nodes were busy for an hour (gputest's 15
// minutes fit before gpu's limit does).
class EstimatingClusters : public test::IdleClusterService {
public:
    using IdleClusterService::IdleClusterService;
    QList<JobSpec> asked;
    void estimateStart(const JobSpec &spec) override
    {
        asked << spec;
        const QString mark = QStringLiteral("@@scalelab-estimate ");
        const QString out =
            QStringLiteral("2026-11-27T06:19:36\n") + mark + "partition gputest\n"
            + "sbatch: Job 48 to start at 2026-11-27T06:19:36 using 1 processors on nodes tb-node1 in partition "
              "gputest\n"
            + mark + "exit 0\n" + mark + "partition gpu\n"
            + "sbatch: Job 47 to start at 2026-11-27T08:24:36 using 1 processors on nodes tb-node1 in partition gpu\n"
            + mark + "exit 0\n" + mark + "sshare\nproject_2001234|researcher||cpu=0,billing=0\n" + mark + "exit 0\n";
        const StartEstimates e = StartEstimator::parseOutput(out);
        Q_EMIT startEstimated(spec.profile, e.describe(), e.ok());
    }
};

}   // namespace

class TestStartCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_startcost"));
        m_services = std::make_unique<AppServices>();
        QVERIFY2(m_services->storeError().isEmpty(), qPrintable(m_services->storeError()));
        m_services->setClusters(&m_clusters);
    }

    void cleanupTestCase()
    {
        m_services->setClusters(nullptr);
        m_services.reset();
    }

    void composeShowsCostAndStartEstimate()
    {
        ComposePlace place(*m_services);
        place.resize(1280, 860);
        place.show();
        QVERIFY(QTest::qWaitForWindowExposed(&place));
        JobForm *form = place.form();
        JobSpec s = baseSpec();
        s.gpus = 2;
        s.time = QStringLiteral("00:10:00");
        place.loadSpec(s);
        StartCostPanel *panel = form->startCostPanel();
        QTRY_VERIFY2(
            panel->costLabel()->text().startsWith(QStringLiteral("0.33 GPU-hours (2 GPUs × 00:10:00, the time limit)")),
            qPrintable(panel->costLabel()->text()));
        // The testbed profile states no billing weights: said, not guessed.
        QVERIFY(panel->costLabel()->text().contains(QLatin1String("billing unknown")));
        QCOMPARE(panel->estimateLabel()->text(), QStringLiteral("not asked yet for this job"));
        QVERIFY2(panel->askButton()->isEnabled(), qPrintable(panel->askButton()->toolTip()));

        QTest::mouseClick(panel->askButton(), Qt::LeftButton);
        QCOMPARE(m_clusters.asked.size(), 1);
        QCOMPARE(m_clusters.asked[0].gpus, 2);
        QTRY_VERIFY2(panel->estimateLabel()->text().startsWith(QLatin1String("gputest: now, gpu: in about 2 h")),
                     qPrintable(panel->estimateLabel()->text()));
        QVERIFY(panel->estimateLabel()->text().contains(QLatin1String("remaining allocation: unknown")));
        const QString shot = test::screenshotPath(QStringLiteral("compose-start-cost.png"));
        QVERIFY(place.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // Another job: the estimate shown was of the old one.
        form->gpusSpin()->setValue(4);
        QTRY_COMPARE(panel->estimateLabel()->text(), QStringLiteral("not asked yet for this job"));
        QVERIFY(panel->costLabel()->text().startsWith(QLatin1String("0.67 GPU-hours")));
    }

    void studyDialogShowsTheStudyTotal()
    {
        const ClusterProfile *profile = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(profile);
        ScalingStudyDialog dlg(*m_services, baseSpec(), *profile);
        dlg.setSelectedGpuCounts({1, 2, 4});
        dlg.repeatsBox()->setValue(2);
        QCOMPARE(dlg.variants().size(), 6);
        StartCostPanel *panel = dlg.startCostPanel();
        // (1 + 2 + 4) GPUs x 1 h x 2 repeats.
        QVERIFY2(panel->costLabel()->text().startsWith(QLatin1String("14 GPU-hours; billing unknown for 6 of 6 runs")),
                 qPrintable(panel->costLabel()->text()));
        m_clusters.asked.clear();
        QTest::mouseClick(panel->askButton(), Qt::LeftButton);
        QCOMPARE(m_clusters.asked.size(), 1);
        QCOMPARE(m_clusters.asked[0].gpus, 4);   // the largest run waits longest
        QTRY_VERIFY2(panel->estimateLabel()->text().startsWith(QLatin1String("for the 4-GPU run: gputest: now")),
                     qPrintable(panel->estimateLabel()->text()));
    }

private:
    static JobSpec baseSpec()
    {
        JobSpec base;
        base.profile = QStringLiteral("testbed");
        base.partition = QStringLiteral("gpu");
        base.framework = Framework::PytorchDdp;
        base.gpus = 1;
        base.time = QStringLiteral("01:00:00");
        base.jobName = QStringLiteral("study");
        base.account = QStringLiteral("project_2001234");
        base.cpusPerGpu = 1;
        base.program = QStringLiteral("train.py");
        return base;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    EstimatingClusters m_clusters;
};

QTEST_MAIN(TestStartCost)
#include "tst_startcost.moc"
