// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: job output through the built-in metric patterns. The F3
// shapes (regexes that backtracked on long digit runs before "samples/s")
// are kept in corpus/logmetrics/f3-*, each line under the extractor's 64 KB
// regex line cap so the patterns really run on it (the megabyte case and its
// time are in tests/unit/tst_ingest_frameworks).
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
