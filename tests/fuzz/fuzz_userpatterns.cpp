// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz harness: a researcher's pattern file (`metrics --patterns`, a study's
// metricPatterns) and a log they run on. The input is the pattern JSON, a
// line holding only "---", then the log. User regexes run through RE2
// (UserRegex): any pattern, however nested, costs time linear in the log.
#include "FuzzSupport.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/StudyMetricPatterns.h"

using namespace scalelab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(std::min<size_t>(size, 65536)));
    const qsizetype cut = input.indexOf("\n---\n");
    const QByteArray patterns = cut < 0 ? input : input.left(cut);
    const QByteArray log = cut < 0 ? QByteArray() : input.mid(cut + 5);
    const StudyNotesContent notes =
        StudyMetricPatterns::read(QStringLiteral("{\"metricPatterns\": %1}").arg(QString::fromUtf8(patterns)));
    const LogMetricExtractor extractor(notes.patterns, false);
    extractor.extract(log);
    return 0;
}
