// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace scalelab {

// Slurm time limits: "minutes", "minutes:seconds", "hours:minutes:seconds",
// "days-hours", "days-hours:minutes", "days-hours:minutes:seconds".
// Also elapsed fields from sacct/squeue (same forms, plus "UNLIMITED").
class SlurmTime {
public:
    static std::optional<qint64> parseSeconds(const QString &text);
    static QString format(qint64 seconds);   // D-HH:MM:SS or HH:MM:SS
    // Submit/Start/End as printed: ISO "2025-01-03T16:54:57" (cluster local
    // time, read as UTC-less local), or UNIX seconds when SLURM_TIME_FORMAT=%s
    // was in force. "Unknown", "None", "N/A", "" and the unset markers
    // 0 / 4294967294 / 4294967295 -> nullopt. Returns UNIX seconds (ISO read as UTC).
    static std::optional<qint64> parseTimestamp(const QString &text);
};

}   // namespace scalelab
