// SPDX-License-Identifier: GPL-3.0-or-later
// What differs between Slurm 22.05 (host packages) and 24.11 (the chroot
// cluster, SCALELAB_TESTCLUSTER_SLURM=24.11), checked on the real cluster this
// test runs against (ctest runs it on both: labels slurm22 and slurm24):
//   - `scontrol show job`: TRES= (22.05) vs ReqTRES=/AllocTRES= (24.11),
//     TresPerNode gres:gpu:N vs gres/gpu:N; squeue %b likewise;
//   - `squeue -O TresPerNode` is refused by 24.11, accepted by 22.05 (ScaleLab never asks for it);
// and that the researcher's login-shell rc files (SQUEUE_FORMAT,
// SQUEUE_FORMAT2, SACCT_FORMAT, SINFO_FORMAT, SLURM_TIME_FORMAT, SQUEUE_STATES,
// SLURM_CONF) cannot change what ScaleLab parses.
#include "ClusterClient.h"
#include "ProfileFixtures.h"
#include "core/compose/SbatchRenderer.h"
#include "core/slurm/ScontrolJobParser.h"
#include "core/slurm/SqueueParser.h"
#include "core/slurm/TresString.h"

#include <QRegularExpression>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalelab;

class TestSlurmVersions : public QObject {
    Q_OBJECT

    QTemporaryDir m_data;
    test::ClusterClient m_cluster;
    QByteArray m_bashrc;   // the researcher's .bashrc before this test
    bool m_bashrcChanged = false;

    bool is24() const { return m_cluster.env.slurmSeries == QLatin1String("24.11"); }

    RemoteResult sh(const QString &body)
    {
        return m_cluster.ssh->run({QStringLiteral("sh"), QStringLiteral("-c"), body});
    }

    void restoreBashrc()
    {
        if (!m_bashrcChanged)
            return;
        QCOMPARE(m_cluster.ssh->upload(QStringLiteral("/home/researcher/.bashrc"), m_bashrc, 0644).errorText(),
                 QString());
        sh(QStringLiteral("rm -f /home/researcher/scalelab-rc-slurm.conf"));
        m_bashrcChanged = false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        QCOMPARE(m_cluster.start(m_data.path()), QString());
        const RemoteResult v = m_cluster.ssh->run({QStringLiteral("sbatch"), QStringLiteral("--version")});
        QCOMPARE(QString::fromUtf8(v.out).trimmed(),
                 QStringLiteral("slurm-wlm ") + m_cluster.env.expectedSlurmVersion());
    }

    void cleanupTestCase() { restoreBashrc(); }

    void gpuRequestFormsOfThisVersion()
    {
        const RemoteResult sub =
            m_cluster.ssh->run({QStringLiteral("sbatch"), QStringLiteral("--parsable"), QStringLiteral("--gres=gpu:2"),
                                QStringLiteral("--time=2"), QStringLiteral("--wrap=sleep 30")});
        QVERIFY2(sub.ok(), sub.err.constData());
        const QString id = QString::fromUtf8(sub.out).trimmed();
        auto cancel = qScopeGuard([&] { m_cluster.ssh->run({QStringLiteral("scancel"), id}); });

        // Running, so that the allocation is known (pending: only the request).
        RemoteResult sc;
        ScontrolJobParseResult parsed;
        for (int i = 0; i < 60; ++i) {
            sc = m_cluster.ssh->run(SlurmClient::queryArgv(
                {QStringLiteral("scontrol"), QStringLiteral("show"), QStringLiteral("job"), QStringLiteral("-o"), id}));
            QVERIFY2(sc.ok(), sc.err.constData());
            parsed = ScontrolJobParser::parse(sc.out);
            if (parsed.jobs.size() == 1 && parsed.jobs.first().state() == JobState::Running)
                break;
            if (parsed.jobs.size() == 1 && parsed.jobs.first().state() == JobState::Pending) {
                QCOMPARE(parsed.jobs.first().gpus().gpus, 2);
                QCOMPARE(parsed.jobs.first().gpus().source, GpuCountSource::ReqTres);
            }
            QThread::msleep(500);
        }
        QCOMPARE(parsed.diagnostics.size(), 0);
        QCOMPARE(parsed.jobs.size(), 1);
        const ScontrolJob &job = parsed.jobs.first();
        QCOMPARE(job.jobId(), id);
        QCOMPARE(job.state(), JobState::Running);
        if (is24()) {
            QVERIFY2(job.fields.contains("ReqTRES") && job.fields.contains("AllocTRES") && !job.fields.contains("TRES"),
                     sc.out.constData());
            QCOMPARE(job.value("TresPerNode"), QStringLiteral("gres/gpu:2"));
        } else {
            QVERIFY2(job.fields.contains("TRES") && !job.fields.contains("AllocTRES"), sc.out.constData());
            QCOMPARE(job.value("TresPerNode"), QStringLiteral("gres:gpu:2"));
        }
        // Either way: 2 GPUs, from the allocation (gres/gpu is accounted here).
        QCOMPARE(job.gpus().gpus, 2);
        QCOMPARE(job.gpus().source, GpuCountSource::AllocTres);

        // squeue %b in ScaleLab's own layout.
        const RemoteResult sq = m_cluster.ssh->run(
            SlurmClient::queryArgv({QStringLiteral("squeue"), QStringLiteral("--noheader"),
                                    QStringLiteral("--jobs=") + id, SqueueParser::formatArgument()}));
        const auto rows = SqueueParser().parse(sq.out, sq.err);
        QCOMPARE(rows.diagnostics.size(), 0);
        QCOMPARE(rows.rows.size(), 1);
        QCOMPARE(rows.rows.first().tresPerNode, is24() ? QStringLiteral("gres/gpu:2") : QStringLiteral("gres:gpu:2"));
        QCOMPARE(TresString::gpusInGresRequest(rows.rows.first().tresPerNode), std::optional<int>(2));

        // -O TresPerNode: fine on 22.05, refused by 24.11.
        const RemoteResult o =
            m_cluster.ssh->run({QStringLiteral("squeue"), QStringLiteral("--noheader"), QStringLiteral("-O"),
                                QStringLiteral("TresPerNode"), QStringLiteral("--jobs=") + id});
        if (is24()) {
            const QByteArray all = o.out + o.err;
            QVERIFY2(o.exitCode != 0 || all.contains("Invalid"), all.constData());
            QVERIFY2(!o.out.contains("gpu:2"), all.constData());
        } else {
            QCOMPARE(o.exitCode, 0);   // accepted (it prints an empty column for this job on 22.05.8)
        }
    }

