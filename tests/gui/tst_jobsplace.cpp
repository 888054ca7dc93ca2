// SPDX-License-Identifier: GPL-3.0-or-later
// The Jobs place over a real run store (temp SCALELAB_DATA_DIR) holding runs
// in several states and two studies: grouping, filtering, state colours,
// the elapsed/limit progress data, the details of a selected run, and
// passing messages that go after a while (errors stay).
#include "IdleClusterService.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/cluster/ConnectionTest.h"
#include "ui/cluster/ConnectionsDialog.h"
#include "ui/window/SettingsDialog.h"
#include "core/model/JobSpecJson.h"
#include "ui/jobs/JobStateLook.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"
#include "ui/jobs/OutputTailView.h"
#include "ui/jobs/RunDetailsView.h"
#include "core/base/RemoteValidation.h"
#include "core/store/RunStore.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

using namespace scalelab;

namespace {

JobSpec makeSpec(int gpus, const QString &name)
{
    JobSpec s;
    s.profile = QStringLiteral("testbed");
    s.partition = QStringLiteral("gpu");
    s.gpus = gpus;
    s.time = QStringLiteral("00:10:00");
    s.account = QStringLiteral("project_2001234");
    s.jobName = name;
    s.program = QStringLiteral("train.py");
    return s;
}

}   // namespace

