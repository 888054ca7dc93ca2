// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

namespace scalelab {

// A pending job's reason (squeue %r, sacct Reason) in plain words with what
// to do about it. One table (PendingReason::table) holds every reason
// ScaleLab explains; a reason not in it is explained by its family (QOS...,
// Assoc..., Partition...) or shown as Slurm's own word.
struct PendingExplanation {
    QString code;   // Slurm's word: "Priority", "QOSMaxGRESPerUser", "ReqNodeNotAvail"
    QString detail;   // what followed it: "UnavailableNodes:tb-node1", "Reserved for maintenance"
    QString words;   // what it means, one sentence
    QString advice;   // what to do
    bool blocked = false;   // it will not start by waiting alone (a limit it exceeds, a hold)
    bool known = false;   // from the table (or a family), not only Slurm's word
};

struct PendingReasonRow {
    const char *code;
    const char *words;
    const char *advice;
    bool blocked;
};

class PendingReason {
public:
    // "" and "None" give an empty code. Linear in the text; the text is cut at 400 characters.
    static PendingExplanation explain(const QString &reason);
    static const QList<PendingReasonRow> &table();
};

}   // namespace scalelab
