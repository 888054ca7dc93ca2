// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the SlurmClient tests against a scripted executor: a run to
// submit, and the fixture each test function starts from (a run store in a
// temporary directory, a fake Slurm behind a scripted executor, the client).

#include "FakeSlurm.h"
#include "core/client/SlurmClient.h"

#include <QTemporaryDir>
#include <QTest>

namespace scalelab::testing {

inline RunRecord newRun()
{
    RunRecord r;
    r.profile = "testbed";
    r.clusterAlias = "testbed";
    r.partition = "gpu";
    r.gpus = 2;
    r.nodes = 1;
    r.framework = "pytorch-ddp";
    r.specJson = "{\"jobName\":\"a researcher's job\"}";
    r.script =
        "#!/bin/bash\n#SBATCH --job-name='" + scalelab::test::kUserText + "'\nsrun python train.py --lr 0.1 'x y'\n";
    return r;
}

// A test class derives from this and calls setUpClient() from its init() and
// tearDownClient() from its cleanup(): a fresh store, executor and client per
// test function.
class SlurmClientFixture {
protected:
    void setUpClient()
    {
        m_dir = new QTemporaryDir;
        m_store = new RunStore(m_dir->path());
        QCOMPARE(m_store->open().errorText(), QString());
        m_exec = new FakeRemoteExecutor;
        m_slurm = new scalelab::test::FakeSlurm(*m_exec);
        m_client = new SlurmClient(*m_exec, *m_store, "testbed");
    }

    void tearDownClient()
    {
        delete m_client;
        delete m_slurm;
        delete m_exec;
        delete m_store;
        delete m_dir;
    }

    QTemporaryDir *m_dir = nullptr;
    RunStore *m_store = nullptr;
    FakeRemoteExecutor *m_exec = nullptr;
    scalelab::test::FakeSlurm *m_slurm = nullptr;
    SlurmClient *m_client = nullptr;
    qint64 createRun() { return m_store->createRun(newRun()).value().id; }
};

}   // namespace scalelab::testing
