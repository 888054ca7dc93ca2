// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Header-only loopback TCP proxy for fault tests: listens on 127.0.0.1:<any>,
// forwards each connection to 127.0.0.1:<target> (the test cluster's sshd)
// and cuts connections on demand, so a real SshSession sees a real dropped
// transport at a chosen moment.
//
// The proxy runs on its own QThread: the test thread blocks inside libssh
// calls while the proxy keeps pumping bytes (no nested event loops). Every
// public method is thread-safe. No Q_OBJECT (a support header is not moc'ed):
// work is posted into the thread with QMetaObject::invokeMethod(functor).
//
// Faults (each one-shot, disarmed after it fired):
//  - cutAll(): abort both sockets of every open connection now.
//  - cutAfterClientBytes(n): once the client has sent more than n bytes
//    (counted from arming, over all connections), forward that chunk, then cut.
//  - holdRepliesAfterClientBytes(n, ms): once the client has sent more than n
//    bytes, forward it but swallow everything the server sends from then on,
//    and cut all connections `ms` later: the command runs on the server, its
//    reply never reaches the client.
//  - setRefuseNew(true): new connections are accepted and closed at once.

#include <QByteArray>
#include <QFile>
#include <QHostAddress>
#include <QList>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

namespace scalelab::test {

class TcpCutProxy {
public:
    explicit TcpCutProxy(quint16 targetPort = 2222)
        : m_targetPort(targetPort)
    {}
    ~TcpCutProxy() { stop(); }
    TcpCutProxy(const TcpCutProxy &) = delete;
    TcpCutProxy &operator=(const TcpCutProxy &) = delete;

    // Starts the thread and listens; "" on success.
    QString start()
    {
        if (m_thread)
            return {};
        m_thread = std::make_unique<QThread>();
        m_context = new QObject;   // lives in the proxy thread; parent of everything there
        m_context->moveToThread(m_thread.get());
        m_thread->start();
        QString error;
        post([&] {
            m_server = new QTcpServer(m_context);
            QObject::connect(m_server, &QTcpServer::newConnection, m_context, [this] { acceptAll(); });
            if (!m_server->listen(QHostAddress::LocalHost, 0))
                error = QStringLiteral("proxy cannot listen on 127.0.0.1: %1").arg(m_server->errorString());
            else
                m_port = m_server->serverPort();
        });
        return error;
    }

    void stop()
    {
        if (!m_thread)
            return;
        post([this] {
            cutNow(false);
            m_server->close();
            m_context->deleteLater();   // with server and sockets, when the thread ends
        });
        m_thread->quit();
        m_thread->wait();
        m_context = nullptr;
        m_server = nullptr;
        m_thread.reset();
    }

    quint16 port() const { return m_port; }
    int connectionCount() const { return m_connections.load(); }   // accepted since start
    int openConnections() const { return m_open.load(); }
    int cutCount() const { return m_cuts.load(); }   // connections aborted by a fault
    qint64 clientBytes() const { return m_clientBytes.load(); }   // client -> server, total
    qint64 serverBytes() const { return m_serverBytes.load(); }   // server -> client, total

    void cutAll()
    {
        post([this] { cutNow(true); });
    }
    void cutAfterClientBytes(qint64 n)
    {
        post([this, n] {
            m_armedBytes = 0;
            m_cutAfter = n;
        });
    }
    void holdRepliesAfterClientBytes(qint64 n, int cutAfterMs)
    {
        post([this, n, cutAfterMs] {
            m_armedBytes = 0;
            m_holdAfter = n;
            m_holdCutMs = cutAfterMs;
        });
    }
    void setRefuseNew(bool refuse)
    {
        post([this, refuse] { m_refuseNew = refuse; });
    }
    void disarm()
    {
        post([this] {
            m_cutAfter = -1;
            m_holdAfter = -1;
            m_holding = false;
        });
    }

