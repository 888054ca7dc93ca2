// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/StoreTaskQueue.h"

#include "core/store/RunStore.h"
#include "ui/common/BackgroundPool.h"

#include <QMutex>
#include <QtConcurrent>

#include <deque>

namespace scalelab {

// Held by the queue and by the pool task draining it, so either may go first.
struct StoreTaskQueue::Shared {
    QMutex mutex;
    std::deque<std::function<void()>> tasks;
    bool draining = false;
};

StoreTaskQueue::StoreTaskQueue(RunStore &store, QObject *parent)
    : QObject(parent)
    , m_store(&store)
    , m_shared(std::make_shared<Shared>())
{}

void StoreTaskQueue::enqueue(std::function<void()> task)
{
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->tasks.push_back(std::move(task));
        if (m_shared->draining)
            return;   // the pool task running the earlier ones takes it next
        m_shared->draining = true;
    }
    // One pool task at a time runs the queue in order.
    (void)QtConcurrent::run(&backgroundPool(), [shared = m_shared, store = m_store] {
        for (;;) {
            std::function<void()> next;
            {
                QMutexLocker lock(&shared->mutex);
                if (shared->tasks.empty()) {
                    shared->draining = false;
                    break;
                }
                next = std::move(shared->tasks.front());
                shared->tasks.pop_front();
            }
            next();
        }
        store->closeThreadConnection();   // this pool thread may be reused by others
    });
}

void StoreTaskQueue::finished()
{
    if (--m_pending == 0)
        Q_EMIT idle();
}

}   // namespace scalelab
