// SPDX-License-Identifier: GPL-3.0-or-later
// First launch on the REAL loopback cluster (issue 13, point 5): with no
// cluster configured the window offers "Add your cluster"; the researcher
// picks the alias of their SSH config, accepts the host key it has never
// seen, the wizard tests the login and discovers the cluster on a worker,
// the review shows what scontrol says (one value edited), Save lands in
// Compose with the discovered profile selected. Then the cluster layer
// connects and the Compose banner names exactly the edited value, and Update
// puts the cluster's value back. Screenshots of every page are saved.
// Needs the cluster: run under `flock /tmp/scalelab-cluster.lock` with
// testcluster_up / testcluster_down (ctest does it through the fixture).
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "TestClusterEnv.h"
#include "ui/cluster/AddClusterConnectPage.h"
#include "ui/cluster/AddClusterDiscoverPage.h"
#include "ui/cluster/AddClusterIntroPage.h"
#include "ui/cluster/AddClusterReviewPage.h"
#include "ui/cluster/AddClusterWizard.h"
#include "ui/cluster/ClusterManager.h"
#include "ui/cluster/HostKeyDialog.h"
#include "ui/common/AppServices.h"
#include "ui/common/AppSettings.h"
#include "ui/common/ClusterDiscovery.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/JobForm.h"
#include "ui/compose/ProfileDriftBanner.h"
#include "ui/window/MainWindow.h"
#include "core/profiles/ProfileLoader.h"
#include "core/sshconfig/SshConfigFile.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace scalelab;

namespace {

QString scontrolField(const QString &line, const QString &key)
{
    for (const QString &w : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (w.startsWith(key + QLatin1Char('=')))
            return w.mid(key.size() + 1);
    return {};
}

QStringList scontrolLines(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral("scontrol"), args);
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

}   // namespace

class TestGuiAddCluster : public QObject {
    Q_OBJECT
    test::TestClusterEnv m_env;
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<ClusterManager> m_clusters;
    QPointer<AddClusterWizard> m_wizard;

    QString cell(int row, int col) const { return m_wizard->reviewPage()->table()->item(row, col)->text(); }
    QString reviewValue(const QString &partition, const QString &field) const
    {
        const int r = m_wizard->reviewPage()->rowOf(partition, field);
        return r < 0 ? QStringLiteral("(no row)") : cell(r, 2);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = test::TestClusterEnv::load();
        QVERIFY2(m_env.ok(), qPrintable(m_env.error));
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_gui_addcluster"));
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath(QStringLiteral("settings.ini")).toUtf8());
        qputenv("SCALELAB_USER_PROFILE_DIR", m_dir.filePath(QStringLiteral("profiles")).toUtf8());
        qputenv("SCALELAB_SYSTEM_PROFILE_DIR", m_dir.filePath(QStringLiteral("no-system-profiles")).toUtf8());
        // A new researcher's own SSH config: their alias for the cluster, an
        // empty known_hosts (the host key has never been seen).
        const SshHostConfig testbed = SshConfigFile::load(m_env.sshConfig).resolve(QStringLiteral("testbed"));
        QVERIFY(!testbed.identityFiles.isEmpty());
        QFile known(m_dir.filePath(QStringLiteral("known_hosts")));
        QVERIFY(known.open(QIODevice::WriteOnly));
        known.close();
        QFile config(m_dir.filePath(QStringLiteral("ssh_config")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("Host mycluster\n  HostName %1\n  Port %2\n  User %3\n  IdentityFile %4\n"
                                    "  IdentitiesOnly yes\n  UserKnownHostsFile %5\n")
                         .arg(testbed.hostName)
                         .arg(testbed.port)
                         .arg(testbed.user, testbed.identityFiles.first(), known.fileName())
                         .toUtf8());
        config.close();
        qputenv("SCALELAB_SSH_CONFIG", config.fileName().toUtf8());
        QCOMPARE(AppSettings::userSshConfigPath(), config.fileName());

        m_services = std::make_unique<AppServices>();
        m_services->setAddClusterFactory(
            [](AppServices &s, QWidget *parent) -> QDialog * { return new AddClusterWizard(s, parent); });
        m_window = std::make_unique<MainWindow>(*m_services);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_clusters = std::make_unique<ClusterManager>(*m_services);
        m_clusters->setDialogParent(m_window.get());
        m_window->attachClusters();
    }