class TestJobsPlace : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    qint64 m_completed = 0, m_running = 0, m_pending = 0, m_failed = 0, m_rejected = 0, m_cancelled = 0;
    qint64 m_ddpStudy = 0, m_hvdStudy = 0;

    qint64 addRun(qint64 studyId, int gpus, const QString &name, const QString &jobId)
    {
        RunStore &store = m_services->store();
        RunRecord r;
        r.studyId = studyId;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = QStringLiteral("gpu");
        r.gpus = gpus;
        r.nodes = gpus > 4 ? 2 : 1;
        r.framework = QStringLiteral("pytorch-ddp");
        r.specJson = jobSpecToJson(makeSpec(gpus, name));
        r.script =
            QStringLiteral("#!/bin/bash\n#SBATCH --job-name=%1\n#SBATCH --gres=gpu:v100:%2\nsrun python3 train.py\n")
                .arg(name)
                .arg(gpus);
        const auto created = store.createRun(r);
        if (!created.ok())
            qFatal("%s", qPrintable(created.errorText()));
        if (!jobId.isEmpty())
            if (auto e = store.markSubmitted(created.value().id, jobId); !e)
                qFatal("%s", qPrintable(e.errorText()));
        return created.value().id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("SCALELAB_DATA_DIR", m_dir.filePath("data").toLocal8Bit());
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath("settings.ini").toLocal8Bit());
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
        RunStore &store = m_services->store();
        const QDateTime now = QDateTime::currentDateTimeUtc();

        StudyRecord ddp;
        ddp.name = QStringLiteral("DDP scaling");
        ddp.created = now.addSecs(-600);
        m_ddpStudy = store.createStudy(ddp).value();
        StudyRecord hvd;
        hvd.name = QStringLiteral("Horovod sweep");
        hvd.created = now.addSecs(-3600);
        m_hvdStudy = store.createStudy(hvd).value();

        m_completed = addRun(m_ddpStudy, 1, QStringLiteral("ddp-1"), QStringLiteral("101"));
        if (auto e = store.updateState(m_completed, JobState::Running, {}, now.addSecs(-500)); !e)
            qFatal("%s", qPrintable(e.errorText()));
        SacctRecord acct;
        acct.jobId = QStringLiteral("101");
        acct.jobName = QStringLiteral("ddp-1");
        acct.state = JobState::Completed;
        acct.stateText = QStringLiteral("COMPLETED");
        acct.exitCode = QStringLiteral("0:0");
        acct.elapsed = QStringLiteral("00:05:00");
        acct.timelimit = QStringLiteral("00:10:00");
        acct.allocTres = QStringLiteral("billing=1,cpu=1,gres/gpu:v100=1,gres/gpu=1,mem=1000M,node=1");
        acct.maxRss = QStringLiteral("843688K");
        acct.partition = QStringLiteral("gpu");
        acct.account = QStringLiteral("project_2001234");
        acct.nodeList = QStringLiteral("tb-node1");
        SacctRecord::Step batch;
        batch.stepId = QStringLiteral("batch");
        batch.stateText = QStringLiteral("COMPLETED");
        batch.maxRss = QStringLiteral("843688K");
        acct.steps << batch;
        acct.lines = {{{"JobID", "101"}, {"State", "COMPLETED"}},
                      {{"JobID", "101.batch"}, {"State", "COMPLETED"}, {"MaxRSS", "843688K"}}};
        QCOMPARE(store.recordFinal(m_completed, acct, now.addSecs(-200)).errorText(), QString());

        m_running = addRun(m_ddpStudy, 2, QStringLiteral("ddp-2"), QStringLiteral("102"));
        if (auto e = store.updateState(m_running, JobState::Running, {}, now.addSecs(-120)); !e)
            qFatal("%s", qPrintable(e.errorText()));
        m_pending = addRun(m_ddpStudy, 8, QStringLiteral("ddp-8"), QStringLiteral("103"));
        if (auto e = store.updateState(m_pending, JobState::Pending, QStringLiteral("Resources"), now.addSecs(-60)); !e)
            qFatal("%s", qPrintable(e.errorText()));

        m_cancelled = addRun(m_hvdStudy, 4, QStringLiteral("hvd-4"), QStringLiteral("90"));
        if (auto e = store.updateState(m_cancelled, JobState::Cancelled, {}, now.addSecs(-3000)); !e)
            qFatal("%s", qPrintable(e.errorText()));

        m_failed = addRun(0, 2, QStringLiteral("lonely-fail"), QStringLiteral("104"));
        if (auto e = store.updateState(m_failed, JobState::Running, {}, now.addSecs(-100)); !e)
            qFatal("%s", qPrintable(e.errorText()));
        if (auto e = store.updateState(m_failed, JobState::Failed, {}, now.addSecs(-90)); !e)
            qFatal("%s", qPrintable(e.errorText()));
        m_rejected = addRun(0, 3, QStringLiteral("too-big"), QString());
        if (auto e = store.setSubmitState(
                m_rejected, SubmitState::Rejected,
                QStringLiteral("sbatch: error: Batch job submission failed: Job violates accounting/QOS policy"));
            !e)
            qFatal("%s", qPrintable(e.errorText()));

        // A local copy of the running job's output, with terminal junk in it.
        QDir().mkpath(store.runFilesDirectory(m_running));
        QFile out(store.runFilesDirectory(m_running) + QStringLiteral("/scalelab-102.out"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("epoch 1 loss 0.9\n\x1b[31mred warning\x1b[0m\nprogress 10%\rprogress 100%\nbell\x07 end\n");
        out.close();
    }

    void grouping()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        JobsModel *m = place.model();
        QCOMPARE(m->rowCount(), 4);   // 2 studies + 2 lone runs
        int studies = 0;
        for (int row = 0; row < m->rowCount(); ++row) {
            const QModelIndex i = m->index(row, 0);
            if (!i.data(JobsModel::IsStudyRole).toBool()) {
                QCOMPARE(m->rowCount(i), 0);
                continue;
            }
            ++studies;
            if (i.data().toString() == QLatin1String("DDP scaling")) {
                QCOMPARE(m->rowCount(i), 3);
                // Children ordered by GPU count.
                QCOMPARE(m->index(0, JobsModel::Gpus, i).data().toInt(), 1);
                QCOMPARE(m->index(2, JobsModel::Gpus, i).data().toInt(), 8);
                QCOMPARE(m->index(0, 0, i).data(JobsModel::RunIdRole).toLongLong(), m_completed);
                QCOMPARE(m->index(0, JobsModel::State, i).data().toString(), QStringLiteral("Completed"));
                QVERIFY(i.siblingAtColumn(JobsModel::State).data().toString().contains(QLatin1String("1 Completed")));
                QVERIFY(i.siblingAtColumn(JobsModel::State).data().toString().contains(QLatin1String("1 Running")));
            } else {
                QCOMPARE(i.data().toString(), QStringLiteral("Horovod sweep"));
                QCOMPARE(m->rowCount(i), 1);
            }
        }
        QCOMPARE(studies, 2);
        // Newest first: the DDP study (10 min ago) before Horovod (1 h ago).
        const QModelIndex parent = m->indexOfRun(m_running).parent();
        QCOMPARE(parent.data().toString(), QStringLiteral("DDP scaling"));
        QCOMPARE(m->parent(m->indexOfRun(m_running)), parent);
        QVERIFY(!m->indexOfRun(m_failed).parent().isValid());
    }

    void filtering()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        // Filtered on the pool with the tree (no proxy over the rows on the GUI thread).
        JobsModel *p = place.model();
        QCOMPARE(place.view()->model(), p);
        auto filterBy = [&](const QString &text) {
            place.filterEdit()->setText(text);
            QTRY_VERIFY(!place.isLoading());
            QCOMPARE(p->filter(), text);
        };
        filterBy(QStringLiteral("horovod"));
        QCOMPARE(p->rowCount(), 1);
        QCOMPARE(p->index(0, 0).data().toString(), QStringLiteral("Horovod sweep"));
        QCOMPARE(p->rowCount(p->index(0, 0)), 1);   // a study named so shows all its runs
        // A run's own text keeps its study visible, without the other runs.
        filterBy(QStringLiteral("Resources"));
        QCOMPARE(p->rowCount(), 1);
        QCOMPARE(p->rowCount(p->index(0, 0)), 1);
        QCOMPARE(p->index(0, 0, p->index(0, 0)).data(JobsModel::RunIdRole).toLongLong(), m_pending);
        filterBy(QStringLiteral("102"));
        QCOMPARE(p->rowCount(), 1);
        QCOMPARE(p->index(0, 0, p->index(0, 0)).data(JobsModel::RunIdRole).toLongLong(), m_running);
        filterBy(QStringLiteral("rejected"));
        QCOMPARE(p->rowCount(), 1);
        QCOMPARE(p->index(0, 0).data(JobsModel::RunIdRole).toLongLong(), m_rejected);
        filterBy(QString());
        QCOMPARE(p->rowCount(), 4);
    }

    // The view is given the top-level rows a chunk at a time: a first showing
    // of many runs lays out only the first rows; the rest come as it scrolls.
    void firstRowsOnlyThenMoreOnDemand()
    {
        // (QAbstractItemModelTester fetches more itself: it checks these models after the counts.)
        JobsModel m(m_services->store());
        m.setFetchChunk(2);
        m.reload();
        QTRY_VERIFY(!m.isLoading());
        QCOMPARE(m.rowCount(), 2);
        QVERIFY(m.canFetchMore({}));
        QCOMPARE(m.runCount(), 6);   // read whole all the same
        QVERIFY(m.indexOfRun(m_rejected).isValid());   // newest first
        QVERIFY(!m.indexOfRun(m_cancelled).isValid());   // not given to the view yet
        m.fetchMore({});
        QCOMPARE(m.rowCount(), 4);
        QVERIFY(!m.canFetchMore({}));
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);

        // Selecting a run further down gives the view the rows down to it.
        JobsModel one(m_services->store());
        one.setFetchChunk(1);
        one.reload();
        QTRY_VERIFY(!one.isLoading());
        QCOMPARE(one.rowCount(), 1);
        QVERIFY(one.exposeRun(m_cancelled));   // in the oldest study, the last row
        QCOMPARE(one.rowCount(), 4);
        QVERIFY(one.indexOfRun(m_cancelled).isValid());
        QVERIFY(!one.exposeRun(987654));
        QAbstractItemModelTester oneTester(&one, QAbstractItemModelTester::FailureReportingMode::QtTest);

        // A run patched in below the rows given is not told to the view until it gets there.
        JobsModel part(m_services->store());
        part.setFetchChunk(1);
        part.reload();
        QTRY_VERIFY(!part.isLoading());
        QSignalSpy inserted(&part, &JobsModel::rowsInserted);
        QSignalSpy changed(&part, &JobsModel::dataChanged);
        part.refreshRuns({m_cancelled});
        QTRY_VERIFY(!part.isLoading());
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(changed.count(), 0);
        QAbstractItemModelTester partTester(&part, QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void stateColoursAndProgress()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        JobsModel *m = place.model();
        auto colour = [&](qint64 id) {
            return m->indexOfRun(id, JobsModel::State).data(JobsModel::StateColourRole).value<QColor>();
        };
        QCOMPARE(colour(m_completed), JobStateLook::stateColour(JobState::Completed));
        QCOMPARE(colour(m_running), JobStateLook::stateColour(JobState::Running));
        QCOMPARE(colour(m_failed), JobStateLook::stateColour(JobState::Failed));
        QCOMPARE(colour(m_rejected), JobStateLook::stateColour(JobState::Failed));
        QVERIFY(colour(m_completed) != colour(m_running));
        QVERIFY(colour(m_pending) != colour(m_running));
        QVERIFY(colour(m_failed).red() > colour(m_failed).green());
        QVERIFY(!m->indexOfRun(m_running, JobsModel::State).data(Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(m->indexOfRun(m_running, JobsModel::State).data().toString(), QStringLiteral("Running"));
        QCOMPARE(m->indexOfRun(m_rejected, JobsModel::State).data().toString(), QStringLiteral("Rejected"));
        QVERIFY(m->indexOfRun(m_rejected, JobsModel::State).data(Qt::ToolTipRole).toString().contains("QOS policy"));
        QCOMPARE(m->indexOfRun(m_pending, JobsModel::Reason).data().toString(), QStringLiteral("Resources"));
        QCOMPARE(m->indexOfRun(m_running, JobsModel::Reason).data().toString(), QString());

        // Running: about 120 s of 600 s; completed: sacct's 5 min of 10.
        const double running = m->indexOfRun(m_running, JobsModel::Elapsed).data(JobsModel::ProgressRole).toDouble();
        QVERIFY2(running > 0.18 && running < 0.25, qPrintable(QString::number(running)));
        QVERIFY(m->indexOfRun(m_running, 0).data(JobsModel::ActiveRole).toBool());
        QCOMPARE(m->indexOfRun(m_completed, JobsModel::Elapsed).data(JobsModel::ProgressRole).toDouble(), 0.5);
        QCOMPARE(m->indexOfRun(m_completed, JobsModel::Elapsed).data().toString(),
                 QStringLiteral("00:05:00 / 00:10:00"));
        QVERIFY(!m->indexOfRun(m_completed, 0).data(JobsModel::ActiveRole).toBool());
        QCOMPARE(m->indexOfRun(m_pending, JobsModel::Elapsed).data(JobsModel::ProgressRole).toDouble(), -1.0);
        QCOMPARE(m->indexOfRun(m_pending, JobsModel::Elapsed).data().toString(), QStringLiteral("– / 00:10:00"));
        QVERIFY(place.view()->itemDelegateForColumn(JobsModel::Elapsed) != place.view()->itemDelegate());
    }

    void selectingShowsDetails()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.selectRun(m_completed));
        QCOMPARE(place.selectedRunId(), m_completed);
        RunDetailsView *d = place.details();
        QCOMPARE(d->runId(), m_completed);
        QTRY_VERIFY(!place.isLoading());   // the details are read on the pool
        QVERIFY(d->scriptView()->toPlainText().contains(QLatin1String("#SBATCH --job-name=ddp-1")));
        QTreeWidget *acct = d->accountingView();
        auto value = [&](const QString &field) {
            const auto items = acct->findItems(field, Qt::MatchExactly, 0);
            return items.isEmpty() ? QString() : items.first()->text(1);
        };
        QCOMPARE(value(QStringLiteral("JobID")), QStringLiteral("101"));
        QCOMPARE(value(QStringLiteral("State")), QStringLiteral("COMPLETED"));
        QCOMPARE(value(QStringLiteral("MaxRSS")), QStringLiteral("843688K"));
        QVERIFY(value(QStringLiteral("AllocTRES")).contains(QLatin1String("gres/gpu=1")));
        QCOMPARE(value(QStringLiteral("Step 101.batch")), QStringLiteral("COMPLETED"));
        QVERIFY(d->historyView()->topLevelItemCount() >= 2);   // pending, running, completed
        QVERIFY(place.findChild<QPushButton *>("cloneButton")->isEnabled());
        // No cluster manager in this test: nothing that needs the cluster.
        QVERIFY(!place.findChild<QPushButton *>("cancelButton")->isEnabled());

        QSignalSpy clone(m_services.get(), &AppServices::openSpecRequested);
        place.findChild<QPushButton *>("cloneButton")->click();
        QCOMPARE(clone.count(), 1);
        QCOMPARE(clone.first().first().value<JobSpec>(), makeSpec(1, QStringLiteral("ddp-1")));

        // Study rows show nothing below.
        const QModelIndex study = place.model()->indexOfRun(m_running).parent();
        QVERIFY(study.data(JobsModel::IsStudyRole).toBool());
        place.view()->setCurrentIndex(study);
        QCOMPARE(place.selectedRunId(), 0);
        QCOMPARE(d->runId(), 0);
    }

    void outputTailIsSanitized()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.selectRun(m_running));
        QTRY_VERIFY(!place.isLoading());
        const QString text = place.details()->outputView()->toPlainText();
        QCOMPARE(text, QStringLiteral("epoch 1 loss 0.9\nred warning\nprogress 100%\nbell end\n"));
        QCOMPARE(RemoteValidation::sanitize("a\x1b]0;title\x07"
                                            "b\x01\x7f\tc",
                                            {.maxChars = 0, .terminal = true, .trim = false}),
                 QStringLiteral("ab\tc"));
        QVERIFY(place.selectRun(m_pending));
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.details()->outputView()->toPlainText().contains(QLatin1String("Waiting for output")));
    }

    // A pending run says why it waits, what to do and when Slurm expects it
    // to start; an ended one what it used.
    void pendingRunSaysWhyAndWhen()
    {
        RunStore &store = m_services->store();
        QCOMPARE(store.setExpectedStart(m_pending, QStringLiteral("2026-11-27T08:24:58")).errorText(), QString());
        QCOMPARE(store.setMetric({m_completed, "gpu_hours", 5.0 / 60.0, "GPU h", "sacct"}).errorText(), QString());
        JobsPlace place(*m_services);
        QTRY_VERIFY(!place.isLoading());
        const QModelIndex reason = place.model()->indexOfRun(m_pending, JobsModel::Reason);
        QCOMPARE(reason.data().toString(), QStringLiteral("Resources · starts ~2026-11-27 08:24:58"));
        QVERIFY2(reason.data(Qt::ToolTipRole).toString().contains(QLatin1String("the start estimate says when")),
                 qPrintable(reason.data(Qt::ToolTipRole).toString()));
        QVERIFY(place.selectRun(m_pending));
        QTRY_VERIFY(!place.isLoading());
        const QString summary = place.details()->findChild<QLabel *>("runSummary")->text();
        QVERIFY2(summary.contains(QLatin1String("Waits: It is next in line and waits for the GPUs or nodes it asked "
                                                "for to become free. (Resources)")),
                 qPrintable(summary));
        QVERIFY(summary.contains(QLatin1String("Expected start 2026-11-27 08:24:58 (cluster time).")));
        QVERIFY(place.selectRun(m_completed));
        QTRY_VERIFY(!place.isLoading());
        QVERIFY2(
            place.details()->findChild<QLabel *>("runSummary")->text().contains(QLatin1String("Used 0.08 GPU-hours")),
            qPrintable(place.details()->findChild<QLabel *>("runSummary")->text()));
        QCOMPARE(store.setExpectedStart(m_pending, QString()).errorText(), QString());
    }

    void reloadKeepsSelectionAndShowsNewState()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.selectRun(m_pending));
        if (auto e = m_services->store().updateState(m_pending, JobState::Running, {}); !e)
            qFatal("%s", qPrintable(e.errorText()));
        Q_EMIT m_services->runsChanged();
        QTRY_VERIFY(!place.isLoading());
        QCOMPARE(place.selectedRunId(), m_pending);
        QCOMPARE(place.model()->indexOfRun(m_pending, JobsModel::State).data().toString(), QStringLiteral("Running"));
        QVERIFY(place.details()->findChild<QLabel *>("runSummary")->text().contains(QLatin1String("Running")));
        if (auto e = m_services->store().updateState(m_pending, JobState::Pending, QStringLiteral("Resources")); !e)
            qFatal("%s", qPrintable(e.errorText()));
        Q_EMIT m_services->runsChanged();
        QTRY_VERIFY(!place.isLoading());
    }

    void passingMessagesExpireErrorsStay()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        test::IdleClusterService idle;
        m_services->setClusters(&idle);   // JobsPlace attaches on clustersChanged
        const auto detach = qScopeGuard([this] { m_services->setClusters(nullptr); });
        QLabel *label = place.messageLabel();
        // The place's single-shot timers that run now (the 1 s repaint tick repeats).
        auto runningExpiry = [&place]() -> QTimer * {
            for (QTimer *t : place.findChildren<QTimer *>(Qt::FindDirectChildrenOnly))
                if (t->isSingleShot() && t->isActive())
                    return t;
            return nullptr;
        };

        Q_EMIT idle.submitFinished(QStringLiteral("Submitted run 7 as job 4242."), true);
        QCOMPARE(label->text(), QStringLiteral("Submitted run 7 as job 4242."));
        QTimer *expiry = runningExpiry();
        QVERIFY2(expiry, "a passing message stays for good");
        // About 20 s: long enough to read, not the rest of the session.
        QVERIFY2(expiry->interval() >= 5000 && expiry->interval() <= 60000,
                 qPrintable(QString::number(expiry->interval())));
        expiry->start(10);   // the same timer, sooner
        QTRY_COMPARE(label->text(), QString());
        QVERIFY(label->isHidden());

        // An error stays until the next message.
        Q_EMIT idle.submitFinished(QStringLiteral("sbatch: error: invalid account"), false);
        QCOMPARE(label->text(), QStringLiteral("sbatch: error: invalid account"));
        QVERIFY(!runningExpiry());
        QTest::qWait(50);
        QCOMPARE(label->text(), QStringLiteral("sbatch: error: invalid account"));
        // A cancel sent is passing too.
        Q_EMIT idle.cancelFinished(m_running, QStringLiteral("scancel 102"), true);
        QVERIFY(label->text().startsWith(QStringLiteral("Cancel of run %1 sent.").arg(m_running)));
        QVERIFY(runningExpiry());
    }

    void settingsTable()
    {
        using K = AppSettings::Key;
        QCOMPARE(AppSettings::pollIntervalSeconds(), 30);
        QCOMPARE(AppSettings::name(K::PollIntervalSeconds), QStringLiteral("polling/intervalSeconds"));
        AppSettings::set(K::PollIntervalSeconds, 3);
        QCOMPARE(AppSettings::pollIntervalSeconds(), 10);   // never below Slurm-friendly minimum
        AppSettings::reset(K::PollIntervalSeconds);
        QCOMPARE(AppSettings::get(K::PollIntervalSeconds), AppSettings::defaultValue(K::PollIntervalSeconds));
        QVERIFY(AppSettings::notificationsEnabled());

        const ClusterProfile *testbed = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(testbed);
        QCOMPARE(AppSettings::effectiveAlias(QStringLiteral("testbed"), testbed), QStringLiteral("testbed"));
        AppSettings::ClusterConnection c;
        c.alias = QStringLiteral("my-testbed");
        QVERIFY(AppSettings::setClusterConnection(QStringLiteral("testbed"), c).ok());
        QCOMPARE(AppSettings::effectiveAlias(QStringLiteral("testbed"), testbed), QStringLiteral("my-testbed"));

        // Explicit host details become an entry of a generated config that
        // includes the researcher's own.
        QFile user(m_dir.filePath(QStringLiteral("user_ssh_config")));
        QVERIFY(user.open(QIODevice::WriteOnly));
        user.write("Host bastion\n  HostName 127.0.0.1\n  Port 2223\n");
        user.close();
        qputenv("SCALELAB_SSH_CONFIG", user.fileName().toLocal8Bit());
        c.hostName = QStringLiteral("login.example.org");
        c.user = QStringLiteral("researcher");
        c.port = 2200;
        c.proxyJump = QStringLiteral("bastion");
        QVERIFY(AppSettings::setClusterConnection(QStringLiteral("testbed"), c).ok());
        QCOMPARE(AppSettings::writeGeneratedConfig().errorText(), QString());
        QCOMPARE(AppSettings::effectiveAlias(QStringLiteral("testbed"), testbed), QStringLiteral("scalelab-testbed"));
        QCOMPARE(AppSettings::sshConfigPath(), AppSettings::generatedConfigPath());
        const SshConfigFile generated = SshConfigFile::load(AppSettings::sshConfigPath());
        QCOMPARE(generated.errorText(), QString());
        const SshHostConfig h = generated.resolve(QStringLiteral("scalelab-testbed"));
        QCOMPARE(h.hostName, QStringLiteral("login.example.org"));
        QCOMPARE(h.port, 2200);
        QCOMPARE(h.user, QStringLiteral("researcher"));
        QCOMPARE(h.proxyJump, QStringLiteral("bastion"));
        QCOMPARE(generated.resolve(QStringLiteral("bastion")).port, 2223);   // the included file
        c.user = QStringLiteral("-oProxyCommand=x");
        QVERIFY(AppSettings::setClusterConnection(QStringLiteral("testbed"), c).ok());
        QVERIFY(AppSettings::writeGeneratedConfig().errorText().contains(QLatin1String("starts with '-'")));

        // The connections form is prefilled from the SSH config / profile.
        QVERIFY(AppSettings::setClusterConnection(QStringLiteral("testbed"), {}).ok());
        {
            ConnectionsDialog d(*m_services);
            d.selectProfile(QStringLiteral("testbed"));
            QCOMPARE(d.findChild<QLineEdit *>("aliasEdit")->placeholderText(), QStringLiteral("testbed"));
            QCOMPARE(d.findChild<QLineEdit *>("hostEdit")->text(), QStringLiteral("127.0.0.1"));
            QCOMPARE(d.findChild<QSpinBox *>("portSpin")->value(), 2222);
            QVERIFY(d.findChild<QRadioButton *>("aliasMode")->isChecked());
            // The other mode's fields are hidden, not greyed (a greyed value looked like a placeholder).
            QVERIFY(!d.findChild<QLineEdit *>("hostEdit")->isVisibleTo(&d));
            d.findChild<QRadioButton *>("hostMode")->setChecked(true);
            d.findChild<QLineEdit *>("hostEdit")->setText(QStringLiteral("login2.example.org"));
            QCOMPARE(d.save().errorText(), QString());
        }
        QCOMPARE(AppSettings::clusterConnection(QStringLiteral("testbed")).hostName,
                 QStringLiteral("login2.example.org"));
        QVERIFY(AppSettings::setClusterConnection(QStringLiteral("testbed"), {}).ok());
        QCOMPARE(ConnectionTest::accountLines(
                     {{QStringLiteral("project_1"), {}}, {QStringLiteral("project_2"), {"gpu", "gputest"}}}),
                 (QStringList{"project_1: all partitions", "project_2: gpu, gputest"}));

        SettingsDialog settings(*m_services);
        settings.findChild<QSpinBox *>("pollInterval")->setValue(45);
        QCOMPARE(settings.findChild<QSpinBox *>("pollInterval")->minimum(), 10);
        settings.save();
        QCOMPARE(AppSettings::pollIntervalSeconds(), 45);
        AppSettings::reset(K::PollIntervalSeconds);
        qunsetenv("SCALELAB_SSH_CONFIG");
    }

    void screenshot()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        place.resize(1280, 720);
        place.show();
        QVERIFY(QTest::qWaitForWindowExposed(&place));
        QVERIFY(place.selectRun(m_completed));
        place.details()->tabs()->setCurrentIndex(2);
        QTRY_VERIFY(!place.isLoading());
        QTest::qWait(50);
        const QString path =
            qEnvironmentVariable("SCALELAB_SCREENSHOT_DIR", QDir::tempPath()) + QStringLiteral("/jobs.png");
        QVERIFY(place.grab().save(path));
    }

    // A changed run is read again alone and patched in: no reset, so the
    // selection, the folded studies and the view's place stay.
    void changedRunsArePatchedNotReset()
    {
        JobsPlace place(*m_services);
        QTRY_VERIFY(!place.isLoading());
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(place.selectRun(m_running));
        const QModelIndex hvd = place.model()->indexOfRun(m_cancelled).parent();
        place.view()->collapse(hvd);
        QSignalSpy resets(place.model(), &JobsModel::modelReset);
        QSignalSpy changed(place.model(), &JobsModel::dataChanged);
        QSignalSpy inserted(place.model(), &JobsModel::rowsInserted);

        QCOMPARE(m_services->store().updateState(m_running, JobState::Completing, {}).errorText(), QString());
        Q_EMIT m_services->runsChanged({m_running});
        QTRY_VERIFY(!place.isLoading());
        QCOMPARE(place.model()->indexOfRun(m_running, JobsModel::State).data().toString(),
                 QStringLiteral("Completing"));
        QVERIFY(!place.model()->indexOfRun(m_running).data(JobsModel::ActiveRole).toBool());   // the clock stopped
        QVERIFY(changed.count() >= 2);   // the run's row and its study's summary
        QCOMPARE(place.selectedRunId(), m_running);

        // A new point of the DDP study and a new lone run are inserted where a reload puts them.
        const qint64 point = addRun(m_ddpStudy, 4, QStringLiteral("ddp-4"), QStringLiteral("105"));
        const qint64 lone = addRun(0, 1, QStringLiteral("lone-new"), QString());
        Q_EMIT m_services->runsChanged({point, lone});
        QTRY_VERIFY(!place.isLoading());
        QCOMPARE(inserted.count(), 2);
        const QModelIndex pointRow = place.model()->indexOfRun(point);
        QCOMPARE(pointRow.parent().data().toString(), QStringLiteral("DDP scaling"));
        QCOMPARE(pointRow.row(), 2);   // 1, 2, 4, 8 GPUs
        QCOMPARE(place.model()->indexOfRun(lone).row(), 0);   // newest first
        QCOMPARE(place.model()->parent(place.model()->indexOfRun(m_pending)), pointRow.parent());
        QCOMPARE(resets.count(), 0);
        QCOMPARE(place.selectedRunId(), m_running);
        QVERIFY(!place.view()->isExpanded(place.model()->indexOfRun(m_cancelled).parent()));
        QVERIFY(place.view()->isExpanded(pointRow.parent()));

        // Moving a run to another study is a new tree: read whole, the selection and the fold kept.
        QVERIFY(place.selectRun(m_failed));
        QCOMPARE(m_services->store().setRunStudy(m_running, m_hvdStudy).errorText(), QString());
        Q_EMIT m_services->runsChanged({m_running});
        QTRY_VERIFY(!place.isLoading());
        QCOMPARE(resets.count(), 1);
        QCOMPARE(place.model()->indexOfRun(m_running).parent().data().toString(), QStringLiteral("Horovod sweep"));
        QCOMPARE(place.selectedRunId(), m_failed);
        QVERIFY(!place.view()->isExpanded(place.model()->indexOfRun(m_cancelled).parent()));
        QVERIFY(place.view()->isExpanded(place.model()->indexOfRun(m_pending).parent()));
        QCOMPARE(m_services->store().setRunStudy(m_running, m_ddpStudy).errorText(), QString());
        QCOMPARE(m_services->store().deleteRun(point).errorText(), QString());
        QCOMPARE(m_services->store().deleteRun(lone).errorText(), QString());
        QCOMPARE(m_services->store().updateState(m_running, JobState::Running, {}).errorText(), QString());
        Q_EMIT m_services->runsChanged({m_running, point, lone});
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(!place.model()->indexOfRun(point).isValid());
    }

    // The store is read on a pool thread: reload() returns before the rows change.
    void readsOffTheGuiThread()
    {
        JobsPlace place(*m_services);
        QTRY_VERIFY(!place.isLoading());
        const int rows = place.model()->rowCount();
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const qint64 lone = addRun(0, 1, QStringLiteral("lone-later"), QString());
        QSignalSpy loaded(place.model(), &JobsModel::loaded);
        place.reload();
        QVERIFY(place.isLoading());
        QCOMPARE(place.model()->rowCount(), rows);
        QVERIFY(loaded.wait());
        QCOMPARE(loaded.first().first().toString(), QString());
        QCOMPARE(place.model()->rowCount(), rows + 1);
        QCOMPARE(m_services->store().deleteRun(lone).errorText(), QString());
        Q_EMIT m_services->runsChanged({lone});   // gone: a whole read
        QTRY_VERIFY(!place.isLoading());
        QCOMPARE(place.model()->rowCount(), rows);
    }

    // A message about a run goes when another row or none is selected, or when
    // that run's state moves on; one about no run (a submit from Compose) stays.
    void aMessageBelongsToItsRun()
    {
        JobsPlace place(*m_services);
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
        test::IdleClusterService idle;
        m_services->setClusters(&idle);
        const auto detach = qScopeGuard([this] { m_services->setClusters(nullptr); });
        QLabel *label = place.messageLabel();
        auto cancelFails = [&] {
            QVERIFY(place.selectRun(m_running));
            Q_EMIT idle.cancelFinished(m_running, QStringLiteral("scancel: error: Kill job error"), false);
            QVERIFY(label->isVisibleTo(&place));
            QVERIFY(label->text().contains(QLatin1String("Kill job error")));
            QCOMPARE(place.messageRunId(), m_running);
        };

        // A study row selected: the red words of the run are not about it.
        cancelFails();
        const QModelIndex study = place.model()->indexOfRun(m_running).parent();
        place.view()->selectionModel()->setCurrentIndex(study, QItemSelectionModel::ClearAndSelect
                                                                   | QItemSelectionModel::Rows);
        QVERIFY(!label->isVisibleTo(&place));
        QCOMPARE(label->text(), QString());
        QCOMPARE(place.messageRunId(), 0);

        // Another run, or nothing.
        cancelFails();
        QVERIFY(place.selectRun(m_completed));
        QVERIFY(!label->isVisibleTo(&place));
        cancelFails();
        place.view()->selectionModel()->clearSelection();
        QVERIFY(!label->isVisibleTo(&place));

        // The run's state moves on: what was said of it is no longer true.
        cancelFails();
        QCOMPARE(m_services->store().updateState(m_running, JobState::Completing, {}).errorText(), QString());
        Q_EMIT m_services->runsChanged({m_running});
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(!label->isVisibleTo(&place));
        QCOMPARE(m_services->store().updateState(m_running, JobState::Running, {}).errorText(), QString());
        Q_EMIT m_services->runsChanged({m_running});
        QTRY_VERIFY(!place.isLoading());

        // A message about no one run is not the selection's.
        Q_EMIT idle.submitFinished(QStringLiteral("sbatch: error: invalid account"), false);
        QVERIFY(place.selectRun(m_completed));
        QCOMPARE(label->text(), QStringLiteral("sbatch: error: invalid account"));
    }
};

QTEST_MAIN(TestJobsPlace)
#include "tst_jobsplace.moc"
