// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <type_traits>

namespace scalelab {

class RunStore;

// The window's single store calls (hiding, withdrawing, storing a batch, the
// cluster layer's look-ups): each runs on backgroundPool() with that
// thread's own connection, one after another in the order they were asked
// for (a reconcile's "newest run so far" is read before a batch queued after
// it is stored), and its result comes back to the GUI thread. The GUI thread
// never waits for the store, whoever holds its write lock; a task waits
// there (RunStore::kBusyTimeoutMs) and completes when the lock is released.
// Bulk reads of a place (Jobs, Results) keep their own loaders.
class StoreTaskQueue : public QObject {
    Q_OBJECT
public:
    explicit StoreTaskQueue(RunStore &store, QObject *parent = nullptr);

    // `work(store)` on a pool thread after every task queued before it; then
    // `done(result)` on the GUI thread, unless `context` went meanwhile.
    template <typename Work, typename Done>
    void run(QObject *context, Work work, Done done)
    {
        using T = std::invoke_result_t<Work, RunStore &>;
        ++m_pending;
        QPointer<QObject> guard(context);
        QPointer<StoreTaskQueue> self(this);
        RunStore *store = m_store;
        enqueue([store, guard, self, work = std::move(work), done = std::move(done)]() mutable {
            T result = work(*store);
            // Posted to the application object, which outlives every context.
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [guard, self, done = std::move(done), result = std::move(result)]() mutable {
                    if (guard)
                        done(std::move(result));
                    if (self)
                        self->finished();
                },
                Qt::QueuedConnection);
        });
    }
    // Tasks queued, running, or whose result is not delivered yet.
    int pending() const { return m_pending; }

Q_SIGNALS:
    // The last pending task's result was delivered.
    void idle();

private:
    struct Shared;
    void enqueue(std::function<void()> task);
    void finished();

    RunStore *m_store;
    std::shared_ptr<Shared> m_shared;
    int m_pending = 0;
};

}   // namespace scalelab
