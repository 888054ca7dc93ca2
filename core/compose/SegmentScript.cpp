// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compose/SegmentScript.h"

namespace scalelab {

QString SegmentScript::doneFileName()
{
    return QStringLiteral("scalelab-done");
}

QString SegmentScript::stopFileName()
{
    return QStringLiteral("scalelab-chain-stop");
}

QString SegmentScript::limitFileName(const QString &jobId)
{
    return QStringLiteral("scalelab-segment-%1.limit").arg(jobId);
}

QString SegmentScript::nextJobFileName(const QString &segment)
{
    return QStringLiteral("scalelab-segment-%1.jobid").arg(segment);
}

// table: the function that queues the next segment
QStringList SegmentScript::nextJob()
{
    const QString file = QStringLiteral("\"%1\"").arg(nextJobFileName(QStringLiteral("$scalelab_next")));
    return {
        QStringLiteral(
            "# Until the work is done: a segment that reaches its limit queues the next one (the trap below"),
        QStringLiteral("# calls this), waiting for it; nothing waits in the queue for work that may be done. Once:"),
        QStringLiteral("# a requeued segment finds the file; sbatch refusing it makes this segment the last."),
        QStringLiteral("scalelab_queue_next() {"),
        QStringLiteral("  scalelab_next=$((SCALELAB_SEGMENT + 1))"),
        QStringLiteral("  [ \"$SCALELAB_SEGMENT\" -lt \"$SCALELAB_SEGMENTS\" ] || return 0"),
        QStringLiteral("  if [ ! -e %1 ]; then").arg(file),
        // The job's own script file in the run folder: SlurmClient::scriptFileName().
        QStringLiteral("    sbatch --parsable --comment=\"$SCALELAB_TOKEN\" --chdir=\"$PWD\" "
                       "--dependency=afterany:\"$SLURM_JOB_ID\" --export=ALL,SCALELAB_SEGMENT=$scalelab_next "
                       "job.sbatch > %1 || rm -f %1")
            .arg(file),
        QStringLiteral("  fi"),
        QStringLiteral("  if [ -s %1 ]; then").arg(file),
        QStringLiteral("    echo \"scalelab: segment $scalelab_next queued after this one: job $(head -n 1 %1)\"")
            .arg(file),
        QStringLiteral("  else"),
        QStringLiteral("    echo \"scalelab: segment $scalelab_next could not be queued; this segment is the last\""),
        QStringLiteral("    SCALELAB_SEGMENTS=$SCALELAB_SEGMENT"),
        QStringLiteral("  fi"),
        QStringLiteral("}"),
    };
}

QStringList SegmentScript::headerLines(const JobSpec &spec)
{
    const SegmentSpec &g = spec.segments;
    if (!g.enabled())
        return {};
    // The validator allows USR1 or USR2 only; anything else is never written.
    const QString sig = g.signal == QLatin1String("USR2") ? g.signal : QStringLiteral("USR1");
    QStringList l{QStringLiteral("#SBATCH --signal=B:%1@%2").arg(sig).arg(std::max(1, g.signalLeadSeconds))};
    if (g.requeue)
        l << QStringLiteral("#SBATCH --requeue");
    return l;
}

// table: the prologue's lines
QStringList SegmentScript::prologue(const JobSpec &spec)
{
    const SegmentSpec &g = spec.segments;
    if (!g.enabled())
        return {};
    QStringList l{
        QStringLiteral("# Segments: this job is one segment of a run longer than the time limit (up to %1); its")
            .arg(g.planned()),
        QStringLiteral("# successors wait for it (--dependency=afterany) and resume from the checkpoint it left here."),
        QStringLiteral(
            "export SCALELAB_SEGMENT=\"${SCALELAB_SEGMENT:-1}\" SCALELAB_SEGMENTS=\"${SCALELAB_SEGMENTS:-%1}\"")
            .arg(g.planned()),
        QStringLiteral("export SCALELAB_DONE_FILE=\"$PWD/%1\" SCALELAB_CHECKPOINT_DIR=\"$PWD/scalelab-checkpoint\"")
            .arg(doneFileName()),
        QStringLiteral("if [ -e %1 ]; then").arg(doneFileName()),
        QStringLiteral(
            "  echo \"scalelab: segment $SCALELAB_SEGMENT of $SCALELAB_SEGMENTS not needed: the work is done\""),
        QStringLiteral("  exit 0"),
        QStringLiteral("fi"),
        QStringLiteral("if [ -e %1 ]; then").arg(stopFileName()),
        QStringLiteral("  echo \"scalelab: segment $SCALELAB_SEGMENT of $SCALELAB_SEGMENTS not started: an earlier "
                       "segment failed (exit code $(head -c 20 %1))\"")
            .arg(stopFileName()),
        QStringLiteral("  exit 1"),
        QStringLiteral("fi"),
        QStringLiteral("echo \"scalelab: segment $SCALELAB_SEGMENT of $SCALELAB_SEGMENTS\""),
    };
    if (g.checkpointSeconds > 0)
        l.insert(4, QStringLiteral("export SCALELAB_CHECKPOINT_SECONDS=%1").arg(g.checkpointSeconds));
    if (g.untilDone)
        l << nextJob();
    return l << QString();
}

// table: the launch's lines
QStringList SegmentScript::launch(const JobSpec &spec, const QString &launch)
{
    const SegmentSpec &g = spec.segments;
    if (!g.enabled())
        return {launch, QStringLiteral("rc=$?")};
    const QString sig = g.signal == QLatin1String("USR2") ? g.signal : QStringLiteral("USR1");
    const QString limit = limitFileName(QStringLiteral("$SLURM_JOB_ID"));
    QStringList l{
        QStringLiteral("# Slurm signals this shell %1 s before the limit (--signal=B:%2): the trap records that the")
            .arg(g.signalLeadSeconds)
            .arg(sig),
        QStringLiteral("# segment ended on the limit and passes SIG%1 on (srun forwards it to every task).").arg(sig),
        QStringLiteral("scalelab_on_limit() {"),
        QStringLiteral("  echo \"scalelab: segment $SCALELAB_SEGMENT reached its time limit at $(date -Is)\""),
        QStringLiteral("  : > \"%1\"").arg(limit),
        QStringLiteral("  kill -%1 \"$SCALELAB_LAUNCH_PID\" 2>/dev/null").arg(sig),
        QStringLiteral("}"),
        QStringLiteral("trap scalelab_on_limit %1").arg(sig),
        launch + QStringLiteral(" &"),
        QStringLiteral("SCALELAB_LAUNCH_PID=$!"),
        QStringLiteral("wait \"$SCALELAB_LAUNCH_PID\"; rc=$?"),
        QStringLiteral("# A trap ends the wait early: wait again until the launch itself has ended."),
        QStringLiteral(
            "while kill -0 \"$SCALELAB_LAUNCH_PID\" 2>/dev/null; do wait \"$SCALELAB_LAUNCH_PID\"; rc=$?; done"),
        // The training wrote its done file: the work is done, even when the limit's signal came
        // as it ended and killed it (seen on 22.05: exit code 138 after the last epoch).
        QStringLiteral("if [ -e %1 ]; then").arg(doneFileName()),
        QStringLiteral("  [ \"$rc\" -eq 0 ] || echo \"scalelab: the work is done (exit code $rc after it)\""),
        QStringLiteral("  rc=0"),
        QStringLiteral("elif [ -e \"%1\" ]; then").arg(limit),
        QStringLiteral("  if [ \"$SCALELAB_SEGMENT\" -lt \"$SCALELAB_SEGMENTS\" ]; then"),
        QStringLiteral(
            "    echo \"scalelab: segment $SCALELAB_SEGMENT ended on its time limit (exit code $rc); segment "
            "$((SCALELAB_SEGMENT + 1)) continues\""),
        QStringLiteral("    rc=0"),
        QStringLiteral("  else"),
        QStringLiteral("    echo \"scalelab: the work is not done after $SCALELAB_SEGMENTS segment(s); its checkpoint "
                       "stays in $SCALELAB_CHECKPOINT_DIR\""),
        QStringLiteral("    rc=1"),
        QStringLiteral("  fi"),
        QStringLiteral("elif [ \"$rc\" -eq 0 ]; then"),
        QStringLiteral("  : > %1").arg(doneFileName()),
        QStringLiteral("else"),
        QStringLiteral("  echo \"$rc\" > %1").arg(stopFileName()),
        QStringLiteral("fi"),
    };
    if (g.untilDone)   // after the limit file, before the signal is passed on
        l.insert(5, QStringLiteral("  scalelab_queue_next"));
    return l;
}

}   // namespace scalelab
