// SPDX-License-Identifier: GPL-3.0-or-later
// sshare's GrpTRESMins / GrpTRESRaw: the allocation left.
#include "core/discovery/SshareAllocationParser.h"

#include "core/slurm/TresString.h"

#include <optional>

namespace scalelab {

QStringList SshareAllocationParser::arguments()
{
    return {QStringLiteral("sshare"), QStringLiteral("--parsable2"), QStringLiteral("--noheader"),
            QStringLiteral("--format=Account,User,GrpTRESMins,GrpTRESRaw")};
}

namespace {

constexpr int kMaxRows = 2000;

// Limits in the order they are reported: billing is what most sites allocate.
const char *const kLimited[] = {"billing", "gres/gpu", "cpu"};

}   // namespace

RemainingAllocation SshareAllocationParser::parse(const QString &out)
{
    RemainingAllocation best;
    best.unknownWhy = QStringLiteral("the site sets no GrpTRESMins on your associations (sshare)");
    int line = 0;
    std::optional<int> bestRank;
    for (QStringView raw : QStringView(out).split(u'\n')) {
        if (++line > kMaxRows)
            break;
        const QList<QStringView> f = raw.trimmed().split(u'|');
        if (raw.trimmed().isEmpty())
            continue;
        if (f.size() != 4) {
            best.diagnostics << finding(Severity::Warning, QStringLiteral("sshare-unreadable"), {}, line,
                                        QStringLiteral("sshare line %1 has %2 fields, not 4").arg(line).arg(f.size()));
            continue;
        }
        const TresParseResult limit = TresString::parse(f[2], QStringLiteral("GrpTRESMins"));
        const TresParseResult used = TresString::parse(f[3], QStringLiteral("GrpTRESRaw"));
        for (int rank = 0; rank < 3; ++rank) {
            const auto l = limit.count(QLatin1String(kLimited[rank]));
            if (!l)
                continue;
            const double u = used.count(QLatin1String(kLimited[rank])).value_or(0);
            const double left = std::max(0.0, *l - u);
            if (!bestRank || rank < *bestRank || (rank == *bestRank && left < best.remainingMinutes)) {
                bestRank = rank;
                best.known = true;
                best.account = f[0].toString().left(100);
                best.tres = QLatin1String(kLimited[rank]);
                best.limitMinutes = *l;
                best.usedMinutes = u;
                best.remainingMinutes = left;
                best.unknownWhy.clear();
            }
            break;
        }
    }
    return best;
}

QString RemainingAllocation::text() const
{
    if (!known)
        return QStringLiteral("remaining allocation: unknown (%1)").arg(unknownWhy);
    const QString unit = tres == QLatin1String("billing")    ? QStringLiteral("billing-hours")
                         : tres == QLatin1String("gres/gpu") ? QStringLiteral("GPU-hours")
                                                             : QStringLiteral("CPU-hours");
    return QStringLiteral("remaining allocation: %1 of %2 %3 (%4)")
        .arg(QString::number(remainingMinutes / 60.0, 'f', 1), QString::number(limitMinutes / 60.0, 'f', 1), unit,
             account);
}

}   // namespace scalelab
