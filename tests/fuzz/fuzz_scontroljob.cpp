// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: `scontrol show job` output (multi-line or -o), then every
// value derived from each job: state, TRES and the GPU count with its source.
#include "FuzzSupport.h"
#include "core/slurm/ScontrolJobParser.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ScontrolJobParseResult r = ScontrolJobParser::parse(fuzz::bytes(data, size));
    for (const ScontrolJob &job : r.jobs) {
        job.jobId();
        job.state();
        job.allocTres();
        job.reqTres();
        gpuCountSourceId(job.gpus().source);
    }
    return 0;
}
