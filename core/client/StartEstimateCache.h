// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/client/StartEstimates.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

namespace scalelab {

// Start estimates kept a few minutes, so asking again for the same job on the
// same cluster costs no remote command. Keyed by cluster, script and
// partitions; the caller gives the clock (milliseconds), so a test needs no wait.
class StartEstimateCache {
public:
    static constexpr qint64 kKeepMs = 5 * 60 * 1000;

    std::optional<StartEstimates> find(const QString &alias, const QString &script, const QStringList &partitions,
                                       qint64 nowMs) const;
    // Only answers that reached the cluster are kept.
    void store(const QString &alias, const QString &script, const QStringList &partitions,
               const StartEstimates &estimates, qint64 nowMs);
    int size() const { return int(m_entries.size()); }

private:
    struct Entry {
        qint64 atMs = 0;
        StartEstimates estimates;
    };
    static QString keyOf(const QString &alias, const QString &script, const QStringList &partitions);
    QHash<QString, Entry> m_entries;
};

}   // namespace scalelab
