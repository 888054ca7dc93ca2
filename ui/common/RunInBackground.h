// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/BackgroundPool.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <type_traits>
#include <utility>

namespace scalelab {

// Runs `work` on backgroundPool() and hands its result to `done` on the GUI
// thread, if `context` still exists then: a widget closed meanwhile is never
// called back (its watcher goes with it). `work` runs on a pool thread and
// must not touch `context`; what it reads, it captures by value (the store
// outlives the pool: AppServices waits for it). The future returned is for
// waiting in a destructor (work that reads the context's members). Called
// on the GUI thread.
template <typename Work, typename Done>
auto runInBackground(QObject *context, Work &&work, Done &&done)
{
    using T = std::invoke_result_t<std::decay_t<Work>>;
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::forward<Done>(done)]() mutable {
                         watcher->deleteLater();
                         if constexpr (std::is_void_v<T>)
                             done();
                         else
                             done(watcher->result());   // a copy: the future stays valid to wait for
                     });
    QFuture<T> future = QtConcurrent::run(&backgroundPool(), std::forward<Work>(work));
    watcher->setFuture(future);
    return future;
}

// One kind of background read of a widget (the selection's GPU samples, its
// epoch curves): each run() supersedes the calls before it, whose `done`
// never runs, so a slow old read cannot overwrite a newer one. A member of
// the widget, used on the GUI thread only.
class BackgroundLoader {
public:
    // From a run() until the newest one's done has run (or cancel()).
    bool isLoading() const { return m_state->shown != m_state->latest; }
    // Drops every call made so far: none of their dones runs.
    void cancel() { m_state->shown = ++m_state->latest; }

    template <typename Work, typename Done>
    auto run(QObject *context, Work &&work, Done &&done)
    {
        const quint64 call = ++m_state->latest;
        return runInBackground(context, std::forward<Work>(work),
                               [state = m_state, call, done = std::forward<Done>(done)](auto &&...result) mutable {
                                   if (call != state->latest)
                                       return;   // a newer call replaced this one
                                   state->shown = call;
                                   done(std::forward<decltype(result)>(result)...);
                               });
    }

private:
    struct State {
        quint64 latest = 0;   // the newest call
        quint64 shown = 0;   // the call whose done ran last
    };
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

}   // namespace scalelab