    void cleanupTestCase()
    {
        delete m_wizard;
        m_window.reset();
        m_clusters.reset();   // stops the worker threads
        m_services.reset();
    }

    // What GuiMain does once the cluster layer runs.
    void firstLaunchOffersAddYourCluster()
    {
        QCOMPARE(whyClusterConfigured(*m_services, false), QString());   // a new store
        QCOMPARE(m_services->openAddCluster(m_window.get()).errorText(), QString());
        m_wizard = m_window->findChild<AddClusterWizard *>();
        QVERIFY(m_wizard);
        QTRY_VERIFY(m_wizard->isVisible());
        QCOMPARE(m_wizard->currentId(), int(AddClusterWizard::IntroPage));
        QCOMPARE(m_wizard->currentPage()->title(), QStringLiteral("Add your cluster"));
        m_wizard->grab().save(test::screenshotPath(QStringLiteral("addcluster-1-intro.png")));
        m_wizard->button(QWizard::NextButton)->click();
        QCOMPARE(m_wizard->currentId(), int(AddClusterWizard::ConnectPage));
    }

    void pickTheAliasOfMySshConfig()
    {
        QVERIFY2(m_wizard, "the wizard of the steps before");
        QComboBox *aliases = m_wizard->connectPage()->aliasCombo();
        QCOMPARE(aliases->count(), 1);
        QCOMPARE(aliases->itemText(0), QStringLiteral("mycluster"));
        QVERIFY(m_wizard->connectPage()->aliasMode());
        QCOMPARE(m_wizard->connectPage()->check().errorText(), QString());
        m_wizard->grab().save(test::screenshotPath(QStringLiteral("addcluster-2-connect.png")));
        m_wizard->button(QWizard::NextButton)->click();
        QCOMPARE(m_wizard->currentId(), int(AddClusterWizard::DiscoverPage));
        QVERIFY(m_wizard->isDiscovering());
    }

