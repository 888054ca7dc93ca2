// SPDX-License-Identifier: GPL-3.0-or-later
// Polling cost against the real loopback cluster (tests/cluster/testcluster up).
// (a) N poll cycles (SlurmClient::pollOnce) over one kept SshSession vs N
//     `ssh -F $SCALELAB_SSH_CONFIG <alias> squeue --me` with a fresh login each;
//     prints ms per cycle and the ratio.
// (b) slurmctld RPCs caused by one poll cycle with 10 and with 200 tracked
//     (held, so pending) jobs, read from `sdiag` (run locally as root; `sdiag -r`
//     resets the counters before each cycle); prints both and "equal: yes/no".
// (c) the live watch (LiveWatch::cycle: the new bytes of every running run's GPU
//     samples and output) over 5 and over 30 running jobs whose files grow by
//     10 s of 4-GPU samples and output per cycle, then after a backlog of 2 MB
//     per file: remote commands and bytes per cycle. The remote command runs in a
//     local `sh` over a folder that stands for the cluster's (LocalShellExecutor),
//     so (c) needs no cluster; the poll's own squeue/sacct are (b)'s. Last line:
//     remote commands per cycle, 30 jobs against 5 (`ratio=`, 1.00 = constant).
// Not a pass/fail test. Without the cluster (a) and (b) say so; (c) always runs.
// Usage: bench_poll [ALIAS] (default testbed-zsh: a user other tests rarely use,
// so its per-user RPC count is not mixed with theirs).

// Benchmarks get SCALELAB_TEST_DATA_DIR (tests/data) but not SCALELAB_TESTS_DIR.
#ifndef SCALELAB_TESTS_DIR
#define SCALELAB_TESTS_DIR SCALELAB_TEST_DATA_DIR "/.."
#endif
#include "NoQuestions.h"
#include "../support/LocalShellExecutor.h"
#include "../support/TestClusterEnv.h"

#include "core/store/RunStore.h"
#include "core/client/LiveWatch.h"
#include "core/client/SlurmClient.h"
#include "core/ssh/SshSession.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QElapsedTimer>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>

using namespace scalelab;

using scalelab::test::NoQuestions;

namespace {

void say(const QString &text)
{
    std::printf("%s\n", qPrintable(text));
    std::fflush(stdout);
}

struct Rpcs {
    QMap<QString, int> byType;
    QMap<QString, int> byUser;
    QString error;
};

Rpcs sdiag(bool reset)
{
    Rpcs r;
    QProcess p;
    p.start(QStringLiteral("sdiag"), reset ? QStringList{QStringLiteral("-r")} : QStringList{});
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        r.error = QStringLiteral("sdiag failed: %1").arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed());
        return r;
    }
    if (reset)
        return r;
    static const QRegularExpression line(QStringLiteral("^\\s+(\\S+)\\s+\\(\\s*\\d+\\)\\s+count:(\\d+)"));
    QMap<QString, int> *section = nullptr;
    for (const QString &l : QString::fromLocal8Bit(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        if (l.startsWith(QLatin1String("Remote Procedure Call statistics by message type")))
            section = &r.byType;
        else if (l.startsWith(QLatin1String("Remote Procedure Call statistics by user")))
            section = &r.byUser;
        else if (!l.startsWith(QLatin1Char('\t')) && !l.trimmed().isEmpty())
            section = nullptr;
        else if (section)
            if (const auto m = line.match(l); m.hasMatch())
                section->insert(m.captured(1), m.captured(2).toInt());
    }
    return r;
}

QString typesText(const QMap<QString, int> &types)
{
    QStringList parts;
    for (auto it = types.cbegin(); it != types.cend(); ++it)
        if (it.key() != QLatin1String("REQUEST_STATS_INFO"))   // sdiag's own
            parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
    return parts.join(QLatin1String(", "));
}