    // An OpenSSH config in `dir` with every entry of the cluster's config plus
    // `testbed-proxy` (the `testbed` entry pointed at this proxy), and its own
    // known_hosts holding the key of [127.0.0.1]:2222 for [127.0.0.1]:<port> too.
    // Returns the config path, "" + *error on failure.
    QString writeSshConfig(const QString &clusterDir, const QString &dir, QString *error,
                           const QString &alias = QStringLiteral("testbed-proxy"),
                           const QString &user = QStringLiteral("researcher")) const
    {
        auto readAll = [&](const QString &path) -> QByteArray {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                *error = QStringLiteral("cannot read %1").arg(path);
                return {};
            }
            return f.readAll();
        };
        const QByteArray known = readAll(clusterDir + QStringLiteral("/ssh/known_hosts"));
        if (known.isEmpty())
            return {};
        QByteArray key;
        for (const QByteArray &line : known.split('\n'))
            if (line.startsWith(QByteArray("[127.0.0.1]:") + QByteArray::number(m_targetPort) + ' '))
                key = line.mid(line.indexOf(' ') + 1);
        if (key.isEmpty()) {
            *error = QStringLiteral("no host key for [127.0.0.1]:%1 in the cluster's known_hosts").arg(m_targetPort);
            return {};
        }
        const QString knownPath = dir + QStringLiteral("/known_hosts");
        QFile kf(knownPath);
        if (!kf.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            *error = QStringLiteral("cannot write %1").arg(knownPath);
            return {};
        }
        kf.write(known.trimmed() + "\n[127.0.0.1]:" + QByteArray::number(m_port) + ' ' + key + '\n');
        kf.close();

        QString cfg = QString::fromUtf8(readAll(clusterDir + QStringLiteral("/ssh/config")));
        if (cfg.isEmpty())
            return {};
        cfg.replace(clusterDir + QStringLiteral("/ssh/known_hosts"), knownPath);
        cfg += QStringLiteral("Host %1\n  HostName 127.0.0.1\n  Port %2\n  User %3\n"
                              "  IdentityFile %4/ssh/id_ed25519\n  IdentitiesOnly yes\n"
                              "  UserKnownHostsFile %5\n  GlobalKnownHostsFile /dev/null\n"
                              "  StrictHostKeyChecking yes\n  ConnectTimeout 10\n")
                   .arg(alias)
                   .arg(m_port)
                   .arg(user, clusterDir, knownPath);
        const QString cfgPath = dir + QStringLiteral("/config");
        QFile cf(cfgPath);
        if (!cf.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            *error = QStringLiteral("cannot write %1").arg(cfgPath);
            return {};
        }
        cf.write(cfg.toUtf8());
        return cfgPath;
    }

private:
    struct Pair {
        QPointer<QTcpSocket> client;
        QPointer<QTcpSocket> upstream;
        QByteArray pending;   // client bytes before the upstream connected
        bool upConnected = false;
    };

    template <typename F>
    void post(F &&f)
    {
        if (!m_context)
            return;
        if (QThread::currentThread() == m_thread.get())
            f();
        else
            QMetaObject::invokeMethod(m_context, std::forward<F>(f), Qt::BlockingQueuedConnection);
    }

    void acceptAll()
    {
        while (QTcpSocket *client = m_server->nextPendingConnection()) {
            client->setParent(m_context);
            ++m_connections;
            if (m_refuseNew) {
                client->abort();
                client->deleteLater();
                continue;
            }
            ++m_open;
            auto pair = std::make_shared<Pair>();
            pair->client = client;
            auto *up = new QTcpSocket(m_context);
            pair->upstream = up;
            m_pairs << pair;
            QObject::connect(up, &QTcpSocket::connected, m_context, [pair] {
                pair->upConnected = true;
                if (!pair->pending.isEmpty() && pair->upstream)
                    pair->upstream->write(pair->pending);
                pair->pending.clear();
            });
            QObject::connect(client, &QTcpSocket::readyRead, m_context, [this, pair] { fromClient(pair); });
            QObject::connect(up, &QTcpSocket::readyRead, m_context, [this, pair] { fromServer(pair); });
            QObject::connect(client, &QTcpSocket::disconnected, m_context, [this, pair] { closePair(pair); });
            QObject::connect(up, &QTcpSocket::disconnected, m_context, [this, pair] { closePair(pair); });
            QObject::connect(up, &QTcpSocket::errorOccurred, m_context, [this, pair](QAbstractSocket::SocketError e) {
                if (e != QAbstractSocket::RemoteHostClosedError)
                    closePair(pair);
            });
            up->connectToHost(QHostAddress::LocalHost, m_targetPort);
        }
    }