    // The unseen host key is shown before anything else; accepting it lets
    // the test and the discovery run (on the worker: the GUI keeps painting).
    void verifyTheHostKeyThenDiscover()
    {
        QVERIFY2(m_wizard, "the wizard of the steps before");
        QSignalSpy finished(m_wizard.data(), &AddClusterWizard::discoveryFinished);
        HostKeyDialog *key = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((key = m_wizard->findChild<HostKeyDialog *>()) && key->isVisible(), 30000);
        QCOMPARE(key->kind(), HostKeyDialog::Kind::Unknown);
        QCOMPARE(key->info().knownHostsPath, m_dir.filePath(QStringLiteral("known_hosts")));
        key->grab().save(test::screenshotPath(QStringLiteral("addcluster-3-hostkey.png")));
        key->findChild<QPushButton *>(QStringLiteral("acceptRememberButton"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
        const QString log = m_wizard->discoverPage()->logText();
        QVERIFY2(finished.first().first().toBool(), qPrintable(log));
        // sbatch --version as the cluster prints it ("slurm-wlm 22.05.8" with Debian's packages).
        const QRegularExpression tested(QStringLiteral("^Test passed: slurm(-wlm)? %1\\.$")
                                            .arg(QRegularExpression::escape(m_env.expectedSlurmVersion())),
                                        QRegularExpression::MultilineOption);
        QVERIFY2(tested.match(log).hasMatch(), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("Found Slurm %1, cluster \"testbed\": 4 GPU partition(s) (gpu, gputest, "
                                             "gpusmall, gpumedium), 1 QOS limit(s).")
                                  .arg(m_env.expectedSlurmVersion())),
                 qPrintable(log));
        QVERIFY(m_wizard->button(QWizard::NextButton)->isEnabled());
        // Remembered: the key is in the researcher's known_hosts now.
        QFile known(m_dir.filePath(QStringLiteral("known_hosts")));
        QVERIFY(known.open(QIODevice::ReadOnly));
        QVERIFY2(known.readAll().startsWith(QStringLiteral("[%1]:").arg(QLatin1String("127.0.0.1")).toUtf8()),
                 "known_hosts");
        m_wizard->grab().save(test::screenshotPath(QStringLiteral("addcluster-4-discover.png")));
        m_wizard->button(QWizard::NextButton)->click();
        QCOMPARE(m_wizard->currentId(), int(AddClusterWizard::ReviewPage));
    }

    // The review shows what scontrol says, with sources; one value is edited.
    void reviewShowsWhatScontrolSays()
    {
        QVERIFY2(m_wizard, "the wizard of the steps before");
        AddClusterReviewPage *review = m_wizard->reviewPage();
        QCOMPARE(review->idEdit()->text(), QStringLiteral("testbed"));
        const QStringList parts =
            scontrolLines({QStringLiteral("-o"), QStringLiteral("show"), QStringLiteral("partition")});
        QCOMPARE(parts.size(), 4);
        const QString node = scontrolLines({QStringLiteral("-o"), QStringLiteral("show"), QStringLiteral("node"),
                                            QStringLiteral("tb-node1")})
                                 .value(0);
        QCOMPARE(scontrolField(node, QStringLiteral("Gres")), QStringLiteral("gpu:v100:4"));
        for (const QString &line : parts) {
            const QString name = scontrolField(line, QStringLiteral("PartitionName"));
            QCOMPARE(reviewValue(name, QStringLiteral("maxTime")), scontrolField(line, QStringLiteral("MaxTime")));
            QCOMPARE(reviewValue(name, QStringLiteral("maxNodes")), scontrolField(line, QStringLiteral("MaxNodes")));
            QCOMPARE(reviewValue(name, QStringLiteral("gpusPerNode")), QStringLiteral("4"));
            QCOMPARE(reviewValue(name, QStringLiteral("gpuType")), QStringLiteral("v100"));
            QCOMPARE(reviewValue(name, QStringLiteral("cpusPerNode")), scontrolField(node, QStringLiteral("CPUTot")));
            const int r = review->rowOf(name, QStringLiteral("maxTime"));
            QVERIFY2(cell(r, 3).startsWith(QStringLiteral("scontrol show partition %1 (on mycluster, ").arg(name)),
                     qPrintable(cell(r, 3)));
        }
        QCOMPARE(reviewValue(QStringLiteral("gpusmall"), QStringLiteral("qos")), QStringLiteral("gpusmall"));
        QCOMPARE(reviewValue(QStringLiteral("QOS gpusmall"), QStringLiteral("maxGpusPerJob")), QStringLiteral("2"));
        // The researcher corrects a value (here on purpose a wrong one: the
        // banner must find it later).
        QTableWidgetItem *item =
            review->table()->item(review->rowOf(QStringLiteral("gputest"), QStringLiteral("maxTime")), 2);
        QVERIFY(item->flags() & Qt::ItemIsEditable);
        // Not a Slurm time: refused, naming the partition, the field and the text.
        item->setText(QStringLiteral("ten minutes"));
        const auto refused = review->editedProfile();
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::InvalidValue);
        QVERIFY2(refused.errorText().startsWith(QLatin1String("gputest maxTime: \"ten minutes\" is not a Slurm time")),
                 qPrintable(refused.errorText()));
        QVERIFY(!review->validatePage());
        item->setText(QStringLiteral("00:10:00"));
        QVERIFY(review->editedProfile());
        QVERIFY2(cell(item->row(), 3).startsWith(QLatin1String("edited by the researcher 20")),
                 qPrintable(cell(item->row(), 3)));
        m_wizard->grab().save(test::screenshotPath(QStringLiteral("addcluster-5-review.png")));
    }

