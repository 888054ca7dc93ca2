// SPDX-License-Identifier: GPL-3.0-or-later
// The window and a run store another program holds: the store is opened on
// the pool with a banner while it waits, the GUI thread keeps processing
// events (a heartbeat timer keeps ticking), the places stay usable, and the
// banner goes when the store opens.
#include "IsolatedHost.h"
#include "core/store/RunStore.h"
#include "core/store/RunStoreSql.h"
#include "ui/common/AppServices.h"
#include "ui/window/MainWindow.h"
#include "ui/window/StoreBanner.h"

#include <QDir>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace scalelab;

class TestStoreBanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        test::isolateFromHost(m_dir, QStringLiteral("tst_storebanner"));
    }

    void lockedStoreLeavesTheWindowResponsive()
    {
        // A store one schema behind: opening it migrates, which needs the
        // write lock another program holds.
        const QString dataDir = QString::fromUtf8(qgetenv("SCALELAB_DATA_DIR"));
        QVERIFY(QDir().mkpath(dataDir));
        QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
        other.setDatabaseName(RunStore(dataDir).databasePath());
        QVERIFY(other.open());
        QSqlQuery q(other);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode=WAL")));
        const int older = RunStore::latestSchemaVersion() - 1;
        for (int v = 0; v < older; ++v)
            for (const QString &sql : runStoreMigrations()[v])
                QVERIFY2(q.exec(sql), qPrintable(sql));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=%1").arg(older)));
        QVERIFY(q.exec(QStringLiteral("BEGIN IMMEDIATE")));

        AppServices services;
        MainWindow window(services);
        int beats = 0;
        QTimer heartbeat;
        heartbeat.setInterval(10);
        connect(&heartbeat, &QTimer::timeout, this, [&beats] { ++beats; });
        heartbeat.start();
        window.show();
        QTRY_COMPARE(services.storeState(), AppServices::StoreState::Opening);
        QTRY_VERIFY2(window.storeBanner()->text().contains(QLatin1String("Opening the run store")),
                     qPrintable(window.storeBanner()->text()));
        // While the open waits on the pool, the GUI thread runs its events.
        const int before = beats;
        QTRY_VERIFY(beats >= before + 30);
        QCOMPARE(services.storeState(), AppServices::StoreState::Opening);
        // The places are usable meanwhile.
        window.showPlace(MainWindow::JobsIndex);
        QCOMPARE(window.places()->currentIndex(), int(MainWindow::JobsIndex));
        window.showPlace(MainWindow::ComposeIndex);
        QCOMPARE(services.storeState(), AppServices::StoreState::Opening);

        QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
        QTRY_COMPARE_WITH_TIMEOUT(services.storeState(), AppServices::StoreState::Open, 20000);
        QVERIFY(window.storeBanner()->isHidden());
        QCOMPARE(services.store().schemaVersion().value(), RunStore::latestSchemaVersion());
        q.finish();
        other.close();
        other = {};
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestStoreBanner)
#include "tst_storebanner.moc"
