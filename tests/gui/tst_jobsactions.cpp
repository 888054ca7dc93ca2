// SPDX-License-Identifier: GPL-3.0-or-later
// Jobs actions on a real run store (temp SCALELAB_DATA_DIR): withdrawing a
// run that never reached Slurm (window and `scalelab cancel`), hiding runs
// (kept in the store, left out of the view), the failed job's first error
// line in its row and as a banner on the Output tab, Connections opening
// on the current profile with every cluster listed, a submit or dry run to a
// cluster never configured opening Connections (nothing queued), the window's
// status bar messages expiring, and Connections' test errors naming the
// researcher's own files, not the temporary config it tests host details with.
#include "IdleClusterService.h"
#include "IsolatedHost.h"
#include "ProfileFixtures.h"
#include "core/model/JobSpecJson.h"
#include "core/store/RunStore.h"
#include "ui/cluster/ClusterManager.h"
#include "ui/cluster/ConnectionsDialog.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/compose/ComposePlace.h"
#include "ui/jobs/JobsModel.h"
#include "ui/jobs/JobsPlace.h"
#include "ui/jobs/RunDetailsView.h"
#include "ui/window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDateTime>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
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
            // Set-up writes: a failure here is a broken test, not a finding.
            if (!m_services->store().markSubmitted(created.value().id, jobId).ok()
                || !m_services->store().updateState(created.value().id, JobState::Running, {}, {}).ok()
                || (state != JobState::Pending
                    && !m_services->store().updateState(created.value().id, state, {}, {}).ok()))
                qFatal("could not set up run %lld", created.value().id);
        }
        return created.value().id;
    }

    // An empty SSH config of the researcher's (SCALELAB_SSH_CONFIG) with
    // `text` in it: nothing of the host's ~/.ssh/config counts as configured.
    QString userSshConfig(const QByteArray &text = {})
    {
        QFile f(m_dir.filePath(QStringLiteral("user-ssh-config")));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size())
            qFatal("cannot write %s", qPrintable(f.fileName()));
        return f.fileName();
    }

    // The QStatusBar's own timer (Qt 6 starts a child QTimer for a message
    // with a timeout and has none for a lasting message).
    static QTimer *statusBarExpiry(QStatusBar *bar)
    {
        for (QTimer *t : bar->findChildren<QTimer *>(Qt::FindDirectChildrenOnly))
            if (t->isActive())
                return t;
        return nullptr;
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

    // First, while the store is empty: a ClusterManager polls the clusters of
    // the active runs the later tests store.
    void submitToAnUnconfiguredClusterOpensConnections()
    {
        qputenv("SCALELAB_SSH_CONFIG", userSshConfig().toLocal8Bit());
        const auto unsetConfig = qScopeGuard([] { qunsetenv("SCALELAB_SSH_CONFIG"); });
        const JobSpec spec =
            test::testbedSpec(QStringLiteral("ddp-digits"), 2, QStringLiteral("/opt/scalelab/pytorch_ddp_digits.py"));
        // A spec without errors: what stops it is the cluster, not the form.
        const Diagnostics errors = RunLifecycle::validateBatch(
            {SubmitRequest{spec, m_services->profiles().find(spec.profile), QStringLiteral("testbed")}});
        QVERIFY2(!hasErrors(errors), qPrintable(errors.value(0).message));
        QCOMPARE(spec.profile, QStringLiteral("testbed"));
        QVERIFY(AppSettings::clusterConnection(spec.profile).hostName.isEmpty());

        QWidget window;   // the dialog parent the window would give
        int opened = 0;
        QPointer<QWidget> openedOn;
        m_services->setConnectionsDialogFactory([&](AppServices &, QWidget *parent) -> QDialog * {
            ++opened;
            openedOn = parent;
            return new QDialog(parent);
        });
        const auto resetFactory = qScopeGuard([this] { m_services->setConnectionsDialogFactory({}); });
        m_services->setCurrentProfile(QStringLiteral("lumi"));
        ClusterManager clusters(*m_services);
        clusters.setDialogParent(&window);
        QCOMPARE(clusters.aliasForProfile(spec.profile), QStringLiteral("testbed"));

        QSignalSpy submitted(&clusters, &ClusterService::submitFinished);
        clusters.submit({spec}, QString(), StudyOrder::OneAtATime);
        QCOMPARE(submitted.size(), 1);
        const QString message = submitted.first().at(0).toString();
        QCOMPARE(submitted.first().at(1).toBool(), false);
        QVERIFY2(message.contains(QLatin1String("is not configured yet")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("no \"testbed\" in your SSH config")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("nothing was submitted")), qPrintable(message));
        // Connections opened on that cluster, over the window.
        QCOMPARE(opened, 1);
        QCOMPARE(openedOn.data(), &window);
        QCOMPARE(m_services->currentProfile(), QStringLiteral("testbed"));
        // Not queued until the cluster answers: nothing stored, no connection started.
        QCOMPARE(m_services->store().runs().value().size(), 0);
        QCOMPARE(clusters.clusterAliases(), QStringList());

        // A dry run the same way.
        m_services->setCurrentProfile(QStringLiteral("lumi"));
        QSignalSpy dry(&clusters, &ClusterService::dryRunFinished);
        clusters.dryRun(spec);
        QCOMPARE(dry.size(), 1);
        QCOMPARE(dry.first().at(1).toBool(), false);
        QCOMPARE(dry.first().at(0).toString(),
                 QStringLiteral("testbed is not configured yet; set it up in Connections."));
        QCOMPARE(opened, 2);
        QCOMPARE(m_services->currentProfile(), QStringLiteral("testbed"));
        QCOMPARE(clusters.clusterAliases(), QStringList());
        QCOMPARE(m_services->store().runs().value().size(), 0);
    }

    void withdrawAnUnsentRunInTheWindow()
    {
        const qint64 unsent = addRun(QString());
        const qint64 sent = addRun(QStringLiteral("4711"));
        JobsPlace place(*m_services);
        QTRY_VERIFY(!place.isLoading());
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        place.show();
        QVERIFY(place.selectRun(sent));
        QVERIFY(!place.withdrawButton()->isEnabled());   // a job exists: cancel, not withdraw
        QVERIFY(place.selectRun(unsent));
        QVERIFY(place.withdrawButton()->isEnabled());
        QCOMPARE(place.model()->runRow(unsent)->run.submitState, SubmitState::Intent);
        place.withdrawButton()->click();
        QTRY_VERIFY(!place.isLoading());
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
        QTRY_VERIFY(!place.isLoading());
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        place.show();
        QVERIFY(place.selectRun(id));
        QCOMPARE(place.hideButton()->text(), QStringLiteral("Hide"));
        place.hideButton()->click();
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(!place.model()->indexOfRun(id).isValid());
        QVERIFY(m_services->store().run(id).ok());   // kept
        QVERIFY(m_services->store().hiddenRuns().value().contains(id));
        QCOMPARE(place.showHiddenCheck()->text(), QStringLiteral("Show hidden (1)"));
        place.showHiddenCheck()->setChecked(true);
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.model()->indexOfRun(id).isValid());
        QVERIFY(place.selectRun(id));
        QCOMPARE(place.hideButton()->text(), QStringLiteral("Unhide"));
        place.hideButton()->click();
        QTRY_VERIFY(!place.isLoading());
        place.showHiddenCheck()->setChecked(false);
        QTRY_VERIFY(!place.isLoading());
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
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(!place.isLoading());
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
        QTRY_VERIFY(!place.isLoading());
        QCOMPARE(place.model()->data(place.model()->indexOfRun(id, JobsModel::Reason)).toString(),
                 QStringLiteral("near the end: ValueError: sample 17 has 511 tokens, expected 512"));
        // A completed run has no banner.
        const qint64 ok = addRun(QStringLiteral("4901"), JobState::Completed);
        place.reload();
        QTRY_VERIFY(!place.isLoading());
        QVERIFY(place.selectRun(ok));
        QTRY_VERIFY(!place.isLoading());
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
        QTRY_VERIFY(!place.isLoading());
        QAbstractItemModelTester tester(place.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        place.show();
        QVERIFY(place.selectRun(again));
        QVERIFY(place.addToStudyButton()->isEnabled());
        QCOMPARE(place.addToStudyButton()->text(), QStringLiteral("Add to \"ddp scaling\""));
        place.addToStudyButton()->click();
        QTRY_VERIFY(!place.isLoading());
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
        QVERIFY(AppSettings::setClusterConnection(QStringLiteral("lumi"), c).ok());
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
        QCOMPARE(dlg.save().errorText(),
                 QStringLiteral("lumi: key file id_ed25519: give the full path (/home/… or ~/.ssh/…)"));
    }

    void statusBarMessagesExpire()
    {
        MainWindow window(*m_services);
        test::IdleClusterService idle;
        m_services->setClusters(&idle);
        const auto detach = qScopeGuard([this] { m_services->setClusters(nullptr); });
        window.attachClusters();
        QStatusBar *bar = window.statusBar();

        // A passing cluster message ("submitting…") goes after a while.
        Q_EMIT idle.clusterMessage(QStringLiteral("testbed"), QStringLiteral("submitting 1 run(s) to testbed…"));
        QCOMPARE(bar->currentMessage(), QStringLiteral("testbed: submitting 1 run(s) to testbed…"));
        QTimer *expiry = statusBarExpiry(bar);
        QVERIFY2(expiry, "a cluster message stays in the status bar for good");
        QVERIFY2(expiry->interval() >= 5000 && expiry->interval() <= 30000,
                 qPrintable(QString::number(expiry->interval())));
        expiry->start(10);   // the same timer, sooner
        QTRY_COMPARE(bar->currentMessage(), QString());

        // Compose's messages too.
        Q_EMIT window.compose()->message(QStringLiteral("Spec saved."));
        QCOMPARE(bar->currentMessage(), QStringLiteral("Spec saved."));
        expiry = statusBarExpiry(bar);
        QVERIFY2(expiry, "a Compose message stays in the status bar for good");
        QVERIFY2(expiry->interval() >= 5000 && expiry->interval() <= 30000,
                 qPrintable(QString::number(expiry->interval())));
        expiry->start(10);
        QTRY_COMPARE(bar->currentMessage(), QString());
    }

    void connectionTestErrorsNameTheResearchersFiles()
    {
        // A ProxyJump with a bad port fails before any network traffic.
        const QString userConfig =
            userSshConfig("Host broken-jump\n  HostName 127.0.0.1\n  ProxyJump jump.example.org:99999\n");
        qputenv("SCALELAB_SSH_CONFIG", userConfig.toLocal8Bit());
        const auto unsetConfig = qScopeGuard([] { qunsetenv("SCALELAB_SSH_CONFIG"); });
        ConnectionsDialog dlg(*m_services);
        dlg.selectProfile(QStringLiteral("generic"));
        QSignalSpy finished(&dlg, &ConnectionsDialog::testFinished);

        // Host details are tested through a config file in a temporary
        // folder: the error names the dialog's fields instead.
        dlg.findChild<QRadioButton *>(QStringLiteral("hostMode"))->setChecked(true);
        dlg.findChild<QLineEdit *>(QStringLiteral("hostEdit"))->setText(QStringLiteral("127.0.0.1"));
        dlg.findChild<QLineEdit *>(QStringLiteral("userEdit"))->setText(QStringLiteral("researcher"));
        dlg.findChild<QLineEdit *>(QStringLiteral("jumpEdit"))->setText(QStringLiteral("jump.example.org:99999"));
        dlg.findChild<QLineEdit *>(QStringLiteral("keyEdit"))->clear();
        dlg.startTest();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        QString text = dlg.resultText();
        QVERIFY2(text.contains(QLatin1String("bad port")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("the Host details of this dialog")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("/ssh_config")), qPrintable(text));
        // The overview's state follows the last test (issue 29), until the details change.
        auto stateOf = [&dlg](const QString &profile) {
            const auto *overview = dlg.findChild<QTreeWidget *>(QStringLiteral("clustersOverview"));
            for (int i = 0; overview && i < overview->topLevelItemCount(); ++i)
                if (overview->topLevelItem(i)->text(0) == profile)
                    return overview->topLevelItem(i)->text(2);
            return QString();
        };
        QVERIFY2(stateOf(QStringLiteral("generic")).contains(QLatin1String("failed: ")),
                 qPrintable(stateOf("generic")));
        QVERIFY2(stateOf(QStringLiteral("generic")).contains(QLatin1String("bad port")),
                 qPrintable(stateOf("generic")));

        // An alias of the researcher's SSH config: that file is named.
        dlg.findChild<QRadioButton *>(QStringLiteral("aliasMode"))->setChecked(true);
        dlg.findChild<QLineEdit *>(QStringLiteral("aliasEdit"))->setText(QStringLiteral("broken-jump"));
        dlg.startTest();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.takeFirst().at(0).toBool(), false);
        text = dlg.resultText();
        QVERIFY2(text.contains(QLatin1String("bad port")), qPrintable(text));
        QVERIFY2(text.contains(userConfig), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("/ssh_config")), qPrintable(text));
    }
};

QTEST_MAIN(TestJobsActions)
#include "tst_jobsactions.moc"