    void saveLandsInComposeWithTheProfile()
    {
        QVERIFY2(m_wizard, "the wizard of the steps before");
        QSignalSpy added(m_wizard.data(), &AddClusterWizard::profileAdded);
        m_window->showPlace(MainWindow::JobsIndex);   // Save must bring Compose back
        m_wizard->button(QWizard::FinishButton)->click();
        QVERIFY2(added.count() == 1,
                 qPrintable(m_wizard->reviewPage()->findChild<QLabel *>(QStringLiteral("problemLabel"))->text()));
        QCOMPARE(added.first().first().toString(), QStringLiteral("testbed"));
        QTRY_VERIFY(!m_wizard || !m_wizard->isVisible());   // closed (and deleted: WA_DeleteOnClose)
        QCOMPARE(m_window->places()->currentIndex(), int(MainWindow::ComposeIndex));
        QCOMPARE(m_window->compose()->form()->profileCombo()->currentData().toString(), QStringLiteral("testbed"));
        QCOMPARE(m_window->compose()->spec().partition, QStringLiteral("gpu"));
        const ClusterProfile *p = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(p);
        QCOMPARE(p->origin, QStringLiteral("user"));
        QCOMPARE(p->filePath, m_dir.filePath(QStringLiteral("profiles/testbed.json")));
        QVERIFY2(p->discovered.startsWith(QLatin1String("mycluster 20")), qPrintable(p->discovered));
        QCOMPARE(p->partition(QStringLiteral("gputest"))->maxTimeSeconds, 600);
        QVERIFY2(p->partition(QStringLiteral("gputest"))
                     ->sources.value(QStringLiteral("maxTime"))
                     .startsWith(QLatin1String("edited by the researcher")),
                 qPrintable(p->partition(QStringLiteral("gputest"))->sources.value(QStringLiteral("maxTime"))));
        QCOMPARE(p->loginHosts.value(0).alias, QStringLiteral("mycluster"));
        QCOMPARE(AppSettings::clusterConnection(QStringLiteral("testbed")).alias, QStringLiteral("mycluster"));
        QCOMPARE(m_clusters->aliasForProfile(QStringLiteral("testbed")), QStringLiteral("mycluster"));
        QVERIFY(clusterConfigured(*m_services, false));
        m_window->grab().save(test::screenshotPath(QStringLiteral("addcluster-6-compose.png")));
    }

    // Once the cluster layer connects (a dry run here), the banner compares
    // the profile with the live cluster: exactly the edited value differs.
    void bannerNamesTheEditedValueAndUpdateFixesIt()
    {
        ProfileDriftBanner *banner = m_window->compose()->driftBanner();
        QSignalSpy checked(banner, &ProfileDriftBanner::checked);
        QSignalSpy dry(m_clusters.get(), &ClusterManager::dryRunFinished);
        m_clusters->dryRun(m_window->compose()->spec());
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() == 1, 60000);
        QCOMPARE(checked.first().first().toInt(), 1);
        QCOMPARE(banner->text(), QStringLiteral("This profile differs from the cluster in 1 place —"));
        QTest::mouseClick(banner->reviewButton(), Qt::LeftButton);
        QTableWidget *t = banner->reviewTable();
        QCOMPARE(t->rowCount(), 1);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("gputest"));
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("maxTime"));
        QCOMPARE(t->item(0, 2)->text(), QStringLiteral("00:10:00"));
        QCOMPARE(t->item(0, 3)->text(), QStringLiteral("00:15:00"));
        m_window->grab().save(test::screenshotPath(QStringLiteral("addcluster-7-banner.png")));
        QTest::mouseClick(banner->updateButton(), Qt::LeftButton);
        QCOMPARE(m_services->profiles()
                     .find(QStringLiteral("testbed"))
                     ->partition(QStringLiteral("gputest"))
                     ->maxTimeSeconds,
                 900);
        QVERIFY(banner->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(dry.count() == 1, 60000);
    }
};

QTEST_MAIN(TestGuiAddCluster)
#include "tst_gui_addcluster.moc"
