// SPDX-License-Identifier: GPL-3.0-or-later
// The Compose banner "This profile differs from the cluster in N places —
// Review / Update" (issue 13, point 3), driven through the Compose place with
// a cluster layer that answers discovery with a known reading: the shipped
// testbed profile with chosen fields changed. Review must list exactly those
// differences; Update and Refresh must write the user profile.
#include "IdleClusterService.h"
#include "IsolatedHost.h"
#include "ScreenshotDir.h"
#include "ui/common/AppServices.h"
#include "ui/common/ClusterService.h"
#include "ui/compose/ComposePlace.h"
#include "ui/compose/JobForm.h"
#include "ui/compose/ProfileDriftBanner.h"
#include "core/profiles/ProfileLoader.h"

#include <QComboBox>
#include <QDate>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <memory>

using namespace scalelab;

namespace {

// A cluster layer whose "cluster" is a profile the test chose; connected
// when the test says so. Discovery answers on the next event loop turn, as
// the real worker does.
class FakeClusters : public test::IdleClusterService {
public:
    using IdleClusterService::IdleClusterService;
    ClusterProfile reading;
    bool connected = false;
    int discoveries = 0;

    bool isConnected(const QString &alias) const override { return connected && alias == QLatin1String("testbed"); }
    bool discoverProfile(const QString &alias, const ClusterProfile &) override
    {
        ++discoveries;
        DiscoveryOutcome o;
        o.alias = alias;
        o.built.profile = reading;
        QTimer::singleShot(0, this, [this, alias, o] { Q_EMIT profileDiscovered(alias, o); });
        return true;
    }
    void connectNow()
    {
        connected = true;
        Q_EMIT connectionStatus(QStringLiteral("testbed"), QStringLiteral("connected to testbed"));
    }
};

Partition &partitionOf(ClusterProfile &p, const QString &name)
{
    for (Partition &part : p.partitions)
        if (part.name == name)
            return part;
    qFatal("no partition %s", qPrintable(name));
}

QStringList row(const QTableWidget *t, int r)
{
    QStringList out;
    for (int c = 0; c < t->columnCount(); ++c)
        out << t->item(r, c)->text();
    return out;
}

}   // namespace

