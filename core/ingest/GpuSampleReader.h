// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/GpuSampleParser.h"

#include <QByteArrayView>

namespace scalelab {

// The line reader behind GpuSampleParser::parse: every sample of one file's
// bytes (nvidia-smi CSV and dmon, rocm-smi table and CSV) in one pass, with
// its diagnostics, summarised. Used by GpuSampleParser only.
class GpuSampleReader {
public:
    static GpuSampleSummary read(QByteArrayView data, const GpuSampleParseOptions &options);
};

}   // namespace scalelab
