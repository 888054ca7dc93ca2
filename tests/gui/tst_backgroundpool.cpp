// SPDX-License-Identifier: GPL-3.0-or-later
// The window's background pool: apart from Qt's global pool (which Qt's
// raster engine fills and waits for while painting), and waited for before
// the services whose store its work uses are gone.
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/BackgroundPool.h"

#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

using namespace scalelab;

class TstBackgroundPool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsWhileTheGlobalPoolIsFull();
    void servicesWaitForItsWork();
};

void TstBackgroundPool::runsWhileTheGlobalPoolIsFull()
{
    QVERIFY(&backgroundPool() != QThreadPool::globalInstance());
    QSemaphore release;
    QThreadPool *global = QThreadPool::globalInstance();
    const int busy = global->maxThreadCount();
    for (int i = 0; i < busy; ++i)
        global->start([&release] { release.acquire(); });
    std::atomic<bool> ran{false};
    auto done = QtConcurrent::run(&backgroundPool(), [&ran] { ran = true; });
    QTRY_VERIFY_WITH_TIMEOUT(ran.load(), 5000);
    done.waitForFinished();
    release.release(busy);
    QVERIFY(global->waitForDone(5000));
}

void TstBackgroundPool::servicesWaitForItsWork()
{
    QTemporaryDir dir;
    qputenv("SCALELAB_DATA_DIR", dir.filePath(QStringLiteral("data")).toUtf8());
    auto services = std::make_unique<AppServices>();
    QCOMPARE(services->storeError(), QString());
    RunStore *store = &services->store();
    std::atomic<bool> finished{false};
    QSemaphore started;
    (void)QtConcurrent::run(&backgroundPool(), [store, &finished, &started] {
        started.release();
        QThread::msleep(300);   // still reading when the services go
        finished = store->runs().ok();
        store->closeThreadConnection();
    });
    started.acquire();
    services.reset();   // returns only once the read above has finished
    QVERIFY(finished.load());
}

QTEST_MAIN(TstBackgroundPool)
#include "tst_backgroundpool.moc"
