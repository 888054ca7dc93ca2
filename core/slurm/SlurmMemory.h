// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

namespace scalelab {

// A per-node memory no machine has (1 PB): beyond it a value is a typo, and
// products of it (per GPU x GPUs) could overflow.
constexpr qint64 kMaxMemoryMB = qint64(1) << 30;

// A Slurm memory size as --mem and --mem-per-gpu take it ("64G", "16000",
// "512M", "2T"; no unit means megabytes), in MB. nullopt when it is not one,
// or when its count is past 2^40 of any unit: "99999999999999T" is refused
// here instead of overflowing the multiplication.
std::optional<qint64> slurmMemoryMB(const QString &text);

}   // namespace scalelab
