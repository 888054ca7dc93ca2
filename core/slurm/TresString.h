// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"

#include <QMap>
#include <QString>
#include <QStringView>

#include <optional>

namespace scalelab {

// One value of a Slurm TRES string. Slurm prints three kinds of value:
// counts (`cpu=2`, `gres/gpu=2`, `gres/gpuutil=87`), sizes with a 1024-based
// unit suffix (`mem=1000M`, `MaxRSS`-style `62056K`) and, in the usage
// fields TRESUsageIn*/Out*, CPU time as a duration (`cpu=00:01:02`).
struct TresValue {
    enum class Kind { Count, Bytes, Seconds, Text };
    Kind kind = Kind::Text;
    QString raw;   // as printed, e.g. "1000M"
    std::optional<double> number;   // count, bytes or seconds; empty for Text
    bool operator==(const TresValue &) const = default;
};

struct TresParseResult {
    QMap<QString, TresValue> values;   // key as printed, e.g. "gres/gpu:v100"
    Diagnostics diagnostics;   // malformed items (Warning), never fatal

    bool contains(const QString &key) const { return values.contains(key); }
    std::optional<double> number(const QString &key) const;
    std::optional<double> count(const QString &key) const;   // Kind::Count only
    std::optional<double> bytes(const QString &key) const;   // Kind::Bytes only
    std::optional<double> seconds(const QString &key) const;   // Kind::Seconds only
    // GPUs: `gres/gpu` when present, else the sum of typed `gres/gpu:<type>`.
    std::optional<double> gpuCount() const;
};

// Parses `billing=1,cpu=1,gres/gpu:v100=2,gres/gpu=2,mem=1000M,node=1` and the
// usage forms. `field` names the sacct field in diagnostics.
class TresString {
public:
    static TresParseResult parse(QStringView text, const QString &field = {});

    // "62056K", "1000M", "1.5G", "2T", "123" (plain = bytes); 1024-based as Slurm.
    static std::optional<double> parseSizeBytes(QStringView text);
    // GPUs in a per-node/per-job/per-task GRES request as squeue %b and
    // `scontrol show job` TresPerNode print it: "gres:gpu:2" (<= 23.02),
    // "gres/gpu:2" (>= 23.11), typed "gres/gpu:a100:2", bare "gpu:6", lists
    // "gres:gpu:1,gres:gpfs" (no count = 1), "gres/gpu=2" (TresPerTask).
    // "N/A", "" or no GPU item -> nullopt.
    static std::optional<int> gpusInGresRequest(QStringView text);
    // sacct durations: "MM:SS", "MM:SS.mmm", "HH:MM:SS", "D-HH:MM:SS", with optional fraction.
    static std::optional<double> parseDurationSeconds(QStringView text);
};

}   // namespace scalelab
