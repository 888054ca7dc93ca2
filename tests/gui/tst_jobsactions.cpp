// SPDX-License-Identifier: GPL-3.0-or-later
// Jobs actions on a real run store (temp SCALELAB_DATA_DIR): withdrawing a
// run that never reached Slurm (window and `scalelab cancel`), hiding runs
// (kept in the store, left out of the view), the failed job's first error
// line in its row and as a banner on the Output tab, and Connections opening
// on the current profile with every cluster listed.
#include "IsolatedHost.h"
#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "ui/cluster/ConnectionsDialog.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"
#include "ui/jobs/RunDetailsView.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace scalelab;

class TestJobsActions : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;

    qint64 addRun(const QString &jobId, JobState state = JobState::Pending)
    {
        JobSpec s;
        s.profile = QStringLiteral("testbed");
        s.partition = QStringLiteral("gpu");
        s.gpus = 2;
        s.time = QStringLiteral("00:10:00");
        s.program = QStringLiteral("/home/researcher/train.py");
        RunRecord r;
        r.profile = QStringLiteral("testbed");
        r.clusterAlias = QStringLiteral("never-configured");
        r.gpus = 2;
        r.specJson = jobSpecToJson(s);
        r.script = QStringLiteral("#!/bin/bash\nsrun python3 /home/researcher/train.py\n");
        const auto created = m_services->store().createRun(r);
        if (!created.ok())
            qFatal("%s", qPrintable(created.errorText()));
        if (!jobId.isEmpty()) {
            m_services->store().markSubmitted(created.value().id, jobId);
            m_services->store().updateState(created.value().id, JobState::Running, {}, {});
            if (state != JobState::Pending)
                m_services->store().updateState(created.value().id, state, {}, {});
        }
        return created.value().id;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_jobsactions"));
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath(QStringLiteral("settings.ini")).toUtf8());
        m_services = std::make_unique<AppServices>();
        QCOMPARE(m_services->storeError(), QString());
    }

    void withdrawAnUnsentRunInTheWindow()
    {
        const qint64 unsent = addRun(QString());
        const qint64 sent = addRun(QStringLiteral("4711"));
        JobsPlace place(*m_services);
        place.show();
        QVERIFY(place.selectRun(sent));
        QVERIFY(!place.withdrawButton()->isEnabled());   // a job exists: cancel, not withdraw
        QVERIFY(place.selectRun(unsent));
        QVERIFY(place.withdrawButton()->isEnabled());
        QCOMPARE(place.model()->runRow(unsent)->run.submitState, SubmitState::Intent);
        place.withdrawButton()->click();
        const RunRecord after = m_services->store().run(unsent).value();
        QCOMPARE(after.submitState, SubmitState::Rejected);
        QCOMPARE(after.rejection, RunStore::withdrawnText());
        // Nothing left for a reconcile to send later.
        QCOMPARE(m_services->store().unresolvedRuns(QStringLiteral("never-configured")).value().size(), 0);
        QCOMPARE(place.messageLabel()->text(),
                 QStringLiteral("Run %1 withdrawn: it had not reached Slurm and will not be sent.").arg(unsent));
        QVERIFY(place.selectRun(unsent));
        QVERIFY(!place.withdrawButton()->isEnabled());
        QCOMPARE(place.model()->data(place.model()->indexOfRun(unsent, JobsModel::Reason)).toString(),
                 RunStore::withdrawnText());
        // A submitted run is refused by the store itself.
        QCOMPARE(m_services->store().withdrawRun(sent).errorText(),
                 QStringLiteral("run %1 cannot be withdrawn: it is Slurm job 4711; cancel it instead").arg(sent));
    }

    void withdrawWithTheCommand()
    {
        const qint64 unsent = addRun(QString());
        QProcess p;
        p.start(QStringLiteral(SCALELAB_BINARY), {QStringLiteral("cancel"), QString::number(unsent)});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).trimmed(),
                 QStringLiteral("run %1 withdrawn: it had not reached Slurm and will not be sent").arg(unsent));
        QCOMPARE(m_services->store().run(unsent).value().submitState, SubmitState::Rejected);
    }

    void hiddenRunsLeaveTheViewButStayInTheStore()
    {
        const qint64 id = addRun(QStringLiteral("4800"), JobState::Completed);
        JobsPlace place(*m_services);
        place.show();
        QVERIFY(place.selectRun(id));
        QCOMPARE(place.hideButton()->text(), QStringLiteral("Hide"));
        place.hideButton()->click();
        QVERIFY(!place.model()->indexOfRun(id).isValid());
        QVERIFY(m_services->store().run(id).ok());   // kept
        QVERIFY(m_services->store().hiddenRuns().value().contains(id));
        QCOMPARE(place.showHiddenCheck()->text(), QStringLiteral("Show hidden (1)"));
        place.showHiddenCheck()->setChecked(true);
        QVERIFY(place.model()->indexOfRun(id).isValid());
        QVERIFY(place.selectRun(id));
        QCOMPARE(place.hideButton()->text(), QStringLiteral("Unhide"));
        place.hideButton()->click();
        place.showHiddenCheck()->setChecked(false);
        QVERIFY(place.model()->indexOfRun(id).isValid());
        QVERIFY(!m_services->store().hiddenRuns().value().contains(id));
    }

    void failedRunShowsItsFirstErrorLine()
    {
        const qint64 id = addRun(QStringLiteral("4900"), JobState::Failed);
        // The fetched output, as the poll leaves it.
        RunStore &store = m_services->store();
        QVERIFY(QDir().mkpath(store.runFilesDirectory(id)));
        QFile fixture(QStringLiteral(SCALELAB_TEST_DATA_DIR "/failures/torchrun-valueerror.out"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QFile out(store.runFilesDirectory(id) + QStringLiteral("/scalelab-4900.out"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(fixture.readAll());
        out.close();

        JobsPlace place(*m_services);
        place.resize(1100, 680);
        place.show();
        QVERIFY(place.selectRun(id));
        QLabel *banner = place.details()->failureBanner();
        QTRY_VERIFY(banner->isVisible());
        QCOMPARE(banner->text(),
                 QStringLiteral("Failed — first error in the output, near the end: ValueError: sample 17 "
                                "has 511 tokens, expected 512"));
        // Kept with the run: the row shows it after a reload.
        place.reload();
        QCOMPARE(place.model()->data(place.model()->indexOfRun(id, JobsModel::Reason)).toString(),
                 QStringLiteral("near the end: ValueError: sample 17 has 511 tokens, expected 512"));
        // A completed run has no banner.
        const qint64 ok = addRun(QStringLiteral("4901"), JobState::Completed);
        place.reload();
        QVERIFY(place.selectRun(ok));
        QVERIFY(!banner->isVisible());
    }

    void resubmittedPointJoinsItsStudy()
    {
        RunStore &store = m_services->store();
        StudyRecord study;
        study.name = QStringLiteral("ddp scaling");
        study.created = QDateTime::currentDateTimeUtc();
        const qint64 studyId = store.createStudy(study).value();
        const qint64 point = addRun(QStringLiteral("5000"), JobState::Failed);
        QCOMPARE(store.setRunStudy(point, studyId).errorText(), QString());
        const qint64 again = addRun(QStringLiteral("5001"), JobState::Completed);   // Resubmit: same spec, no study
        JobsPlace place(*m_services);
        place.show();
        QVERIFY(place.selectRun(again));
        QVERIFY(place.addToStudyButton()->isEnabled());
        QCOMPARE(place.addToStudyButton()->text(), QStringLiteral("Add to \"ddp scaling\""));
        place.addToStudyButton()->click();
        QCOMPARE(store.run(again).value().studyId, studyId);
        const QModelIndex row = place.model()->indexOfRun(again);
        QCOMPARE(row.parent().data().toString(), QStringLiteral("ddp scaling"));
        QVERIFY(place.selectRun(again));
        QVERIFY(!place.addToStudyButton()->isEnabled());   // already in it
    }

    void connectionsOpenOnTheCurrentProfileAndListEveryCluster()
    {
        AppSettings::ClusterConnection c;
        c.hostName = QStringLiteral("127.0.0.1");
        c.user = QStringLiteral("researcher");
        c.port = 2222;
        c.identityFile = QStringLiteral("~/.ssh/id_ed25519");
        AppSettings::setClusterConnection(QStringLiteral("lumi"), c);
        m_services->setCurrentProfile(QStringLiteral("lumi"));
        ConnectionsDialog dlg(*m_services);
        dlg.show();
        QCOMPARE(dlg.currentProfile(), QStringLiteral("lumi"));
        QTreeWidget *overview = dlg.overview();
        QCOMPARE(overview->topLevelItemCount(), int(m_services->profiles().profiles().size()));
        QTreeWidgetItem *lumi = nullptr;
        for (int i = 0; i < overview->topLevelItemCount(); ++i)
            if (overview->topLevelItem(i)->text(0) == QLatin1String("lumi"))
                lumi = overview->topLevelItem(i);
        QVERIFY(lumi);
        QCOMPARE(lumi->text(1), QStringLiteral("researcher@127.0.0.1:2222"));
        QCOMPARE(lumi->text(2), QStringLiteral("configured, not used yet this session"));
        QCOMPARE(overview->currentItem(), lumi);
        // Host details: the key file is there; the alias row is hidden, not greyed.
        auto *key = dlg.findChild<QLineEdit *>(QStringLiteral("keyEdit"));
        QVERIFY(key);
        QVERIFY(key->isVisible());
        QCOMPARE(key->text(), QStringLiteral("~/.ssh/id_ed25519"));
        auto *host = dlg.findChild<QLineEdit *>(QStringLiteral("hostEdit"));
        QVERIFY(host->isVisible() && host->isEnabled());
        QVERIFY(!dlg.findChild<QLineEdit *>(QStringLiteral("aliasEdit"))->isVisible());
        dlg.findChild<QRadioButton *>(QStringLiteral("aliasMode"))->setChecked(true);
        QVERIFY(!host->isVisible());
        QVERIFY(!key->isVisible());
        dlg.findChild<QRadioButton *>(QStringLiteral("hostMode"))->setChecked(true);
        // A relative key path is refused, naming the cluster and what to give.
        key->setText(QStringLiteral("id_ed25519"));
        QCOMPARE(dlg.save(), QStringLiteral("lumi: key file id_ed25519: give the full path (/home/… or ~/.ssh/…)"));
    }
};

QTEST_MAIN(TestJobsActions)
#include "tst_jobsactions.moc"
