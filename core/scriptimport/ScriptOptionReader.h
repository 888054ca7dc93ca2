// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/scriptimport/ScriptImporter.h"

#include <optional>

namespace scalelab {

// Reads the #SBATCH options of an import into its ScriptRequest and the spec
// fields they set (account, partition, time, nodes, GPUs, CPUs, memory), with
// findings for invalid values and options that contradict each other.
void readScriptOptions(ScriptImport &imp);

// Counts beyond any cluster (nodes, tasks, GPUs, CPUs) are refused so that
// the arithmetic on them cannot overflow.
constexpr int kMaxScriptCount = 100000;

// "4" -> 4; nullopt for anything but a whole number in 1..kMaxScriptCount.
std::optional<int> positiveInt(const QString &text);

// a x b, saturated at kMaxScriptCount.
inline int satMul(int a, int b)
{
    const qint64 p = qint64(a) * qint64(b);
    return p > kMaxScriptCount ? kMaxScriptCount : int(p);
}

}   // namespace scalelab
