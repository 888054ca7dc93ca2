// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/cli/CliContext.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace scalelab {

class CliParser;
class RunLifecycle;
class RunStore;

// What the commands that talk to a cluster share (SlurmCommands.cpp for
// submit and study, RunCommands.cpp for status, cancel, fetch and runs).
namespace cli {

struct ConnectionOptions {
    QString alias;
    QString sshConfig;
    bool acceptNew = false;
};

// --connection, --ssh-config, --accept-new-host-key.
void addConnectionOptions(CliParser &a, const QString &aliasHelp);
// nullopt (the reason printed; exit 2) when --ssh-config or
// $SCALELAB_SSH_CONFIG names a file that does not exist.
std::optional<ConnectionOptions> connectionOptions(CliContext &ctx, const CliParser &a);
// "" or why the SSH config a command would read cannot be used (--ssh-config
// FILE given as `sshConfig`, else $SCALELAB_SSH_CONFIG or ~/.ssh/config).
QString sshConfigProblem(const QString &sshConfig);
QString defaultAliasHelp();   // --connection's help where the profile names the host

// Opens the researcher's run store; says why on stderr when it cannot.
bool openStore(CliContext &ctx, RunStore &store);

// Resolves unresolved submissions of a cluster before anything else is sent,
// so an interrupted submit is completed, never duplicated.
void reconcileCluster(CliContext &ctx, RunLifecycle &lifecycle);

// The one RUN id of a command (exit 2 with a message when there is none).
std::optional<qint64> runIdArg(CliContext &ctx, const QStringList &pos, const char *cmd);

// The shape of every command about one stored run: parse RUN and the
// connection options, open the store, connect to the run's cluster, act.
int onRunCluster(CliContext &ctx, const CliParser &a, const char *cmd,
                 const std::function<bool(RunStore &, RunLifecycle &, qint64)> &act);

}   // namespace cli

}   // namespace scalelab
