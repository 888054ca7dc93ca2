// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/SlurmCommandSupport.h"

#include "app/cli/CliCluster.h"
#include "app/cli/CliParser.h"
#include "core/client/RunLifecycle.h"
#include "core/client/SlurmClient.h"
#include "core/sshconfig/SshConfigFile.h"
#include "core/store/RunStore.h"

namespace scalelab::cli {

void addConnectionOptions(CliParser &a, const QString &aliasHelp)
{
    a.value({QStringLiteral("connection")}, QStringLiteral("ALIAS"), aliasHelp);
    a.value({QStringLiteral("ssh-config")}, QStringLiteral("FILE"),
            QStringLiteral("OpenSSH-format config (default: $SCALELAB_SSH_CONFIG or ~/.ssh/config)"));
    a.flag({QStringLiteral("accept-new-host-key")},
           QStringLiteral("add an unknown host key to known_hosts (a changed key is always refused)"));
}

std::optional<ConnectionOptions> connectionOptions(CliContext &ctx, const CliParser &a)
{
    ConnectionOptions o;
    o.alias = a.value(QStringLiteral("connection")).value_or(QString());
    o.sshConfig = a.value(QStringLiteral("ssh-config")).value_or(QString());
    o.acceptNew = a.isSet(QStringLiteral("accept-new-host-key"));
    if (const QString e = sshConfigProblem(o.sshConfig); !e.isEmpty()) {
        ctx.unusable(e);
        return std::nullopt;
    }
    return o;
}

QString sshConfigProblem(const QString &sshConfig)
{
    const QString e = SshConfigFile::namedFileProblem(sshConfig);
    return e.isEmpty() || sshConfig.isEmpty() ? e : QStringLiteral("--ssh-config: ") + e;
}

QString defaultAliasHelp()
{
    return QStringLiteral("SSH config Host alias (default: the profile's login host alias)");
}

bool openStore(CliContext &ctx, RunStore &store)
{
    const QString error = store.open().errorText();
    if (!error.isEmpty()) {
        ctx.err << "scalelab: cannot open the run store: " << error << "\n";
        ctx.err.flush();
        return false;
    }
    return true;
}

void reconcileCluster(CliContext &ctx, RunLifecycle &lifecycle)
{
    const ReconcileReport report = lifecycle.reconcileUnresolved();
    for (const ReconciledRun &r : report.runs) {
        switch (r.outcome.kind) {
        case ReconcileOutcome::Kind::Found:
            ctx.out << "run " << r.runId << ": reconciled, job " << r.outcome.jobId << "\n";
            break;
        case ReconcileOutcome::Kind::NotSubmitted:
            // Certainly never reached Slurm: RunLifecycle finished the submission.
            ctx.out << "run " << r.runId << ": was not submitted; "
                    << (r.resubmit && r.resubmit->kind == SubmitOutcome::Kind::Submitted
                            ? QStringLiteral("submitted as job %1").arg(r.resubmit->jobId)
                            : (r.resubmit ? r.resubmit->message : QString()))
                    << "\n";
            break;
        case ReconcileOutcome::Kind::StillUnknown:
            ctx.out << "run " << r.runId << ": outcome still unknown (" << r.outcome.message << ")\n";
            break;
        case ReconcileOutcome::Kind::NothingToDo:
            break;
        }
    }
    ctx.out.flush();
}

std::optional<qint64> runIdArg(CliContext &ctx, const QStringList &pos, const char *cmd)
{
    bool ok = false;
    const qint64 id = pos.size() == 1 ? pos.front().toLongLong(&ok) : 0;
    if (!ok || id <= 0) {
        ctx.unusable(QStringLiteral("%1 needs one RUN id (see `scalelab runs`)").arg(QString::fromLatin1(cmd)));
        return std::nullopt;
    }
    return id;
}

int onRunCluster(CliContext &ctx, const CliParser &a, const char *cmd,
                 const std::function<bool(RunStore &, RunLifecycle &, qint64)> &act)
{
    const auto options = connectionOptions(ctx, a);
    if (!options)
        return int(ExitCode::Unusable);
    const ConnectionOptions &o = *options;
    const auto id = runIdArg(ctx, a.positional(), cmd);
    if (!id)
        return int(ExitCode::Unusable);
    RunStore store;
    if (!openStore(ctx, store))
        return int(ExitCode::Errors);
    const auto run = store.run(*id);
    if (!run.ok())
        return ctx.unusable(QStringLiteral("no run %1 (see `scalelab runs`)").arg(*id));
    CliCluster cluster(ctx, o.alias.isEmpty() ? run.value().clusterAlias : o.alias, o.sshConfig, o.acceptNew);
    if (!cluster.connect())
        return int(ExitCode::Errors);
    SlurmClient client(cluster.executor(), store, cluster.alias());
    RunLifecycle lifecycle(client, store);
    const bool ok = act(store, lifecycle, *id);
    ctx.out.flush();
    ctx.err.flush();
    return ok ? 0 : int(ExitCode::Errors);
}

}   // namespace scalelab::cli
