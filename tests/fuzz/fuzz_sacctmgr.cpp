// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: `sacctmgr -P show assoc` and `show qos` output (read by
// their header line), then the limits derived from each QOS.
#include "FuzzSupport.h"
#include "core/discovery/SacctmgrParsers.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString in = fuzz::text(data, size);
    SacctmgrParsers::associations(in);
    for (const QosFacts &q : SacctmgrParsers::qos(in).items) {
        q.maxGpusPerJob();
        q.maxNodesPerJob();
    }
    return 0;
}
