// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>
#include <QString>
#include <QStringList>

// One logging category per layer. Info lines are on by default and go to the
// log file (LogFile); QT_LOGGING_RULES switches them, e.g.
//   QT_LOGGING_RULES="scalelab.ssh.info=false"   or   "scalelab.*.debug=true".
// What may be logged: program names, fixed options, job ids, states, exit
// codes, durations, error texts. Never a passphrase, password, TOTP code,
// key, nor a value the researcher typed (paths, names): see redactedCommand.
Q_DECLARE_LOGGING_CATEGORY(lcSsh)   // "scalelab.ssh": connections, one line per remote command/transfer
Q_DECLARE_LOGGING_CATEGORY(lcSlurm)   // "scalelab.slurm": submit/reconcile/poll outcomes
Q_DECLARE_LOGGING_CATEGORY(lcStore)   // "scalelab.store": state changes of runs, store failures
Q_DECLARE_LOGGING_CATEGORY(lcIngest)   // "scalelab.ingest": metrics stored per run
Q_DECLARE_LOGGING_CATEGORY(lcUi)   // "scalelab.ui": window-level events

namespace scalelab {

// argv as it may appear in the log: the program, option names and values
// ScaleLab chose itself (numbers, job id lists, fixed words) are kept; paths,
// tokens and anything else become "<…>"; a `sh -c` body is reduced to its size.
QString redactedCommand(const QStringList &argv);

// The log file: $XDG_STATE_HOME/ScaleLab/scalelab.log (default
// ~/.local/state/ScaleLab), mode 0600 in a 0700 directory, moved to
// scalelab.log.1 when it reaches the cap (one older file is kept).
class LogFile {
public:
    static constexpr qint64 kDefaultCapBytes = 1024 * 1024;

    static QString defaultPath();
    // Installs the message handler: scalelab.* messages go to the file (not
    // to stderr, so CLI output stays as it was); other categories go to the
    // previous handler as before. Safe from any thread. Idempotent.
    static void install(const QString &path = defaultPath(), qint64 capBytes = kDefaultCapBytes);
    static QString path();   // "" when not installed
    // The last `maxBytes` of the current file (for Help ▸ Diagnostics).
    static QString tail(qint64 maxBytes = 256 * 1024);
};

}   // namespace scalelab
