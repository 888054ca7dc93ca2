// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QString>
#include <QStringList>

namespace scalelab {

// What is left of the researcher's allocation, when the site limits usage
// with an association's GrpTRESMins (sshare's GrpTRESMins against GrpTRESRaw,
// the usage the limit is enforced on). A site that sets no such limit gives
// `known == false` with the reason: never a guess.
struct RemainingAllocation {
    bool known = false;
    QString account;
    QString tres;   // "billing", "gres/gpu" or "cpu": the limited TRES
    double limitMinutes = 0;
    double usedMinutes = 0;
    double remainingMinutes = 0;   // limit - used, not below 0
    QString unknownWhy;
    Diagnostics diagnostics;

    // "remaining allocation: 1200 of 6000 billing-hours (project_2001234)" or "remaining allocation: unknown (...)".
    QString text() const;
};

class SshareAllocationParser {
public:
    // `sshare --parsable2 --noheader --format=Account,User,GrpTRESMins,GrpTRESRaw` as fields().
    static QStringList arguments();
    // Its output: the most limiting row of billing, else GPUs, else CPUs.
    static RemainingAllocation parse(const QString &out);
};

}   // namespace scalelab
