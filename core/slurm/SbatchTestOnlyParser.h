// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// What `sbatch --test-only` answered for one job (its stderr): where and when
// slurmctld would start it, or why it refused. Slurm's own line (src/api/
// allocate.c, 17.11 to 25.11): "sbatch: Job 47 to start at 2026-11-27T08:24:36
// using 1 processors on nodes tb-node1 in partition gpu" (17.11 and older end
// after the nodes); a "Preempts: ..." line may follow and a job_submit
// plugin's message may precede it.
struct TestOnlyReply {
    bool willRun = false;   // the start line was read
    QString jobId;   // the id slurmctld would have given ("47")
    QString startText;   // as printed: cluster local time, ISO with SLURM_TIME_FORMAT=standard
    std::optional<qint64> start;   // startText as UNIX seconds (read as UTC, like SlurmTime)
    int processors = 0;
    QString nodes;   // "tb-node[1-2]"
    QString partition;   // "" when Slurm did not say
    QString preempts;   // jobs it would preempt, "" none
    QString refusal;   // Slurm's reason when it would not run ("QOSMaxGRESPerJob; Job violates ...")
    QStringList siteMessages;   // other lines (job_submit plugin messages), sanitized
};

struct TestOnlyParse {
    TestOnlyReply reply;
    Diagnostics diagnostics;   // a start line that could not be read
};

class SbatchTestOnlyParser {
public:
    // One sbatch's stderr (stdout merged is fine). Linear in the text; lines
    // are capped in length and number.
    static TestOnlyParse parse(const QString &text);
};

}   // namespace scalelab
