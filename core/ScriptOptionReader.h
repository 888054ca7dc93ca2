#pragma once

#include "ScriptImporter.h"

#include <optional>

namespace scalelab {

// Reads the #SBATCH options of an import into its ScriptRequest and the spec
// fields they set (account, partition, time, nodes, GPUs, CPUs, memory), with
// findings for invalid values and options that contradict each other.
void readScriptOptions(ScriptImport &imp);

// "4" -> 4; nullopt for anything but a positive whole number.
std::optional<int> positiveInt(const QString &text);

} // namespace scalelab
