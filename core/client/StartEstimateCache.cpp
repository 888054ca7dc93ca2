// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/client/StartEstimateCache.h"

#include <QCryptographicHash>

namespace scalelab {

QString StartEstimateCache::keyOf(const QString &alias, const QString &script, const QStringList &partitions)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(script.toUtf8());
    return alias + QLatin1Char('\n') + partitions.join(QLatin1Char(',')) + QLatin1Char('\n')
           + QString::fromLatin1(h.result().toHex());
}

std::optional<StartEstimates> StartEstimateCache::find(const QString &alias, const QString &script,
                                                       const QStringList &partitions, qint64 nowMs) const
{
    const auto it = m_entries.constFind(keyOf(alias, script, partitions));
    if (it == m_entries.constEnd() || nowMs - it->atMs > kKeepMs || nowMs < it->atMs)
        return std::nullopt;
    return it->estimates;
}

void StartEstimateCache::store(const QString &alias, const QString &script, const QStringList &partitions,
                               const StartEstimates &estimates, qint64 nowMs)
{
    if (!estimates.ok())
        return;
    for (auto it = m_entries.begin(); it != m_entries.end();)   // old entries go
        it = nowMs - it->atMs > kKeepMs ? m_entries.erase(it) : std::next(it);
    m_entries.insert(keyOf(alias, script, partitions), Entry{nowMs, estimates});
}

}   // namespace scalelab
