// SPDX-License-Identifier: GPL-3.0-or-later
// A spec with a project folder, on the real loopback cluster over the real
// sshd: the run's own folder holds the snapshot and is where the job runs its
// program; a second submit after an edit sends only the edited file and
// leaves the first run's code as it was.
// Needs the loopback cluster (tests/cluster/testcluster up); fails without it.
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/base/Sha256.h"
#include "core/client/RunLifecycle.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

namespace {

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    f.write(data);
}

// The program prints which version of the code it is and where it runs.
QByteArray program(int version)
{
    return QByteArrayLiteral("import os\n") + "print('code-version " + QByteArray::number(version)
           + " in', os.getcwd(), flush=True)\n";
}

}   // namespace

class TestProjectCluster : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    QTemporaryDir m_project;
    test::ClusterClient m_cluster;
    QString m_remote;   // the remote folder of this test run, under the researcher's home

    // Stored and sent as `scalelab submit` does: one run with its snapshot.
    std::pair<qint64, SubmitOutcome> submit(const QString &name)
    {
        JobSpec spec = test::testbedSpec(name, 1, QStringLiteral("train.py"));
        spec.partition = QStringLiteral("gputest");
        spec.time = QStringLiteral("00:02:00");
        spec.memory = QStringLiteral("500M");
        spec.project = ProjectSpec{m_project.path(), m_remote};
        const ClusterProfile &profile = test::repoProfile(QStringLiteral("testbed"));
        SubmitRequest r{spec, &profile, QStringLiteral("testbed"), {}, std::nullopt};
        r.snapshot = RunLifecycle::snapshotProject(spec, profile).value();
        const auto stored = RunLifecycle::storeBatch(*m_cluster.store, {r}, {});
        if (!stored)
            return {0, SubmitOutcome{SubmitOutcome::Kind::Refused, {}, stored.errorText(), false}};
        RunLifecycle lifecycle(*m_cluster.client, *m_cluster.store);
        const QList<SentRun> sent = lifecycle.sendBatch({stored->front().id});
        return {stored->front().id, sent.front().outcome};
    }

    QByteArray remoteFile(const QString &path)
    {
        const RemoteFileChunk c = m_cluster.ssh->download(path);
        return c.error.isEmpty() ? c.data : "<" + c.error.toUtf8() + ">";
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_project.isValid());
        const QString e = m_cluster.start(m_data.path());
        QVERIFY2(e.isEmpty(), qPrintable(e));
        m_remote = QStringLiteral("~/scalelab-test-%1-%2")
                       .arg(QCoreApplication::applicationPid())
                       .arg(QDateTime::currentMSecsSinceEpoch() % 1000000);
        writeFile(m_project.path() + "/train.py", program(1));
        for (int i = 0; i < 40; ++i)
            writeFile(m_project.path() + QStringLiteral("/lib/part%1.py").arg(i), QByteArray(2000 + i, 'x'));
        writeFile(m_project.path() + "/it's a \"name\" $HOME.txt", "quoting\n");
        writeFile(m_project.path() + "/.gitignore", "checkpoints/\n");
        writeFile(m_project.path() + "/checkpoints/big.pt", QByteArray(100000, 'c'));
    }

    void runFolderPerRunAndOnlyTheEditSent()
    {
        const QString name = QStringLiteral("project-%1").arg(QCoreApplication::applicationPid());
        const auto sentA = submit(name + "-a");   // no structured binding: lambdas capture these (clang 14)
        const qint64 first = sentA.first;
        const SubmitOutcome &sentFirst = sentA.second;
        QVERIFY2(sentFirst.kind == SubmitOutcome::Kind::Submitted, qPrintable(sentFirst.message));
        const SyncReport firstSync = m_cluster.client->lastSync().value();
        QCOMPARE(firstSync.progress.filesSent, 43);   // train.py, 40 parts, the odd name, .gitignore
        const RunRecord a = m_cluster.store->run(first).value();
        QVERIFY2(a.remoteDir.endsWith("/runs/" + a.token), qPrintable(a.remoteDir));

        // The edit, then the second run: one file crosses the wire.
        writeFile(m_project.path() + "/train.py", program(2));
        const auto sentB = submit(name + "-b");
        const qint64 second = sentB.first;
        const SubmitOutcome &sentSecond = sentB.second;
        QVERIFY2(sentSecond.kind == SubmitOutcome::Kind::Submitted, qPrintable(sentSecond.message));
        const SyncReport secondSync = m_cluster.client->lastSync().value();
        QCOMPARE(secondSync.progress.filesSent, 1);
        QCOMPARE(secondSync.progress.bytesSent, qint64(program(2).size()));
        QCOMPARE(secondSync.progress.filesPresent, 42);
        const RunRecord b = m_cluster.store->run(second).value();
        QCOMPARE(remoteFile(a.remoteDir + "/train.py"), program(1));   // the first run's code is unchanged
        QCOMPARE(remoteFile(b.remoteDir + "/train.py"), program(2));
        QCOMPARE(remoteFile(a.remoteDir + "/it's a \"name\" $HOME.txt"), QByteArray("quoting\n"));
        QVERIFY(remoteFile(a.remoteDir + "/checkpoints/big.pt").startsWith('<'));   // ignored, never sent

        // Each job ran its own folder's program, in that folder.
        const bool done = m_cluster.pollUntil(
            [&] { return m_cluster.store->run(first)->isTerminal() && m_cluster.store->run(second)->isTerminal(); },
            240);
        QVERIFY2(done, "the two jobs did not finish in 4 minutes");
        for (const auto &[id, version] : {std::pair{first, 1}, std::pair{second, 2}}) {
            const RunRecord run = m_cluster.store->run(id).value();
            const QByteArray out = remoteFile(run.remoteDir + "/" + SlurmClient::outputFileName(run.jobId));
            QVERIFY2(run.state == JobState::Completed, out.constData());
            const QByteArray expected = "code-version " + QByteArray::number(version) + " in " + run.remoteDir.toUtf8();
            QVERIFY2(out.contains(expected), out.constData());
        }
        // The snapshot checks out on the cluster with the system's sha256sum.
        const RemoteResult check = m_cluster.ssh->run(
            {"sh", "-c", "cd " + a.remoteDir + " && sha256sum -c --quiet .scalelab-snapshot.sha256"});
        QVERIFY2(check.ok(), qPrintable(QString::fromUtf8(check.out + check.err) + check.transportError));
        // The run records its snapshot.
        const ProjectSnapshot recorded = m_cluster.store->runSnapshot(first).value().value();
        QCOMPARE(recorded.manifest.files.size(), 43);
        QCOMPARE(recorded.id, recorded.manifest.id());
    }

    void cleanupTestCase()
    {
        if (m_cluster.ssh && !m_remote.isEmpty()) {
            const QString dir = m_cluster.ssh->homeDirectory() + m_remote.mid(1);
            m_cluster.ssh->run({"chmod", "-R", "u+w", "--", dir});
            m_cluster.ssh->run({"rm", "-rf", "--", dir});
        }
    }
};

QTEST_GUILESS_MAIN(TestProjectCluster)
#include "tst_project_cluster.moc"
