// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/MetricPattern.h"

#include <QStringList>

namespace scalelab {

// The findings of a log scan, worded once: a cut last line, a line too long
// for a regex, a per-rank sum without rank labels, values whose scope the
// line does not say, a log that gave nothing; and the values derived from
// others (MLPerf's time to train).
class LogFindings {
public:
    static Diagnostic truncatedLine(qint64 line);
    static Diagnostic lineTooLong(qint64 bytes, const MetricPattern &rule);
    static Diagnostic perRankUnlabelled(const LogMetric &m);
    static Diagnostic ambiguous(const MetricPattern &rule, qint64 line, int count, double first);
    // `families`: the readers looked for; `closest`: lines holding a reader's
    // text ("\n  line N: 'text'" each), empty when none did.
    static Diagnostic noMetrics(qsizetype rules, const QStringList &families, const QString &closest);
    // A line as `closest` quotes it: up to 200 bytes, until its line break.
    static QString quotedLine(const char *begin, const char *end);

    static void addDerived(LogMetricResult &r);
};

}   // namespace scalelab
