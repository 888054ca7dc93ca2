// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: an sbatch script through the whole import and lint (parser, launch lines, options, linter, shell words).
#include "FuzzSupport.h"
#include "core/scriptimport/ScriptImporter.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ScriptImport imp = importSbatchScript(fuzz::text(data, size), fuzz::profile());
    (void)imp;
    return 0;
}
