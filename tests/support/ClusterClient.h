#pragma once

#include "NoQuestions.h"
#include "RunStore.h"
#include "SlurmClient.h"
#include "SshSession.h"
#include "TestClusterEnv.h"

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
        if (QString e = ssh->connectToHost(); !e.isEmpty())
            return e;
        store = std::make_unique<RunStore>(dataDir);
        if (QString e = store->open(); !e.isEmpty())
            return e;
        client = std::make_unique<SlurmClient>(*ssh, *store, alias);
        return {};
    }
};

} // namespace scalelab::test
