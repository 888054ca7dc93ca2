// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: the GPU sample CSV (nvidia-smi and rocm-smi forms).
#include "FuzzSupport.h"
#include "core/ingest/GpuSampleParser.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GpuSampleParser::parse(QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size)));
    return 0;
}
