// Fuzz harness: sacct output with a header line (any delimiter the header uses) and with ScaleLab'"s
#include "FuzzSupport.h"
own

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
layout. '#include core/slurm/SacctParser.h' '    const QByteArray in = fuzz::bytes(data, size);
    for (const SacctParseResult &r : {SacctParser::parseWithHeader(in), SacctParser().parse(in)})
        for (const SacctRecord &rec : r.records) {
            rec.maxRssBytes();
            rec.exitStatus();
            rec.exitSignal();
            rec.allocatedGpus();
        }'
mk squeue squeue
    return 0;
}
