// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: the discovery parsers of `scontrol show partition`, `show
// node` (both -o and multi-line) and `show config`, each fed the whole input
// (a mutated partition line is as likely to reach the node parser), then
// every value derived from the records.
#include "FuzzSupport.h"
#include "core/discovery/ScontrolParsers.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString in = fuzz::text(data, size);
    ScontrolParsers::partitions(in);
    for (const NodeFacts &n : ScontrolParsers::nodes(in).items) {
        n.gpus();
        n.gpuType();
    }
    const ConfigFacts config = ScontrolParsers::config(in);
    config.version();
    config.accountingCountsGpus();
    // The GRES and TRES field parsers on the raw text too: the record
    // splitter only hands them what follows "Gres=" / "CfgTRES=".
    ScontrolParsers::gres(in);
    ScontrolParsers::gresFromTres(in);
    return 0;
}
