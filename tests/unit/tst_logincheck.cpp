// SPDX-License-Identifier: GPL-3.0-or-later
// LoginCheck: the one connection test of "Add your cluster" and Connections,
// against a scripted login node.
#include "FakeRemoteExecutor.h"
#include "core/base/RemoteValidation.h"
#include "core/client/LoginCheck.h"

#include <QtTest>

using namespace scalelab;

namespace {

RemoteResult answer(int exitCode, const QByteArray &out, const QByteArray &err = {})
{
    RemoteResult r;
    r.exitCode = exitCode;
    r.out = out;
    r.err = err;
    return r;
}

// A login node of a site: Slurm 23.02, the researcher "ada" with two accounts.
struct LoginNode {
    QByteArray version = "slurm 23.02.7\n";
    QByteArray user = "ada\n";
    int sacctmgrExit = 0;
    QByteArray assoc = "Account|Partition\nphys-gpu|gpu\nphys-gpu|gpu-long\nteaching|\n";
    QString transportError;

    RemoteResult operator()(const QStringList &argv) const
    {
        if (!transportError.isEmpty()) {
            RemoteResult r;
            r.transportError = transportError;
            return r;
        }
        if (argv.value(0) == QLatin1String("sbatch"))
            return answer(0, version);
        if (argv.value(0) == QLatin1String("id"))
            return answer(0, user);
        if (argv.value(0) == QLatin1String("sacctmgr"))
            return answer(sacctmgrExit, assoc, sacctmgrExit ? "sacctmgr: error: slurmdbd down\n" : "");
        return answer(127, {}, "command not found\n");
    }
};

}   // namespace

class TstLoginCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void slurmScopeRunsOneCommand()
    {
        FakeRemoteExecutor ex;
        ex.onRun = LoginNode{};
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Slurm);
        QVERIFY2(facts, qPrintable(facts.errorText()));
        QCOMPARE(facts->slurm, QStringLiteral("slurm 23.02.7"));
        QCOMPARE(ex.calls.size(), 1);
    }

    void accountsOfTheResearcher()
    {
        FakeRemoteExecutor ex;
        ex.onRun = LoginNode{};
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Accounts);
        QVERIFY2(facts, qPrintable(facts.errorText()));
        QCOMPARE(facts->user, QStringLiteral("ada"));
        QCOMPARE(facts->accounts, (QList<AccountPartitions>{
                                      {QStringLiteral("phys-gpu"), {QStringLiteral("gpu"), QStringLiteral("gpu-long")}},
                                      {QStringLiteral("teaching"), {}}}));
        QVERIFY(ex.calls.last().argv.contains(QStringLiteral("user=ada")));
    }

    void transportFailureStopsAtOnce()
    {
        FakeRemoteExecutor ex;
        LoginNode node;
        node.transportError = QStringLiteral("connection refused by 127.0.0.1:22");
        ex.onRun = node;
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Accounts);
        QVERIFY(facts.failedWith(ErrorCode::Transport));
        QCOMPARE(facts.errorText(), node.transportError);
        QCOMPARE(ex.calls.size(), 1);
    }

    void notASlurmLoginNode()
    {
        FakeRemoteExecutor ex;   // every command: exit 127
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Slurm);
        QVERIFY(facts.failedWith(ErrorCode::RemoteFailed));
        QVERIFY2(facts.errorText().startsWith(QLatin1String("sbatch --version failed (is this a Slurm login node?)")),
                 qPrintable(facts.errorText()));
        LoginNode other;
        other.version = "Usage: sbatch [OPTIONS]\n";   // exit 0, but not Slurm's answer
        ex.onRun = other;
        QVERIFY(LoginCheck::run(ex, LoginCheck::Scope::Slurm).failedWith(ErrorCode::RemoteFailed));
    }

    void oddUserNameNeverReachesSacctmgr()
    {
        FakeRemoteExecutor ex;
        LoginNode node;
        node.user = "ada; touch /tmp/owned\n";
        ex.onRun = node;
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Accounts);
        QVERIFY(facts.failedWith(ErrorCode::RemoteFailed));
        QVERIFY2(facts.errorText().contains(QLatin1String("id -un")), qPrintable(facts.errorText()));
        for (const auto &call : ex.calls)
            QVERIFY(call.argv.value(0) != QLatin1String("sacctmgr"));
    }

    void sacctmgrFailureIsNamed()
    {
        FakeRemoteExecutor ex;
        LoginNode node;
        node.sacctmgrExit = 1;
        ex.onRun = node;
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Accounts);
        QVERIFY(facts.failedWith(ErrorCode::RemoteFailed));
        QVERIFY2(facts.errorText().contains(QLatin1String("sacctmgr failed: sacctmgr: error: slurmdbd down")),
                 qPrintable(facts.errorText()));
    }

    void remoteTextIsPrintable()
    {
        FakeRemoteExecutor ex;
        LoginNode node;
        node.version = "slurm\x1b[2J 23.02.7\r\n\x07";
        ex.onRun = node;
        const auto facts = LoginCheck::run(ex, LoginCheck::Scope::Slurm);
        QVERIFY2(facts, qPrintable(facts.errorText()));
        QCOMPARE(facts->slurm, QStringLiteral("slurm[2J 23.02.7"));
    }

    void sanitizeShapes()
    {
        // The one sanitizer of outside text, in each shape its callers use.
        const QByteArray raw = "  \x1b[31mred\x1b[0m\tline\r\nprogress 10%\rprogress 99%\n" + QByteArray(300, 'x');
        const QString plain = RemoteValidation::sanitize(raw, 40);
        QCOMPARE(plain, QStringLiteral("[31mred[0m\tline\nprogress 10%progress 9…"));
        QCOMPARE(RemoteValidation::sanitize(raw, {.maxChars = 20, .oneLine = true}),
                 QStringLiteral("[31mred[0m line pr…"));
        const QString shown = RemoteValidation::sanitize(raw, {.maxChars = 0, .terminal = true, .trim = false});
        QVERIFY(shown.startsWith(QStringLiteral("  red\tline\nprogress 99%\nxxx")));
        QCOMPARE(shown.size(), 2 + 8 + 1 + 12 + 1 + 300);
    }
};

QTEST_GUILESS_MAIN(TstLoginCheck)
#include "tst_logincheck.moc"
