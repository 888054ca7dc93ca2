// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: sacct output with a header line (any delimiter the header
// uses) and in ScaleLab's own layout, then every derived value of each record.
#include "FuzzSupport.h"
#include "core/slurm/SacctParser.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray in = fuzz::bytes(data, size);
    for (const SacctParseResult &r : {SacctParser::parseWithHeader(in), SacctParser().parse(in)})
        for (const SacctRecord &rec : r.records) {
            rec.maxRssBytes();
            rec.exitStatus();
            rec.exitSignal();
            rec.allocatedGpus();
        }
    return 0;
}