class Bench {
public:
    Bench(const test::TestClusterEnv &env, QString alias)
        : m_env(env)
        , m_alias(std::move(alias))
        , m_store(m_data.path())
    {
        SshConnectionSettings s;
        s.alias = m_alias;
        s.configPath = env.sshConfig;
        m_ssh = std::make_unique<SshSession>(s, &m_callbacks);
        m_name = QStringLiteral("bench-poll-%1").arg(QCoreApplication::applicationPid());
    }
    ~Bench()
    {
        // Cancel every held job of this run, even after an error.
        if (m_ssh && m_ssh->isConnected() && m_submitted > 0) {
            const RemoteResult r = m_ssh->run({QStringLiteral("scancel"), QStringLiteral("--name=") + m_name});
            say(QStringLiteral("cancelled %1 held job(s): %2")
                    .arg(m_submitted)
                    .arg(r.ok() ? QStringLiteral("ok") : QString::fromUtf8(r.err)));
        }
    }

    QString setUp()
    {
        if (QString e = m_ssh->connectToHost().errorText(); !e.isEmpty())
            return e;
        if (QString e = m_store.open().errorText(); !e.isEmpty())
            return e;
        m_client = std::make_unique<SlurmClient>(*m_ssh, m_store, m_alias);
        return {};
    }

    // Submits `n` held jobs (they stay PENDING) in one remote command and tracks them in the store.
    QString track(int n)
    {
        const QString loop = QStringLiteral("for i in $(seq %1); do sbatch --parsable --hold --account=project_2001234 "
                                            "--partition=gputest --time=00:05:00 --mem=100M --job-name=%2 --wrap=true "
                                            "|| exit 1; done")
                                 .arg(n)
                                 .arg(m_name);
        const RemoteResult r = m_ssh->run({QStringLiteral("sh"), QStringLiteral("-c"), loop}, 300000);
        if (!r.ok())
            return QStringLiteral("sbatch --hold failed: %1 %2").arg(r.transportError, QString::fromUtf8(r.err));
        const QStringList ids = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        m_submitted += int(ids.size());
        for (const QString &line : ids) {
            RunRecord rec;
            rec.profile = QStringLiteral("testbed");
            rec.clusterAlias = m_alias;
            rec.partition = QStringLiteral("gputest");
            rec.gpus = 1;
            rec.script = QStringLiteral("#!/bin/bash\ntrue\n");
            const auto c = m_store.createRun(rec);
            if (!c.ok())
                return c.errorText();
            if (QString e =
                    m_store.markSubmitted(c.value().id, line.section(QLatin1Char(';'), 0, 0).trimmed()).errorText();
                !e.isEmpty())
                return e;
        }
        return {};
    }

    int tracked() { return int(m_store.activeRuns(m_alias).value().size()); }

    // (a)
    void timing(int cycles)
    {
        m_client->pollOnce();   // warm-up
        QElapsedTimer t;
        t.start();
        int failures = 0;
        for (int i = 0; i < cycles; ++i)
            failures += m_client->pollOnce().ok() ? 0 : 1;
        const double kept = double(t.elapsed()) / cycles;

        t.restart();
        int sshFailures = 0;
        for (int i = 0; i < cycles; ++i) {
            QProcess p;
            p.setStandardInputFile(QProcess::nullDevice());
            p.start(QStringLiteral("ssh"),
                    {QStringLiteral("-F"), m_env.sshConfig, m_alias, QStringLiteral("squeue"), QStringLiteral("--me")});
            if (!p.waitForFinished(60000) || p.exitCode() != 0)
                ++sshFailures;
        }
        const double fresh = double(t.elapsed()) / cycles;
        say(QStringLiteral("(a) %1 cycles, %2 tracked job(s) on %3").arg(cycles).arg(tracked()).arg(m_alias));
        say(QStringLiteral("poll over kept session: %1 ms/cycle; fresh ssh squeue: %2 ms/cycle; ratio Y/X %3")
                .arg(kept, 0, 'f', 1)
                .arg(fresh, 0, 'f', 1)
                .arg(kept > 0 ? fresh / kept : 0.0, 0, 'f', 2));
        if (failures || sshFailures)
            say(QStringLiteral("    (failed cycles: kept %1, fresh %2)").arg(failures).arg(sshFailures));
    }

