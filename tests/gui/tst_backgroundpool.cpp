// SPDX-License-Identifier: GPL-3.0-or-later
// The window's background pool: apart from Qt's global pool (which Qt's
// raster engine fills and waits for while painting), and waited for before
// the services whose store its work uses are gone.
#include "core/store/RunStore.h"
#include "ui/common/AppServices.h"
#include "ui/common/BackgroundPool.h"
#include "ui/common/RunInBackground.h"

#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

using namespace scalelab;

class TstBackgroundPool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsWhileTheGlobalPoolIsFull();
    void servicesWaitForItsWork();
    void doneRunsOnTheGuiThread();
    void supersededCallIsDropped();
    void destroyedContextIsNotCalled();
    void cancelDropsEveryCall();
};

namespace {

// Lets the pool's work end and the watchers' queued signals arrive.
void drainPool()
{
    QVERIFY(backgroundPool().waitForDone(5000));
    for (int i = 0; i < 3; ++i)
        QCoreApplication::sendPostedEvents();
}

}   // namespace

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

void TstBackgroundPool::doneRunsOnTheGuiThread()
{
    QObject context;
    QThread *workThread = nullptr;
    QThread *doneThread = nullptr;
    int got = 0;
    runInBackground(
        &context,
        [&workThread] {
            workThread = QThread::currentThread();
            return 42;
        },
        [&](int value) {
            doneThread = QThread::currentThread();
            got = value;
        });
    QTRY_COMPARE_WITH_TIMEOUT(got, 42, 5000);
    QVERIFY(workThread != QCoreApplication::instance()->thread());
    QCOMPARE(doneThread, QCoreApplication::instance()->thread());
}

void TstBackgroundPool::supersededCallIsDropped()
{
    // The older read ends after the newer one: its result must not replace the newer.
    QObject context;
    BackgroundLoader loader;
    QSemaphore releaseOld;
    QList<int> shown;
    loader.run(
        &context,
        [&releaseOld] {
            releaseOld.acquire();
            return 1;
        },
        [&shown](int v) { shown << v; });
    loader.run(
        &context, [] { return 2; }, [&shown](int v) { shown << v; });
    QVERIFY(loader.isLoading());
    QTRY_COMPARE_WITH_TIMEOUT(shown, QList<int>{2}, 5000);
    QVERIFY(!loader.isLoading());
    releaseOld.release();
    drainPool();
    QCOMPARE(shown, QList<int>{2});
    QVERIFY(!loader.isLoading());
}

void TstBackgroundPool::destroyedContextIsNotCalled()
{
    auto context = std::make_unique<QObject>();
    QSemaphore release;
    bool called = false;
    BackgroundLoader loader;
    runInBackground(
        context.get(), [&release] { release.acquire(); }, [&called] { called = true; });
    loader.run(
        context.get(),
        [&release] {
            release.acquire();
            return 1;
        },
        [&called](int) { called = true; });
    context.reset();   // the widget closes while its reads still run
    release.release(2);
    drainPool();
    QVERIFY(!called);
}

void TstBackgroundPool::cancelDropsEveryCall()
{
    QObject context;
    BackgroundLoader loader;
    QSemaphore release;
    bool called = false;
    loader.run(
        &context,
        [&release] {
            release.acquire();
            return 1;
        },
        [&called](int) { called = true; });
    loader.cancel();
    QVERIFY(!loader.isLoading());
    release.release();
    drainPool();
    QVERIFY(!called);
}

QTEST_MAIN(TstBackgroundPool)
#include "tst_backgroundpool.moc"