    void loginShellEnvironmentCannotChangeParsing()
    {
        const RemoteFileChunk rc = m_cluster.ssh->download(QStringLiteral("/home/researcher/.bashrc"));
        QVERIFY2(rc.error.isEmpty() || rc.missing, qPrintable(rc.error));
        m_bashrc = rc.data;
        // Before Debian's "not interactive: return" line, so ssh commands see them.
        const QByteArray hostile = "export SLURM_TIME_FORMAT=%s SQUEUE_FORMAT='%i' SQUEUE_FORMAT2='jobid:7' "
                                   "SACCT_FORMAT=JobID SINFO_FORMAT='%P' SQUEUE_STATES=PD "
                                   "SLURM_CONF=/home/researcher/scalelab-rc-slurm.conf\n";
        QCOMPARE(sh(QStringLiteral("cp \"$SLURM_CONF\" /home/researcher/scalelab-rc-slurm.conf")).exitCode, 0);
        QCOMPARE(
            m_cluster.ssh->upload(QStringLiteral("/home/researcher/.bashrc"), hostile + m_bashrc, 0644).errorText(),
            QString());
        m_bashrcChanged = true;

        // The rc file is in force for commands run over ssh.
        const RemoteResult seen =
            sh(QStringLiteral("echo \"$SQUEUE_FORMAT|$SACCT_FORMAT|$SLURM_TIME_FORMAT|$SLURM_CONF\""));
        QCOMPARE(QString::fromUtf8(seen.out).trimmed(),
                 QStringLiteral("%i|JobID|%s|/home/researcher/scalelab-rc-slurm.conf"));
        const RemoteResult plain = sh(QStringLiteral("sacct -X -n -P -S now-1hours | head -n 1"));
        QVERIFY2(!plain.out.contains('|'), plain.out.constData());   // SACCT_FORMAT=JobID rules plain sacct

        // A ScaleLab run goes from submit to COMPLETED with its accounting read.
        JobSpec s = test::testbedSpec(QStringLiteral("rc-env"), 1, QStringLiteral("/bin/true"));
        RunRecord r;
        r.profile = s.profile;
        r.clusterAlias = QStringLiteral("testbed");
        r.partition = s.partition;
        r.gpus = s.gpus;
        r.framework = frameworkId(s.framework);
        r.script = renderSbatch(s, test::repoProfile("testbed"));
        const auto created = m_cluster.store->createRun(r);
        QVERIFY2(created.ok(), qPrintable(created.errorText()));
        const qint64 id = created.value().id;
        const SubmitOutcome o = m_cluster.client->submit(id);
        QVERIFY2(o.kind == SubmitOutcome::Kind::Submitted, qPrintable(o.message));
        Diagnostics seenDiagnostics;
        const bool done = m_cluster.pollUntil([&] { return m_cluster.store->run(id).value().isTerminal(); }, 180);
        QVERIFY(done);
        QCOMPARE(m_cluster.store->run(id).value().state, JobState::Completed);
        const PollResult again = m_cluster.client->pollOnce();
        seenDiagnostics << again.diagnostics;
        QCOMPARE(seenDiagnostics.size(), 0);
        const auto acct = m_cluster.store->accounting(id);
        QVERIFY2(acct.ok() && acct.value(), qPrintable(acct.errorText()));
        static const QRegularExpression iso(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d$"));
        QVERIFY2(iso.match(acct.value()->submit).hasMatch(), qPrintable(acct.value()->submit));   // not %s epochs
        QVERIFY2(iso.match(acct.value()->start).hasMatch(), qPrintable(acct.value()->start));
        QCOMPARE(acct.value()->allocatedGpus(), 1);
        QCOMPARE(acct.value()->jobId, m_cluster.store->run(id).value().jobId);
        restoreBashrc();
    }
};

QTEST_GUILESS_MAIN(TestSlurmVersions)
#include "tst_slurm_versions.moc"
