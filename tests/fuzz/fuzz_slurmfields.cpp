// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: the small Slurm field parsers: times, TRES strings, sizes, durations and job states.
#include "FuzzSupport.h"
#include "core/slurm/SlurmJobState.h"
#include "core/slurm/SlurmTime.h"
#include "core/slurm/TresString.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString s = fuzz::text(data, size);
    if (const auto secs = SlurmTime::parseSeconds(s))
        SlurmTime::format(*secs);
    TresString::parse(s, QStringLiteral("AllocTRES"));
    TresString::parseSizeBytes(s);
    TresString::parseDurationSeconds(s);
    SlurmJobState::parse(s);
    return 0;
}
