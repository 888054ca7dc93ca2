// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/LoginCheck.h"

#include "core/base/RemoteValidation.h"
#include "core/client/RemoteExecutor.h"

#include <QRegularExpression>

namespace scalelab {

namespace {

constexpr int kTimeoutMs = 30000;

QString line(const QByteArray &bytes)
{
    return RemoteValidation::sanitize(bytes, {.maxChars = 200, .oneLine = true});
}

Result<RemoteResult> ran(RemoteExecutor &ex, const QStringList &argv)
{
    RemoteResult r = ex.run(argv, kTimeoutMs);
    if (!r.transportOk())
        return fail(ErrorCode::Transport, r.transportError);
    return r;
}

Result<QString> slurmLine(RemoteExecutor &ex)
{
    const auto r = ran(ex, {QStringLiteral("sbatch"), QStringLiteral("--version")});
    if (!r)
        return fail(r.error());
    const QString version = line(r->out);
    if (!r->ok() || !version.startsWith(QLatin1String("slurm")))
        return fail(
            ErrorCode::RemoteFailed,
            QStringLiteral("sbatch --version failed (is this a Slurm login node?): %1").arg(line(r->err + r->out)));
    return version;
}

Result<QString> userName(RemoteExecutor &ex)
{
    const auto r = ran(ex, {QStringLiteral("id"), QStringLiteral("-un")});
    if (!r)
        return fail(r.error());
    // It goes into sacctmgr's command line: a name, nothing else.
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9_.][A-Za-z0-9_.@-]{0,63}$"));
    const QString user = line(r->out);
    if (!r->ok() || !name.match(user).hasMatch())
        return fail(ErrorCode::RemoteFailed,
                    QStringLiteral("cannot tell the user name (id -un): %1").arg(line(r->err + r->out)));
    return user;
}

Result<QList<AccountPartitions>> accounts(RemoteExecutor &ex, const QString &user)
{
    const auto r =
        ran(ex, {QStringLiteral("sacctmgr"), QStringLiteral("-P"), QStringLiteral("show"), QStringLiteral("assoc"),
                 QStringLiteral("user=") + user, QStringLiteral("format=Account,Partition")});
    if (!r)
        return fail(r.error());
    if (!r->ok())
        return fail(ErrorCode::RemoteFailed, QStringLiteral("sacctmgr failed: %1").arg(line(r->err + r->out)));
    const QString text = RemoteValidation::sanitize(r->out, {.maxChars = 0});
    return SacctmgrParsers::byAccount(SacctmgrParsers::associations(text).items);
}

}   // namespace

Result<LoginFacts> LoginCheck::run(RemoteExecutor &ex, Scope scope)
{
    LoginFacts facts;
    const auto slurm = slurmLine(ex);
    if (!slurm)
        return fail(slurm.error());
    facts.slurm = *slurm;
    if (scope == Scope::Slurm)
        return facts;
    const auto user = userName(ex);
    if (!user)
        return fail(user.error());
    facts.user = *user;
    const auto found = accounts(ex, facts.user);
    if (!found)
        return fail(found.error());
    facts.accounts = *found;
    return facts;
}

}   // namespace scalelab