class TestDriftBanner : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<FakeClusters> m_clusters;
    std::unique_ptr<ComposePlace> m_place;

    ProfileDriftBanner *banner() { return m_place->driftBanner(); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_driftbanner"));
        qputenv("SCALELAB_USER_PROFILE_DIR", m_dir.filePath(QStringLiteral("profiles")).toUtf8());
        qputenv("SCALELAB_SETTINGS_FILE", m_dir.filePath(QStringLiteral("settings.ini")).toUtf8());
    }

    void init()
    {
        QDir(m_dir.filePath(QStringLiteral("profiles"))).removeRecursively();
        m_services = std::make_unique<AppServices>();
        const ClusterProfile *testbed = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(testbed);
        QCOMPARE(testbed->origin, QStringLiteral("shipped"));
        m_clusters = std::make_unique<FakeClusters>();
        m_clusters->reading = *testbed;
        m_clusters->reading.discovered = QStringLiteral("testbed %1").arg(QDate::currentDate().toString(Qt::ISODate));
        // As ProfileBuilder does: site advice keeps a source naming the profile it came from.
        for (const char *key : {"containerRuntime", "defaultModules", "cpuBind", "torchrunArgs", "defaultVariables"})
            if (m_clusters->reading.sources.value(QLatin1String(key)).isEmpty())
                m_clusters->reading.sources.insert(QLatin1String(key),
                                                   QStringLiteral("site advice from the testbed profile"));
        m_services->setClusters(m_clusters.get());
        m_place = std::make_unique<ComposePlace>(*m_services);
        m_place->resize(1200, 760);
        m_place->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_place.get()));
        QComboBox *combo = m_place->form()->profileCombo();
        combo->setCurrentIndex(combo->findData(QStringLiteral("testbed")));
        QCOMPARE(banner()->profileId(), QStringLiteral("testbed"));
    }

    void cleanup()
    {
        m_place.reset();
        m_services->setClusters(nullptr);
        m_clusters.reset();
        m_services.reset();
    }

    // Not connected: nothing is asked of the cluster and nothing is shown.
    void silentWhileDisconnected()
    {
        QTest::qWait(50);
        QCOMPARE(m_clusters->discoveries, 0);
        QVERIFY(banner()->isHidden());
        QCOMPARE(banner()->text(), QString());
    }

    void oneDifferenceIsListed()
    {
        partitionOf(m_clusters->reading, QStringLiteral("gputest")).maxTimeSeconds = 2 * 3600;
        QSignalSpy checked(banner(), &ProfileDriftBanner::checked);
        m_clusters->connectNow();
        QTRY_COMPARE(checked.count(), 1);
        QCOMPARE(checked.first().first().toInt(), 1);
        QCOMPARE(m_clusters->discoveries, 1);
        QVERIFY(!banner()->isHidden());
        QCOMPARE(banner()->text(), QStringLiteral("This profile differs from the cluster in 1 place —"));
        QTableWidget *t = banner()->reviewTable();
        QVERIFY(t->isHidden());
        QTest::mouseClick(banner()->reviewButton(), Qt::LeftButton);
        QVERIFY(!t->isHidden());
        QCOMPARE(t->rowCount(), 1);
        QCOMPARE(row(t, 0), (QStringList{QStringLiteral("gputest"), QStringLiteral("maxTime"),
                                         QStringLiteral("00:15:00"), QStringLiteral("02:00:00")}));
        // The same connection news again: no second round trip.
        m_clusters->connectNow();
        QTest::qWait(20);
        QCOMPARE(m_clusters->discoveries, 1);
        m_place->grab().save(test::screenshotPath(QStringLiteral("drift-banner-review.png")));
    }

    void twoDifferencesThenUpdate()
    {
        partitionOf(m_clusters->reading, QStringLiteral("gputest")).maxTimeSeconds = 2 * 3600;
        partitionOf(m_clusters->reading, QStringLiteral("gpusmall")).maxNodes = 3;
        const int shippedMaxNodes =
            m_services->profiles().find(QStringLiteral("testbed"))->partition(QStringLiteral("gpusmall"))->maxNodes;
        QSignalSpy checked(banner(), &ProfileDriftBanner::checked);
        m_clusters->connectNow();
        QTRY_COMPARE(checked.count(), 1);
        QCOMPARE(banner()->text(), QStringLiteral("This profile differs from the cluster in 2 places —"));
        m_place->grab().save(test::screenshotPath(QStringLiteral("drift-banner.png")));
        QTest::mouseClick(banner()->reviewButton(), Qt::LeftButton);
        QTableWidget *t = banner()->reviewTable();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(row(t, 0), (QStringList{QStringLiteral("gputest"), QStringLiteral("maxTime"),
                                         QStringLiteral("00:15:00"), QStringLiteral("02:00:00")}));
        QCOMPARE(row(t, 1), (QStringList{QStringLiteral("gpusmall"), QStringLiteral("maxNodes"),
                                         QString::number(shippedMaxNodes), QStringLiteral("3")}));

        QSignalSpy messages(banner(), &ProfileDriftBanner::message);
        QTest::mouseClick(banner()->updateButton(), Qt::LeftButton);
        const QString file = m_dir.filePath(QStringLiteral("profiles/testbed.json"));
        QVERIFY2(QFile::exists(file), qPrintable(file));
        const ClusterProfile *now = m_services->profiles().find(QStringLiteral("testbed"));
        QVERIFY(now);
        QStringList problems;
        for (const Diagnostic &d : m_services->profiles().problems())
            problems << d.message;
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(now->origin, QStringLiteral("user"));
        QCOMPARE(now->filePath, file);
        QCOMPARE(now->partition(QStringLiteral("gputest"))->maxTimeSeconds, 2 * 3600);
        QCOMPARE(now->partition(QStringLiteral("gpusmall"))->maxNodes, 3);
        QCOMPARE(now->name, m_clusters->reading.name);
        QVERIFY(banner()->isHidden());
        QCOMPARE(messages.count(), 1);
        QVERIFY2(messages.first().first().toString().startsWith(
                     QLatin1String("Profile testbed updated from testbed (2 difference(s) taken over")),
                 qPrintable(messages.first().first().toString()));
        // Compose still shows the same profile, now the user's file.
        QCOMPARE(m_place->form()->profileCombo()->currentData().toString(), QStringLiteral("testbed"));
    }

    // Refresh re-reads a discovered profile and writes it with the new date.
    void refreshRewritesADiscoveredProfile()
    {
        ClusterProfile old = m_clusters->reading;
        old.discovered = QStringLiteral("testbed 2026-01-05");
        partitionOf(old, QStringLiteral("gpu")).maxTimeSeconds = 3600;
        QDir().mkpath(m_dir.filePath(QStringLiteral("profiles")));
        QCOMPARE(saveUserProfile(old).errorText(), QString());
        m_services->reloadProfiles();
        QCOMPARE(m_services->profiles().find(QStringLiteral("testbed"))->discovered,
                 QStringLiteral("testbed 2026-01-05"));
        m_clusters->connected = true;
        QSignalSpy messages(banner(), &ProfileDriftBanner::message);
        QVERIFY(banner()->refresh());
        QTRY_COMPARE(m_services->profiles().find(QStringLiteral("testbed"))->discovered,
                     m_clusters->reading.discovered);
        QCOMPARE(
            m_services->profiles().find(QStringLiteral("testbed"))->partition(QStringLiteral("gpu"))->maxTimeSeconds,
            3 * 24 * 3600);
        const auto reloaded = loadProfileFile(m_dir.filePath(QStringLiteral("profiles/testbed.json")));
        QVERIFY(reloaded.profile);
        QCOMPARE(reloaded.profile->discovered, m_clusters->reading.discovered);
        QVERIFY(banner()->isHidden());
    }

    // A hand-written (shipped) profile is not rewritten by Refresh.
    void refreshLeavesAHandWrittenProfile()
    {
        m_clusters->connected = true;
        QSignalSpy messages(banner(), &ProfileDriftBanner::message);
        QVERIFY(!banner()->refresh());
        QCOMPARE(messages.count(), 1);
        QVERIFY(messages.first().first().toString().startsWith(QLatin1String("Profile testbed was written by hand")));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("profiles/testbed.json"))));
    }
};

QTEST_MAIN(TestDriftBanner)
#include "tst_driftbanner.moc"
