// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/ssh: the QObject that lives on ClusterConnection's thread
// and owns the SshSession.

#include "core/ssh/ClusterConnection.h"

#include <QMutex>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <deque>

namespace scalelab {

class ClusterConnectionWorker : public QObject {
    Q_OBJECT
public:
    ClusterConnectionWorker(SshConnectionSettings settings, SshCallbacks *callbacks);
    ~ClusterConnectionWorker() override;

    // Thread-safe: called from the owner's thread.
    void push(quint64 id, ClusterConnection::Task task);
    void dropPending();
    void requestStop() { m_stopping = true; }

public Q_SLOTS:
    void begin();   // on the worker thread
    void processNext();   // on the worker thread
    void shutdown();   // on the worker thread

Q_SIGNALS:
    void stateChanged(int state, const QString &message);
    void taskFinished(quint64 id);

private:
    bool ensureConnected();
    void setState(ClusterConnection::State s, const QString &message);

    SshConnectionSettings m_settings;
    SshCallbacks *m_callbacks;
    std::unique_ptr<SshSession> m_session;   // created and destroyed on the worker thread
    QMutex m_mutex;
    std::deque<std::pair<quint64, ClusterConnection::Task>> m_queue;
    std::atomic<bool> m_stopping{false};
    bool m_everConnected = false;
    QTimer *m_keepalive = nullptr;
    ClusterConnection::State m_state = ClusterConnection::State::Disconnected;
};

}   // namespace scalelab