    // (b) RPCs of one poll cycle, minimum over `repeats` cycles (other clients add noise, never remove it).
    struct CycleRpcs {
        int user = -1;
        QString types;
        int squeue = 0;
        int sacct = 0;
        QString error;
    };
    CycleRpcs rpcsPerCycle(int repeats)
    {
        CycleRpcs best;
        const QString user = m_ssh->hostConfig().user;
        for (int i = 0; i < repeats; ++i) {
            if (Rpcs reset = sdiag(true); !reset.error.isEmpty())
                return CycleRpcs{-1, {}, 0, 0, reset.error};
            const PollResult p = m_client->pollOnce();
            const Rpcs after = sdiag(false);
            if (!after.error.isEmpty())
                return CycleRpcs{-1, {}, 0, 0, after.error};
            if (!p.ok())
                return CycleRpcs{-1, {}, 0, 0, QStringLiteral("poll failed: %1 %2").arg(p.message, p.transportError)};
            const int n = after.byUser.value(user);
            if (best.user < 0 || n < best.user)
                best = CycleRpcs{n, typesText(after.byType), p.squeueCalls, p.sacctCalls, {}};
            QThread::msleep(300);
        }
        return best;
    }

private:
    const test::TestClusterEnv &m_env;
    QString m_alias;
    QTemporaryDir m_data;
    RunStore m_store;
    NoQuestions m_callbacks;
    std::unique_ptr<SshSession> m_ssh;
    std::unique_ptr<SlurmClient> m_client;
    QString m_name;
    int m_submitted = 0;
};

// (c): `jobs` running runs in a store, their files in a local folder.
class LiveBench {
public:
    explicit LiveBench(int jobs)
        : m_store(m_data.path())
        , m_exec(m_remote.path())
    {
        (void)m_store.open();
        for (int i = 0; i < jobs; ++i) {
            RunRecord r;
            r.clusterAlias = QStringLiteral("bench");
            r.gpus = 4;
            r.nodes = 1;
            r.script = QStringLiteral("#!/bin/bash\n");
            const qint64 id = m_store.createRun(r).value().id;
            const QString dir = m_remote.path() + QStringLiteral("/run%1").arg(i);
            QDir().mkpath(dir);
            (void)m_store.setRemoteDir(id, dir);
            (void)m_store.markSubmitted(id, QString::number(1000 + i));
            (void)m_store.updateState(id, JobState::Running, {});
            m_dirs << dir;
        }
    }

    // Every job's sample file and output grow by `seconds` of a 4-GPU job (or `pad` bytes each).
    void grow(int seconds, qint64 pad = 0)
    {
        for (int i = 0; i < m_dirs.size(); ++i) {
            QByteArray csv = m_second == 0 ? QByteArray("index, timestamp, utilization.gpu [%], memory.used [MiB], "
                                                        "memory.total [MiB], power.draw [W]\n")
                                           : QByteArray();
            QByteArray out;
            for (int s = m_second; s < m_second + seconds; ++s) {
                for (int g = 0; g < 4; ++g)
                    csv += QStringLiteral("%1, 2026/11/27 10:%2:%3.000, 87 %, 30994 MiB, 32480 MiB, 260.1 W\n")
                               .arg(g)
                               .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
                               .arg(s % 60, 2, 10, QLatin1Char('0'))
                               .toUtf8();
                out += QStringLiteral("step %1 loss 2.31 samples_per_s 812.5\n").arg(s).toUtf8();
            }
            if (pad > 0) {
                csv = QByteArray(pad, '#');
                out = QByteArray(pad, '.');
            }
            append(m_dirs[i] + QStringLiteral("/scalelab-gpu-%1-node1.csv").arg(1000 + i), csv);
            append(m_dirs[i] + QStringLiteral("/scalelab-%1.out").arg(1000 + i), out);
        }
        m_second += seconds;
    }

    struct Cycle {
        int commands = 0;
        qint64 bytes = 0;
        double ms = 0;
    };
    Cycle cycle()
    {
        const int before = m_exec.commands;
        QElapsedTimer t;
        t.start();
        const LiveCycleReport r =
            m_live.cycle(m_exec, m_store, m_store.activeRuns(QStringLiteral("bench")).value(), {}, m_second);
        if (!r.errors.isEmpty())
            say(QStringLiteral("    live watch: %1").arg(r.errors.join(u' ')));
        return Cycle{m_exec.commands - before, r.bytes, double(t.nsecsElapsed()) / 1e6};
    }

private:
    static void append(const QString &path, const QByteArray &bytes)
    {
        QFile f(path);
        if (f.open(QIODevice::Append))
            f.write(bytes);
    }

