// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: job output through the built-in metric patterns. The F3
// inputs (regexes that backtrack on long digit runs) belong to the metric
// extractor's own fix; this harness keeps the crash and memory checks.
#include "FuzzSupport.h"
#include "core/ingest/LogMetricExtractor.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const LogMetricExtractor extractor;
    // Logs can be huge, but the patterns are matched per line: 64 KB of input
    // exercises everything without making each fuzz run slow.
    extractor.extract(QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(std::min<size_t>(size, 65536))));
    return 0;
}
