// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ssh/ClusterConnection.h"
#include "core/ssh/ClusterConnectionWorker.h"

#include "core/ssh/SshSession.h"

#include <QMetaObject>
#include <QThread>

namespace scalelab {

ClusterConnectionWorker::ClusterConnectionWorker(SshConnectionSettings settings, SshCallbacks *callbacks)
    : m_settings(std::move(settings))
    , m_callbacks(callbacks)
{}

ClusterConnectionWorker::~ClusterConnectionWorker() = default;

void ClusterConnectionWorker::push(quint64 id, ClusterConnection::Task task)
{
    {
        QMutexLocker lock(&m_mutex);
        m_queue.emplace_back(id, std::move(task));
    }
    QMetaObject::invokeMethod(this, &ClusterConnectionWorker::processNext, Qt::QueuedConnection);
}

void ClusterConnectionWorker::dropPending()
{
    QMutexLocker lock(&m_mutex);
    m_queue.clear();
}

void ClusterConnectionWorker::setState(ClusterConnection::State s, const QString &message)
{
    m_state = s;
    Q_EMIT stateChanged(int(s), message);
}

void ClusterConnectionWorker::begin()
{
    m_session = std::make_unique<SshSession>(m_settings, m_callbacks);
    m_keepalive = new QTimer(this);
    m_keepalive->setInterval(5000);
    connect(m_keepalive, &QTimer::timeout, this, [this] {
        if (m_session && m_session->isConnected())
            m_session->sendKeepaliveIfDue();
    });
    m_keepalive->start();
    ensureConnected();
}

bool ClusterConnectionWorker::ensureConnected()
{
    if (m_session->isConnected())
        return true;
    const bool again = m_everConnected;
    setState(again ? ClusterConnection::State::Reconnecting : ClusterConnection::State::Connecting,
             again ? QStringLiteral("connection to %1 lost, reconnecting").arg(m_settings.alias)
                   : QStringLiteral("connecting to %1").arg(m_settings.alias));
    if (const auto connected = m_session->connectToHost(); !connected) {
        setState(ClusterConnection::State::Failed, connected.errorText());
        return false;
    }
    m_everConnected = true;
    setState(ClusterConnection::State::Connected, m_session->serverBanner());
    return true;
}

void ClusterConnectionWorker::processNext()
{
    if (m_stopping || !m_session)
        return;
    std::pair<quint64, ClusterConnection::Task> job;
    {
        QMutexLocker lock(&m_mutex);
        if (m_queue.empty())
            return;
        job = std::move(m_queue.front());
        m_queue.pop_front();
    }
    // A failed connect still runs the task: it sees transport errors from
    // the unconnected executor and reports them the way it reports any.
    ensureConnected();
    if (!m_stopping)
        job.second(*m_session);
    Q_EMIT taskFinished(job.first);
    if (!m_stopping && m_everConnected && !m_session->isConnected()) {
        setState(ClusterConnection::State::Reconnecting,
                 QStringLiteral("connection to %1 lost, reconnecting").arg(m_settings.alias));
        m_session->disconnect();
        ensureConnected();   // once; the next task tries again if this fails
    }
}

void ClusterConnectionWorker::shutdown()
{
    dropPending();
    if (m_keepalive)
        m_keepalive->stop();
    if (m_session) {
        m_session->disconnect();
        m_session.reset();
    }
    setState(ClusterConnection::State::Disconnected, QString());
}

ClusterConnection::ClusterConnection(SshConnectionSettings settings, SshCallbacks *callbacks, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_callbacks(callbacks)
{}

ClusterConnection::~ClusterConnection()
{
    stop();
}

void ClusterConnection::start()
{
    if (m_thread)
        return;
    m_thread = std::make_unique<QThread>();
    m_thread->setObjectName(QStringLiteral("ssh:%1").arg(m_settings.alias));
    m_worker = new ClusterConnectionWorker(m_settings, m_callbacks);
    m_worker->moveToThread(m_thread.get());
    connect(m_worker, &ClusterConnectionWorker::stateChanged, this, &ClusterConnection::onWorkerState,
            Qt::QueuedConnection);
    connect(m_worker, &ClusterConnectionWorker::taskFinished, this, &ClusterConnection::taskFinished,
            Qt::QueuedConnection);
    m_thread->start();
    QMetaObject::invokeMethod(m_worker, &ClusterConnectionWorker::begin, Qt::QueuedConnection);
}

void ClusterConnection::stop()
{
    if (!m_thread)
        return;
    m_worker->requestStop();
    m_worker->dropPending();
    // Disconnect on the worker thread (the session belongs to it), then end it.
    QMetaObject::invokeMethod(m_worker, &ClusterConnectionWorker::shutdown, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;   // its thread has ended, so deleting it here is safe
    m_worker = nullptr;
    m_thread.reset();
    if (m_state != State::Disconnected) {
        m_state = State::Disconnected;
        Q_EMIT stateChanged(m_state, QString());
    }
}

quint64 ClusterConnection::enqueue(Task task)
{
    if (!m_thread || !m_worker)
        return 0;
    const quint64 id = m_nextId++;
    m_worker->push(id, std::move(task));
    return id;
}

void ClusterConnection::cancelPending()
{
    if (m_worker)
        m_worker->dropPending();
}

void ClusterConnection::onWorkerState(int state, const QString &message)
{
    if (!m_thread)
        return;   // stale signals after stop()
    m_state = static_cast<State>(state);
    Q_EMIT stateChanged(m_state, message);
}

}   // namespace scalelab