    QTemporaryDir m_data;
    QTemporaryDir m_remote;
    RunStore m_store;
    test::LocalShellExecutor m_exec;
    LiveWatch m_live;
    QStringList m_dirs;
    int m_second = 0;
};

// (c): the figures for `jobs` running jobs; the remote commands per cycle.
double liveWatch(int jobs)
{
    LiveBench b(jobs);
    LiveBench::Cycle steady;
    const int cycles = 5;
    for (int i = 0; i < cycles; ++i) {
        b.grow(10);
        const LiveBench::Cycle c = b.cycle();
        steady.commands += c.commands;
        steady.bytes += c.bytes;
        steady.ms += c.ms;
    }
    b.grow(0, 2 * 1024 * 1024);
    const LiveBench::Cycle backlog = b.cycle();
    say(QStringLiteral("    %1 running jobs: %2 remote command(s)/cycle, %3 bytes/cycle, %4 ms/cycle; after a 2 MB "
                       "backlog per file: %5 command(s), %6 bytes (cap %7 bytes per cycle)")
            .arg(jobs)
            .arg(double(steady.commands) / cycles, 0, 'f', 2)
            .arg(steady.bytes / cycles)
            .arg(steady.ms / cycles, 0, 'f', 1)
            .arg(backlog.commands)
            .arg(backlog.bytes)
            .arg(LiveWatch::kMaxBytesPerCycle));
    return double(steady.commands) / cycles;
}

void liveWatchFigures()
{
    say(QStringLiteral("(c) live watch, files growing by 10 s of a 4-GPU job per cycle (5 cycles):"));
    const double five = liveWatch(5);
    const double thirty = liveWatch(30);
    say(QStringLiteral("remote commands per cycle, 30 vs 5 running jobs: ratio=%1")
            .arg(five > 0 ? thirty / five : 0.0, 0, 'f', 2));
}

int clusterFigures(int argc, char **argv);

}   // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int rc = clusterFigures(argc, argv);
    liveWatchFigures();
    return rc;
}

namespace {

int clusterFigures(int argc, char **argv)
{
    const QString alias = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("testbed-zsh");
    const test::TestClusterEnv env = test::TestClusterEnv::load();
    if (!env.ok()) {
        say(QStringLiteral("bench_poll: the test cluster is not up, nothing measured (%1)").arg(env.error));
        return 0;
    }
    Bench bench(env, alias);
    if (QString e = bench.setUp(); !e.isEmpty()) {
        say(QStringLiteral("bench_poll: cannot connect to %1: %2").arg(alias, e));
        return 0;
    }
    if (QString e = bench.track(3); !e.isEmpty()) {
        say(QStringLiteral("bench_poll: %1").arg(e));
        return 0;
    }
    bench.timing(10);

    if (QString e = bench.track(7); !e.isEmpty()) {
        say(QStringLiteral("bench_poll: %1").arg(e));
        return 0;
    }
    const auto ten = bench.rpcsPerCycle(3);
    const int tenTracked = bench.tracked();
    if (QString e = bench.track(190); !e.isEmpty()) {
        say(QStringLiteral("bench_poll: %1").arg(e));
        return 0;
    }
    const auto many = bench.rpcsPerCycle(3);
    const int manyTracked = bench.tracked();
    if (!ten.error.isEmpty() || !many.error.isEmpty()) {
        say(QStringLiteral("(b) not measured: %1").arg(ten.error.isEmpty() ? many.error : ten.error));
        return 0;
    }
    say(QStringLiteral(
            "(b) slurmctld RPCs of one poll cycle (alias %1, by user; minimum of 3 cycles; sdiag -r before each):")
            .arg(alias));
    say(QStringLiteral("    %1 tracked jobs: %2 RPC(s) [%3]; squeue calls %4, sacct calls %5")
            .arg(tenTracked)
            .arg(ten.user)
            .arg(ten.types)
            .arg(ten.squeue)
            .arg(ten.sacct));
    say(QStringLiteral("    %1 tracked jobs: %2 RPC(s) [%3]; squeue calls %4, sacct calls %5")
            .arg(manyTracked)
            .arg(many.user)
            .arg(many.types)
            .arg(many.squeue)
            .arg(many.sacct));
    say(QStringLiteral("equal: %1").arg(ten.user == many.user ? QStringLiteral("yes") : QStringLiteral("no")));
    return 0;
}

}   // namespace
