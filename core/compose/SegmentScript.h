// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/model/JobSpec.h"

#include <QString>
#include <QStringList>

namespace scalelab {

// The parts of a rendered script that make one job a segment of a run longer
// than the time limit (JobSpec::segments), for SbatchRenderer. Every segment
// runs the same script in the run folder; sbatch's --export gives each its
// number (SCALELAB_SEGMENT of SCALELAB_SEGMENTS, SlurmClient::submitShellBody).
//   header:   #SBATCH --signal=B:USR1@<lead> (and --requeue when asked)
//   prologue: the training's files (SCALELAB_DONE_FILE, SCALELAB_CHECKPOINT_DIR);
//             a segment after the work is done ends at once, one after a failure too;
//             "until-done": the function that queues the next segment (nextJob)
//   launch:   in the background, so the batch shell's trap runs when Slurm signals
//             it: the trap writes scalelab-segment-<job>.limit ("until-done": queues
//             the next segment) and passes the signal on; then whether the work is done (scalelab-done), continues
//             in the next segment, or stopped (scalelab-chain-stop).
class SegmentScript {
public:
    static QStringList headerLines(const JobSpec &spec);
    static QStringList prologue(const JobSpec &spec);
    // `launch`: the launch text (comment lines, then the one command line).
    static QStringList launch(const JobSpec &spec, const QString &launch);
    // "until-done": the prologue's function the trap calls to queue the next
    // segment, once (a requeued segment finds its file); sbatch refusing it
    // makes this segment the last. SCALELAB_TOKEN comes from the submit (--export).
    static QStringList nextJob();

    // Files in the run folder the script writes (the fetch and ingest read them).
    static QString doneFileName();   // "scalelab-done"
    static QString stopFileName();   // "scalelab-chain-stop"
    static QString limitFileName(const QString &jobId);   // "scalelab-segment-<job>.limit"
    // "until-done": sbatch's reply for segment k, written by segment k - 1 ("<id>[;cluster]").
    static QString nextJobFileName(const QString &segment);   // "scalelab-segment-<k>.jobid"
};

}   // namespace scalelab
