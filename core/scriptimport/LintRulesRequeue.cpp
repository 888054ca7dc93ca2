// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/scriptimport/LintRules.h"

#include <QRegularExpression>

// A framework's auto-requeue without the signal it listens for: Lightning's
// SLURMEnvironment (auto_requeue, on by default) saves a checkpoint and
// requeues the job when SIGUSR1 arrives, which Slurm sends only when the
// script asks for it (#SBATCH --signal=SIGUSR1@90). Without it the job is
// killed at its limit with nothing saved; with another signal, or one sent
// only to the batch shell (B:) that no trap passes on, the same.

namespace scalelab {

namespace {

// The signal of a --signal value ("[R:|B:]SIG[@seconds]"): "USR1" from
// "B:SIGUSR1@90", "USR2" from "12@60"; "" when unreadable.
QString signalName(const QString &value, bool *batchOnly)
{
    static const QRegularExpression form(QStringLiteral("^(?:([RB]+):)?([A-Za-z0-9]+)(?:@\\d+)?$"));
    const auto m = form.match(value.trimmed());
    if (!m.hasMatch())
        return {};
    *batchOnly = m.captured(1).contains(QLatin1Char('B'));
    QString sig = m.captured(2).toUpper();
    if (sig.startsWith(QLatin1String("SIG")))
        sig = sig.mid(3);
    if (sig == QLatin1String("10"))
        return QStringLiteral("USR1");
    if (sig == QLatin1String("12"))
        return QStringLiteral("USR2");
    return sig;
}

bool scriptTraps(const ScriptImport &imp)
{
    for (const ScriptLine &l : imp.lines)
        if (l.text.trimmed().startsWith(QLatin1String("trap ")))
            return true;
    return false;
}

}   // namespace

void lintRequeueSignal(ScriptImport &imp)
{
    if (imp.spec.framework != Framework::Lightning)
        return;
    const SbatchOption *o = imp.option(QStringLiteral("signal"));
    const LaunchCommand *l = imp.launch();
    const int line = o ? o->line : l ? l->line : 0;
    const QString fix = QStringLiteral("Add #SBATCH --signal=SIGUSR1@90 (90 s: longer than a checkpoint takes).");
    if (!o) {
        // A job that ends within its limit needs none: a hint, not a mistake.
        imp.diagnostics << finding(Severity::Info, QStringLiteral("requeue-signal-missing"), QString(), line,
                                   QStringLiteral("Lightning's SLURMEnvironment saves a checkpoint and requeues the "
                                                  "job when SIGUSR1 arrives, but the script asks Slurm for no "
                                                  "--signal: should it reach its time limit, it is killed with "
                                                  "nothing saved. %1")
                                       .arg(fix));
        return;
    }
    bool batchOnly = false;
    const QString sig = signalName(o->value, &batchOnly);
    if (!sig.isEmpty() && sig != QLatin1String("USR1"))
        imp.diagnostics << finding(Severity::Warning, QStringLiteral("requeue-signal-mismatch"), QString(), line,
                                   QStringLiteral("Lightning's auto-requeue listens for SIGUSR1, but --signal=%1 "
                                                  "sends SIG%2: the job is killed at its limit with nothing saved. %3")
                                       .arg(InputLimits::quoted(o->value), sig, fix));
    else if (batchOnly && !scriptTraps(imp))
        imp.diagnostics << finding(Severity::Warning, QStringLiteral("requeue-signal-batch-only"), QString(), line,
                                   QStringLiteral("--signal=%1 sends the signal only to the batch shell (B:), which "
                                                  "has no trap to pass it on to the training: Lightning never sees "
                                                  "it. Drop \"B:\" or trap the signal and pass it on.")
                                       .arg(InputLimits::quoted(o->value)));
}

}   // namespace scalelab
