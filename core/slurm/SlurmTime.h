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
};

} // namespace scalelab
