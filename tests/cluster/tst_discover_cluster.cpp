// SPDX-License-Identifier: GPL-3.0-or-later
// `scalelab discover` and `scalelab profiles check` against the real loopback
// cluster: the discovered profile equals what scontrol says, a job composed
// with it completes, a changed partition limit is named exactly, the shipped
// profile's old stale limits are reported, and the QOS GPU limit blocks an
// over-large job in validation. The cluster's Lmod modules and container
// images are discovered; a wrong module version is flagged, the right one
// loads in the job.
#include "CliRunner.h"
#include "TestClusterEnv.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using scalelab::test::runCli;

namespace {

QString scontrol(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral("scontrol"), args);
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

// The value of Key= in one line of `scontrol -o show ...`.
QString field(const QString &line, const QString &key)
{
    const QRegularExpression re(QStringLiteral("(?:^| )%1=(\\S*)").arg(key));
    return re.match(line).captured(1);
}

QJsonObject partitionOf(const QJsonObject &profile, const QString &name)
{
    for (const auto &v : profile.value(QStringLiteral("partitions")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    return {};
}

QJsonValue valueOf(const QJsonObject &part, const QString &key)
{
    const QJsonValue v = part.value(key);
    return v.isObject() ? v.toObject().value(QStringLiteral("value")) : v;
}

// Polls until the run ends (or 3 minutes): its final state.
QString finalState(qint64 runId)
{
    QString state;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 180000 && state != QLatin1String("COMPLETED") && state != QLatin1String("FAILED")) {
        runCli({QStringLiteral("status")});
        const auto runs =
            QJsonDocument::fromJson(runCli({QStringLiteral("runs"), QStringLiteral("--json")}).out.toUtf8())
                .object()
                .value(QStringLiteral("runs"))
                .toArray();
        for (const auto &v : runs)
            if (v.toObject().value(QStringLiteral("id")).toInteger() == runId)
                state = v.toObject().value(QStringLiteral("state")).toString();
        QThread::msleep(1500);
    }
    return state;
}

}   // namespace

class TestDiscoverCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_env = scalelab::test::TestClusterEnv::load();
        QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
        qputenv("SCALELAB_DATA_DIR", m_data.path().toUtf8());
        qputenv("XDG_CACHE_HOME", m_data.filePath(QStringLiteral("cache")).toUtf8());
        qputenv("SCALELAB_USER_PROFILE_DIR", m_userProfiles.path().toUtf8());
    }

    void discoverEqualsScontrol()
    {
        const QString out = m_files.filePath(QStringLiteral("testbed-discovered.json"));
        const auto r = runCli({QStringLiteral("discover"), QStringLiteral("testbed"), QStringLiteral("--output"), out,
                               QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject profile = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(profile.value(QStringLiteral("id")).toString(), QStringLiteral("testbed"));
        QCOMPARE(profile.value(QStringLiteral("slurmVersion")).toString(), m_env.expectedSlurmVersion());
        const QStringList parts = scontrol({QStringLiteral("-o"), QStringLiteral("show"), QStringLiteral("partition")})
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(parts.size(), 4);
        QCOMPARE(profile.value(QStringLiteral("partitions")).toArray().size(), 4);
        const QString node = scontrol(
            {QStringLiteral("-o"), QStringLiteral("show"), QStringLiteral("node"), QStringLiteral("tb-node1")});
        QCOMPARE(field(node, QStringLiteral("Gres")), QStringLiteral("gpu:v100:4"));
        for (const QString &line : parts) {
            const QString name = field(line, QStringLiteral("PartitionName"));
            const QJsonObject p = partitionOf(profile, name);
            QVERIFY2(!p.isEmpty(), qPrintable(name));
            QCOMPARE(valueOf(p, QStringLiteral("maxTime")).toString(), field(line, QStringLiteral("MaxTime")));
            QCOMPARE(QString::number(valueOf(p, QStringLiteral("maxNodes")).toInt()),
                     field(line, QStringLiteral("MaxNodes")));
            QCOMPARE(valueOf(p, QStringLiteral("gpusPerNode")).toInt(), 4);
            QCOMPARE(QString::number(valueOf(p, QStringLiteral("cpusPerNode")).toInt()),
                     field(node, QStringLiteral("CPUTot")));
            QCOMPARE(QString::number(valueOf(p, QStringLiteral("memoryPerNodeMB")).toInt()),
                     field(node, QStringLiteral("RealMemory")));
            QCOMPARE(p.value(QStringLiteral("default")).toBool(),
                     field(line, QStringLiteral("Default")) == QLatin1String("YES"));
            QCOMPARE(valueOf(p, QStringLiteral("exclusive")).toBool(),
                     field(line, QStringLiteral("OverSubscribe")) == QLatin1String("EXCLUSIVE"));
            QVERIFY2(p.value(QStringLiteral("source"))
                         .toString()
                         .startsWith(QStringLiteral("scontrol show partition %1 (on testbed, ").arg(name)),
                     qPrintable(p.value(QStringLiteral("source")).toString()));
        }
        QCOMPARE(valueOf(partitionOf(profile, QStringLiteral("gpusmall")), QStringLiteral("maxGpusPerJob")).toInt(), 2);
        QCOMPARE(partitionOf(profile, QStringLiteral("gpusmall")).value(QStringLiteral("qos")).toString(),
                 QStringLiteral("gpusmall"));
        QVERIFY(QFile::exists(m_data.filePath(QStringLiteral("cache/ScaleLab/discovered/testbed.json"))));
        QVERIFY(QFile::copy(out, m_userProfiles.filePath(QStringLiteral("testbed.json"))));
    }

    void composedJobCompletes()
    {
        // The user profile folder now holds the discovered profile (same id:
        // it replaces the shipped one), so render and submit use it.
        const auto list = runCli({QStringLiteral("profiles"), QStringLiteral("--json")});
        QVERIFY2(list.out.contains(m_userProfiles.path()), qPrintable(list.out.left(2000)));
        const QString programs =
            QStringLiteral("/tmp/scalelab-discover-test-%1").arg(QCoreApplication::applicationPid());
        QDir().mkpath(programs);
        QFile::setPermissions(programs, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                            | QFileDevice::ReadOther | QFileDevice::ExeOther);
        QFile hello(programs + QStringLiteral("/hello.py"));
        QVERIFY(hello.open(QIODevice::WriteOnly));
        hello.write("import os\nprint('rank', os.environ.get('SLURM_PROCID'), 'gpus', "
                    "os.environ.get('CUDA_VISIBLE_DEVICES'), flush=True)\n");
        hello.close();
        QFile::setPermissions(hello.fileName(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
        const QString spec = m_files.filePath(QStringLiteral("ddp2.json"));
        QFile s(spec);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write(QStringLiteral(R"({"profile": "testbed", "partition": "gpu", "gpus": 2, "framework": "pytorch-ddp",
  "launcher": "srun", "time": "00:05:00", "account": "project_2001234", "jobName": "discovered-ddp2", "cpusPerGpu": 1,
  "program": "%1/hello.py", "monitoring": {"gpuSampleSeconds": 0}})")
                    .arg(programs)
                    .toUtf8());
        s.close();
        const auto r = runCli({QStringLiteral("submit"), spec});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        static const QRegularExpression re(QStringLiteral("run (\\d+): submitted as job (\\d+)"));
        const auto m = re.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QCOMPARE(finalState(m.captured(1).toLongLong()), QStringLiteral("COMPLETED"));
        QFile::remove(m_userProfiles.filePath(QStringLiteral("testbed.json")));
    }

    // The cluster's Lmod modules and the images of the profile's container
    // folder (profiles/testbed.json names it) come into the discovered profile.
    void modulesAndImagesDiscovered()
    {
        QFile f(m_files.filePath(QStringLiteral("testbed-discovered.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject profile = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonObject modules = profile.value(QStringLiteral("availableModules")).toObject();
        QStringList names;
        for (const auto &v : modules.value(QStringLiteral("value")).toArray())
            names << v.toString();
        for (const char *m : {"cuda/12.2", "nccl/2.21.5", "pytorch/2.4.1", "pytorch/2.6.0"})
            QVERIFY2(names.contains(QString::fromLatin1(m)), qPrintable(names.join(u' ')));
        QVERIFY2(modules.value(QStringLiteral("source"))
                     .toString()
                     .startsWith(QStringLiteral("module -t spider (on testbed, ")),
                 qPrintable(modules.value(QStringLiteral("source")).toString()));
        QStringList images;
        for (const auto &v :
             profile.value(QStringLiteral("containerImages")).toObject().value(QStringLiteral("value")).toArray())
            images << v.toString();
        QCOMPARE(images, (QStringList{QStringLiteral("/tmp/scalelab-testcluster/containers/pytorch_24.05.sif"),
                                      QStringLiteral("/tmp/scalelab-testcluster/containers/tensorflow_2.15.sif")}));
    }

    // A version the cluster does not have is a warning naming the ones it has;
    // the right one loads in the job and the job completes.
    void wrongModuleFlaggedRightOneRuns()
    {
        QVERIFY(QFile::copy(m_files.filePath(QStringLiteral("testbed-discovered.json")),
                            m_userProfiles.filePath(QStringLiteral("testbed.json"))));
        const QString dir = QStringLiteral("/tmp/scalelab-modules-test-%1").arg(QCoreApplication::applicationPid());
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                       | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
        QFile program(dir + QStringLiteral("/which.py"));
        QVERIFY(program.open(QIODevice::WriteOnly));
        program.write("import os\nopen(os.path.join(os.path.dirname(__file__), 'loaded-' + os.environ['SLURM_JOB_ID']),"
                      " 'w').write(os.environ.get('SCALELAB_TESTBED_PYTORCH', 'none'))\n");
        program.close();
        QFile::setPermissions(program.fileName(),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
        auto writeSpec = [&](const QString &module) {
            const QString path =
                m_files.filePath(QStringLiteral("module-%1.json").arg(QString(module).replace(u'/', u'-')));
            QFile s(path);
            if (s.open(QIODevice::WriteOnly))
                s.write(
                    QStringLiteral(R"({"profile": "testbed", "partition": "gpu", "gpus": 1, "framework": "pytorch-ddp",
  "launcher": "srun", "time": "00:05:00", "account": "project_2001234", "jobName": "module-check", "cpusPerGpu": 1,
  "program": "%1", "environment": {"modules": ["%2"]}, "monitoring": {"gpuSampleSeconds": 0}})")
                        .arg(program.fileName(), module)
                        .toUtf8());
            return path;
        };
        const auto wrong = runCli({QStringLiteral("render"), writeSpec(QStringLiteral("pytorch/2.9"))});
        QVERIFY2((wrong.out + wrong.err).contains(QStringLiteral("`module load pytorch/2.9` fails on"))
                     && (wrong.out + wrong.err).contains(QStringLiteral("pytorch/2.4.1, pytorch/2.6.0")),
                 qPrintable(wrong.out + wrong.err));
        const QString right = writeSpec(QStringLiteral("pytorch/2.4.1"));
        const auto rendered = runCli({QStringLiteral("render"), right});
        QVERIFY2(!(rendered.out + rendered.err).contains(QStringLiteral("module-not-on-cluster"))
                     && !(rendered.out + rendered.err).contains(QStringLiteral("fails on")),
                 qPrintable(rendered.out + rendered.err));
        const auto r = runCli({QStringLiteral("submit"), right});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        static const QRegularExpression re(QStringLiteral("run (\\d+): submitted as job (\\d+)"));
        const auto m = re.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QCOMPARE(finalState(m.captured(1).toLongLong()), QStringLiteral("COMPLETED"));
        QFile loaded(dir + QStringLiteral("/loaded-") + m.captured(2));
        QVERIFY2(loaded.open(QIODevice::ReadOnly), qPrintable(loaded.fileName()));
        QCOMPARE(loaded.readAll(), QByteArray("2.4.1"));   // the module's own variable, set by Lmod in the job
        QFile::remove(m_userProfiles.filePath(QStringLiteral("testbed.json")));
        QDir(dir).removeRecursively();
    }

    void qosBlocksOverLargeJob()
    {
        QVERIFY(QFile::copy(m_files.filePath(QStringLiteral("testbed-discovered.json")),
                            m_userProfiles.filePath(QStringLiteral("testbed.json"))));
        const QString spec = m_files.filePath(QStringLiteral("small3.json"));
        QFile s(spec);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write(R"({"profile": "testbed", "partition": "gpusmall", "gpus": 3, "framework": "pytorch-ddp",
  "time": "00:05:00", "account": "project_2001234", "program": "train.py"})");
        s.close();
        const auto r = runCli({QStringLiteral("render"), spec});
        QFile::remove(m_userProfiles.filePath(QStringLiteral("testbed.json")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2((r.out + r.err)
                     .contains(QStringLiteral("Partition gpusmall allows at most 2 GPUs per job (QOS gpusmall: "
                                              "MaxTRESPerJob gres/gpu=2); 3 requested.")),
                 qPrintable(r.out + r.err));
    }

    void checkShippedAndStale()
    {
        // The shipped profile, fixed, agrees with the cluster.
        auto r = runCli({QStringLiteral("profiles"), QStringLiteral("check"), QStringLiteral("testbed"),
                         QStringLiteral("--connection"), QStringLiteral("testbed")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        // The shipped profile as it was before (gpusmall and gpumedium at 1-12:00:00).
        QFile shipped(QStringLiteral(SCALELAB_TESTS_DIR "/../profiles/testbed.json"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QJsonObject stale = QJsonDocument::fromJson(shipped.readAll()).object();
        QJsonArray parts = stale.value(QStringLiteral("partitions")).toArray();
        for (int i = 0; i < parts.size(); ++i) {
            QJsonObject p = parts[i].toObject();
            if (p.value(QStringLiteral("name")) == QLatin1String("gpusmall")
                || p.value(QStringLiteral("name")) == QLatin1String("gpumedium"))
                p.insert(QStringLiteral("maxTime"), QStringLiteral("1-12:00:00"));
            parts[i] = p;
        }
        stale.insert(QStringLiteral("partitions"), parts);
        QFile out(m_userProfiles.filePath(QStringLiteral("testbed.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(stale).toJson());
        out.close();
        r = runCli(
            {QStringLiteral("profiles"), QStringLiteral("check"), QStringLiteral("testbed"), QStringLiteral("--json")});
        QFile::remove(out.fileName());
        QCOMPARE(r.exitCode, 1);
        const QJsonArray diffs =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("differences")).toArray();
        QCOMPARE(diffs.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject d = diffs[i].toObject();
            QCOMPARE(d.value(QStringLiteral("partition")).toString(),
                     i == 0 ? QStringLiteral("gpusmall") : QStringLiteral("gpumedium"));
            QCOMPARE(d.value(QStringLiteral("field")).toString(), QStringLiteral("maxTime"));
            QCOMPARE(d.value(QStringLiteral("profile")).toString(), QStringLiteral("1-12:00:00"));
            QCOMPARE(d.value(QStringLiteral("cluster")).toString(), QStringLiteral("3-00:00:00"));
        }
    }

    void checkNamesChangedPartition()
    {
        const auto set = [](const char *t) {
            return QProcess::execute(QStringLiteral("scontrol"),
                                     {QStringLiteral("update"), QStringLiteral("PartitionName=gputest"),
                                      QStringLiteral("MaxTime=%1").arg(QLatin1String(t))});
        };
        QCOMPARE(set("00:20:00"), 0);
        const auto r = runCli({QStringLiteral("profiles"), QStringLiteral("check"), QStringLiteral("testbed"),
                               QStringLiteral("--connection"), QStringLiteral("testbed")});
        const int restored = set("00:15:00");
        QCOMPARE(restored, 0);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral(
                     "differs from testbed in 1 place(s):\n  gputest maxTime: profile 00:15:00, cluster 00:20:00")),
                 qPrintable(r.out + r.err));
    }

    void checkCannotConnect()
    {
        const auto r = runCli({QStringLiteral("profiles"), QStringLiteral("check"), QStringLiteral("testbed"),
                               QStringLiteral("--connection"), QStringLiteral("no-such-alias.invalid")});
        QCOMPARE(r.exitCode, 2);
    }

private:
    scalelab::test::TestClusterEnv m_env;
    QTemporaryDir m_data;
    QTemporaryDir m_files;
    QTemporaryDir m_userProfiles;
};

QTEST_GUILESS_MAIN(TestDiscoverCluster)
#include "tst_discover_cluster.moc"
