// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/slurm/SlurmMemory.h"

#include <QRegularExpression>

namespace scalelab {

std::optional<qint64> slurmMemoryMB(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^([0-9]+)([KMGT]?)B?$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 n = m.captured(1).toLongLong(&ok);
    if (!ok || n > kMaxMemoryMB * 1024)   // the largest count any unit can make sense of
        return std::nullopt;
    switch (m.captured(2).isEmpty() ? 'M' : m.captured(2).at(0).toUpper().toLatin1()) {
    case 'K':
        return n / 1024;
    case 'G':
        return n * 1024;
    case 'T':
        return n * 1024 * 1024;
    default:
        return n;
    }
}

}   // namespace scalelab
