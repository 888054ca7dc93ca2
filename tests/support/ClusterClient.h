// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NoQuestions.h"
#include "core/store/RunStore.h"
#include "core/client/SlurmClient.h"
#include "core/ssh/SshSession.h"
#include "TestClusterEnv.h"

#include <QElapsedTimer>
#include <QThread>

#include <functional>
#include <memory>

namespace scalelab::test {

// What the library-level cluster tests share: one kept SSH session to an
// alias of the test cluster, a throw-away run store and a Slurm client.
struct ClusterClient {
    TestClusterEnv env;
    NoQuestions callbacks;
    std::unique_ptr<SshSession> ssh;
    std::unique_ptr<RunStore> store;
    std::unique_ptr<SlurmClient> client;

    // "" when connected and the store is open; otherwise what failed.
    QString start(const QString &dataDir, const QString &alias = QStringLiteral("testbed"))
    {
        env = TestClusterEnv::load();
        if (!env.ok())
            return env.error;
        SshConnectionSettings s;
        s.alias = alias;
        s.configPath = env.sshConfig;
        s.connectTimeoutMs = 10000;
        ssh = std::make_unique<SshSession>(s, &callbacks);
        if (QString e = ssh->connectToHost().errorText(); !e.isEmpty())
            return e;
        store = std::make_unique<RunStore>(dataDir);
        if (QString e = store->open().errorText(); !e.isEmpty())
            return e;
        client = std::make_unique<SlurmClient>(*ssh, *store, alias);
        return {};
    }

    // Polls every 2 s until done() holds (true) or the deadline passes. The
    // cluster is shared with other tests: a dropped session is reconnected
    // the way the app does it (SshSession::reconnect).
    bool pollUntil(const std::function<bool()> &done, int seconds)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < seconds * 1000) {
            const PollResult p = client->pollOnce();
            if (!p.ok())
                qWarning("poll: %s %s", qPrintable(p.message), qPrintable(p.transportError));
            if (!p.transportError.isEmpty() && !ssh->isConnected())
                (void)ssh->reconnect(1);
            if (done())
                return true;
            QThread::msleep(2000);
        }
        return false;
    }
};

}   // namespace scalelab::test
