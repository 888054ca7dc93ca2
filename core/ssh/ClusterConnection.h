// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ssh/SshCallbacks.h"
#include "core/ssh/SshConnectionSettings.h"

#include "core/client/RemoteExecutor.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace scalelab {

class SshSession;
class ClusterConnectionWorker;

// The asynchronous face of one cluster connection, for the GUI. It owns a
// QThread on which an SshSession lives; the GUI thread never touches libssh.
// Tasks run one after another on that thread, in enqueue order. Before a task
// the worker connects if needed; if the task's connection then breaks (a
// transport error), the worker reconnects once for the next task.
//
// Results travel back through the task itself — post them to a receiver
// object living on the GUI thread:
//
//     conn->enqueue([receiver = QPointer<JobsModel>(model)](scalelab::RemoteExecutor &ex) {
//         scalelab::RemoteResult r = ex.run({"squeue", "--me", "--noheader"});
//         QMetaObject::invokeMethod(receiver, [receiver, r] {   // queued: runs on the GUI thread
//             if (receiver) receiver->applySqueue(r);
//         }, Qt::QueuedConnection);
//     });
//
// If connecting fails, the task still runs, so it can report back as usual:
// every call on the executor then returns a transport error that includes the
// connect error; stateChanged(Failed, message) says the same, and the next
// task tries to connect again. SshCallbacks are called on the worker thread
// and may block there. Signals are delivered on the thread that owns this
// object (the GUI thread).
class ClusterConnection : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Failed, Reconnecting };
    Q_ENUM(State)
    using Task = std::function<void(RemoteExecutor &)>;

    explicit ClusterConnection(SshConnectionSettings settings, SshCallbacks *callbacks, QObject *parent = nullptr);
    ~ClusterConnection() override;   // stop()s

    void start();   // starts the worker thread and connects
    void stop();   // drops pending tasks, disconnects, joins the thread
    quint64 enqueue(Task task);   // 0 when not started
    void cancelPending();   // drops tasks not yet started
    State state() const { return m_state; }
    QString alias() const { return m_settings.alias; }

Q_SIGNALS:
    void stateChanged(ClusterConnection::State state, const QString &message);
    void taskFinished(quint64 id);

private:
    void onWorkerState(int state, const QString &message);

    SshConnectionSettings m_settings;
    SshCallbacks *m_callbacks;
    State m_state = State::Disconnected;
    std::unique_ptr<QThread> m_thread;
    ClusterConnectionWorker *m_worker = nullptr;   // lives on m_thread
    quint64 m_nextId = 1;
};

}   // namespace scalelab
