// SPDX-License-Identifier: GPL-3.0-or-later
// Project sync against the loopback test cluster's sshd (tests/cluster/testcluster up):
// a folder of 1,000 files / 200 MB (random bytes: nothing compresses).
// (1) first sync: snapshot (walk + SHA-256) and ProjectSync::send (which
//     objects exist, tar packs checked by sha256sum, the run folder's hard
//     links checked by tar) over one kept SshSession;
// (2) baseline: `rsync -a` of the same folder over `ssh -F $SCALELAB_SSH_CONFIG`
//     to the same sshd (a fresh login included, as a researcher would run it);
// (3) second sync after one file changed: seconds, file bytes and all bytes sent.
// Goals (issue 27): ratio = (1) / (2) <= 1.5; (3) under 1 s, sending about that
// file plus the manifest. `ratio=` last. Not a pass/fail test; without the
// cluster it says so and exits 0. Usage: bench_sync [ALIAS] (default testbed).
#ifndef SCALELAB_TESTS_DIR
#define SCALELAB_TESTS_DIR SCALELAB_TEST_DATA_DIR "/.."
#endif
#include "NoQuestions.h"
#include "../support/TestClusterEnv.h"

#include "core/client/ProjectSync.h"
#include "core/project/ProjectSnapshotter.h"
#include "core/ssh/SshSession.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <cstdio>

using namespace scalelab;

namespace {

void say(const QString &text)
{
    std::printf("%s\n", qPrintable(text));
    std::fflush(stdout);
}

constexpr int kFiles = 1000;
constexpr qint64 kTotal = 200LL * 1000 * 1000;

void makeFolder(const QString &dir)
{
    QRandomGenerator rng(27);
    for (int i = 0; i < kFiles; ++i) {
        // Sizes from 20 kB to 380 kB, 200 MB in all.
        const qint64 size = kTotal / kFiles + (i % 2 ? 1 : -1) * (i % 19) * 9000;
        QByteArray data(int(size), Qt::Uninitialized);
        rng.fillRange(reinterpret_cast<quint32 *>(data.data()), int(size / 4));
        const QString path = dir + QStringLiteral("/pkg%1/mod%2.bin").arg(i % 20).arg(i);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(data);
    }
}

struct Timed {
    double seconds = 0;
    SyncReport report;
    QString error;
};

Timed sync(SshSession &ssh, const QString &folder, const QString &root, const QString &run)
{
    QElapsedTimer t;
    t.start();
    auto snapshot = ProjectSnapshotter::take(folder);
    if (!snapshot)
        return {0, {}, snapshot.errorText()};
    ProjectSync sync(ssh);
    const auto sent = sync.send(*snapshot, root, root + QStringLiteral("/runs/") + run);
    if (!sent)
        return {0, {}, sent.errorText()};
    return {double(t.elapsed()) / 1000.0, *sent, {}};
}

QString loadText()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2) : QString();
}

}   // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString alias = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("testbed");
    const test::TestClusterEnv env = test::TestClusterEnv::load();
    if (!env.ok()) {
        say(QStringLiteral("bench_sync: no test cluster (%1); nothing measured").arg(env.error));
        return 0;
    }
    test::NoQuestions callbacks;
    SshConnectionSettings s;
    s.alias = alias;
    s.configPath = env.sshConfig;
    SshSession ssh(s, &callbacks);
    if (auto e = ssh.connectToHost(); !e) {
        say(QStringLiteral("bench_sync: cannot connect to %1: %2").arg(alias, e.errorText()));
        return 0;
    }
    QTemporaryDir local;
    makeFolder(local.path());
    const QString tag =
        QStringLiteral("%1-%2").arg(QCoreApplication::applicationPid()).arg(QDateTime::currentSecsSinceEpoch());
    const QString root = ssh.homeDirectory() + QStringLiteral("/bench-sync-") + tag;
    const QString rsyncTarget = QStringLiteral("bench-rsync-") + tag;
    say(QStringLiteral("bench_sync: %1 files, %2 MB, alias %3, load %4")
            .arg(kFiles)
            .arg(kTotal / 1000000)
            .arg(alias, loadText()));

    const Timed first = sync(ssh, local.path(), root, QStringLiteral("r1"));
    if (!first.error.isEmpty()) {
        say(QStringLiteral("bench_sync: first sync failed: %1").arg(first.error));
        return 1;
    }
    say(QStringLiteral("(1) first sync: %1 s, %2 files, %3 MB of files, %4 MB sent, %5 commands")
            .arg(first.seconds, 0, 'f', 2)
            .arg(first.report.progress.filesSent)
            .arg(double(first.report.progress.bytesSent) / 1e6, 0, 'f', 1)
            .arg(double(first.report.wireBytes) / 1e6, 0, 'f', 1)
            .arg(first.report.commands));

    QElapsedTimer t;
    t.start();
    QProcess rsync;
    rsync.start(QStringLiteral("rsync"),
                {QStringLiteral("-a"), QStringLiteral("-e"), QStringLiteral("ssh -F ") + env.sshConfig,
                 local.path() + QLatin1Char('/'), alias + QLatin1Char(':') + rsyncTarget + QLatin1Char('/')});
    const bool rsyncOk = rsync.waitForFinished(600000) && rsync.exitCode() == 0;
    const double rsyncSeconds = double(t.elapsed()) / 1000.0;
    say(QStringLiteral("(2) rsync -a over ssh: %1 s%2")
            .arg(rsyncSeconds, 0, 'f', 2)
            .arg(rsyncOk ? QString()
                         : QStringLiteral(" (failed: %1)")
                               .arg(QString::fromLocal8Bit(rsync.readAllStandardError()).trimmed())));

    // One file changed.
    QFile changed(local.path() + QStringLiteral("/pkg3/mod3.bin"));
    if (changed.open(QIODevice::ReadWrite)) {
        changed.write("a researcher's edit");
        changed.close();
    }
    const Timed second = sync(ssh, local.path(), root, QStringLiteral("r2"));
    const qint64 manifestBytes = ProjectSnapshotter::take(local.path())->manifest.text().size();
    say(QStringLiteral("(3) second sync, one file changed: %1 s, %2 file(s), %3 kB of files, %4 kB sent "
                       "(manifest %5 kB)%6")
            .arg(second.seconds, 0, 'f', 3)
            .arg(second.report.progress.filesSent)
            .arg(double(second.report.progress.bytesSent) / 1e3, 0, 'f', 1)
            .arg(double(second.report.wireBytes) / 1e3, 0, 'f', 1)
            .arg(double(manifestBytes) / 1e3, 0, 'f', 1)
            .arg(second.error.isEmpty() ? QString() : QStringLiteral(" failed: ") + second.error));

    ssh.run({QStringLiteral("chmod"), QStringLiteral("-R"), QStringLiteral("u+w"), QStringLiteral("--"), root});
    ssh.run({QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), root, rsyncTarget});
    say(QStringLiteral("load after: %1").arg(loadText()));
    say(QStringLiteral("ratio=%1").arg(rsyncOk && rsyncSeconds > 0 ? first.seconds / rsyncSeconds : 0.0, 0, 'f', 2));
    return 0;
}
