// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Result.h"
#include "core/discovery/SacctmgrParsers.h"

#include <QList>
#include <QString>

namespace scalelab {

class RemoteExecutor;

// What a login node says about the researcher (LoginCheck).
struct LoginFacts {
    QString slurm;   // `sbatch --version`, one line: "slurm 23.02.7"
    QString user;   // `id -un` (Scope::Accounts)
    QList<AccountPartitions> accounts;   // the user's sacctmgr associations by account (Scope::Accounts)
};

// The one connection test, run on a connection's worker by "Add your cluster"
// (is this a Slurm login node?) and by the Connections dialog (also: who is
// the researcher there, which accounts and partitions may they use). Every
// remote text is sanitized; the user name is checked before it goes into the
// sacctmgr command line.
class LoginCheck {
public:
    enum class Scope { Slurm, Accounts };
    // Fails with Transport (the connection; nothing more was run) or
    // RemoteFailed naming the command that failed and what it printed.
    static Result<LoginFacts> run(RemoteExecutor &ex, Scope scope);
};

}   // namespace scalelab
