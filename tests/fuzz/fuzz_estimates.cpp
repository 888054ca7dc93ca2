// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: what comes back before a job starts: sbatch --test-only's
// replies (one and the batch of StartEstimator), pending reasons, billing
// weights and sshare's allocation.
#include "FuzzSupport.h"
#include "core/client/StartEstimator.h"
#include "core/discovery/SshareAllocationParser.h"
#include "core/slurm/BillingWeights.h"
#include "core/slurm/PendingReason.h"
#include "core/slurm/SbatchTestOnlyParser.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString s = fuzz::text(data, size);
    (void)SbatchTestOnlyParser::parse(s);
    (void)StartEstimator::parseOutput(s).describe();
    (void)PendingReason::explain(s);
    TresRequest r;
    r.cpus = 8;
    r.gpus = 4;
    r.nodes = 1;
    (void)BillingWeights::parse(s).billingOf(r);
    (void)SshareAllocationParser::parse(s).text();
    return 0;
}