    void fromClient(const std::shared_ptr<Pair> &pair)
    {
        if (!pair->client)
            return;
        const QByteArray data = pair->client->readAll();
        if (data.isEmpty())
            return;
        m_clientBytes += data.size();
        if (pair->upConnected && pair->upstream)
            pair->upstream->write(data);
        else
            pair->pending += data;
        if (m_cutAfter < 0 && m_holdAfter < 0)
            return;
        m_armedBytes += data.size();
        if (m_cutAfter >= 0 && m_armedBytes > m_cutAfter) {
            m_cutAfter = -1;
            flushUpstreams();
            cutNow(true);
        } else if (m_holdAfter >= 0 && m_armedBytes > m_holdAfter) {
            m_holdAfter = -1;
            m_holding = true;
            QTimer::singleShot(m_holdCutMs, m_context, [this] {
                m_holding = false;
                cutNow(true);
            });
        }
    }

    void fromServer(const std::shared_ptr<Pair> &pair)
    {
        if (!pair->upstream)
            return;
        const QByteArray data = pair->upstream->readAll();
        m_serverBytes += data.size();
        if (m_holding || !pair->client)
            return;   // swallowed: the reply never arrives
        pair->client->write(data);
    }

    void flushUpstreams()
    {
        for (const auto &p : std::as_const(m_pairs))
            if (p->upstream && p->upConnected) {
                p->upstream->flush();
                if (p->upstream->bytesToWrite() > 0)
                    p->upstream->waitForBytesWritten(1000);
            }
    }

    void closePair(const std::shared_ptr<Pair> &pair)
    {
        if (!m_pairs.removeOne(pair))
            return;
        --m_open;
        // An orderly end on one side: pass on what is buffered, then close the other.
        if (pair->client) {
            if (pair->upstream && pair->upstream->bytesAvailable() > 0 && !m_holding)
                pair->client->write(pair->upstream->readAll());
            pair->client->disconnectFromHost();
            pair->client->deleteLater();
        }
        if (pair->upstream) {
            pair->upstream->disconnectFromHost();
            pair->upstream->deleteLater();
        }
    }

    void cutNow(bool counted)
    {
        const auto pairs = m_pairs;
        m_pairs.clear();
        for (const auto &p : pairs) {
            if (p->client) {
                p->client->abort();
                p->client->deleteLater();
            }
            if (p->upstream) {
                p->upstream->abort();
                p->upstream->deleteLater();
            }
            --m_open;
            if (counted)
                ++m_cuts;
        }
    }

    const quint16 m_targetPort;
    std::unique_ptr<QThread> m_thread;
    QObject *m_context = nullptr;
    QTcpServer *m_server = nullptr;
    QList<std::shared_ptr<Pair>> m_pairs;   // proxy thread only
    quint16 m_port = 0;
    // Fault state: proxy thread only.
    qint64 m_armedBytes = 0;
    qint64 m_cutAfter = -1;
    qint64 m_holdAfter = -1;
    int m_holdCutMs = 0;
    bool m_holding = false;
    bool m_refuseNew = false;

    std::atomic<int> m_connections{0};
    std::atomic<int> m_open{0};
    std::atomic<int> m_cuts{0};
    std::atomic<qint64> m_clientBytes{0};
    std::atomic<qint64> m_serverBytes{0};
};

}   // namespace scalelab::test
