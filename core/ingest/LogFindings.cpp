// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LogFindings.h"

#include "core/base/InputLimits.h"
#include "core/ingest/LogMetricExtractor.h"

#include <limits>

namespace scalelab {

Diagnostic LogFindings::truncatedLine(qint64 line)
{
    return {Severity::Info,
            QStringLiteral("log-truncated-line"),
            {},
            int(line),
            0,
            QStringLiteral("line %1: the log ends without a line break, so its last line may be cut off; values on "
                           "it were not read")
                .arg(line),
            {}};
}

Diagnostic LogFindings::lineTooLong(qint64 bytes, const MetricPattern &rule)
{
    return {Severity::Info,
            QStringLiteral("log-line-too-long"),
            rule.rule,
            0,
            0,
            QStringLiteral("a line of %1 bytes is longer than %2 KB; rule %3 (%4) was not applied to it")
                .arg(bytes)
                .arg(LogMetricExtractor::kMaxRegexLine / 1024)
                .arg(rule.rule, rule.name),
            {}};
}

Diagnostic LogFindings::perRankUnlabelled(const LogMetric &m)
{
    return {Severity::Info,
            QStringLiteral("metric-per-rank-unlabelled"),
            m.name,
            int(m.line),
            0,
            QStringLiteral("%1 value(s) but lines labelled with %2 rank(s); a per-rank sum needs labels from every "
                           "rank (srun --label, torchrun --tee 3); not reported")
                .arg(m.count)
                .arg(m.ranks),
            {}};
}

Diagnostic LogFindings::ambiguous(const MetricPattern &p, qint64 line, int count, double first)
{
    return {Severity::Warning,
            QStringLiteral("metric-ambiguous"),
            p.rule,
            int(line),
            0,
            QStringLiteral("line %1: %2 value(s) like %3 %4 (rule %5: %6), but the line does not say whether it is "
                           "one GPU's or the whole job's, so it is not reported; add a pattern (--patterns) naming "
                           "the metric you know it is")
                .arg(line)
                .arg(count)
                .arg(first, 0, 'g', 8)
                .arg(p.unit, p.rule, p.meaning),
            {}};
}

Diagnostic LogFindings::noMetrics(qsizetype rules, const QStringList &families, const QString &closest)
{
    return {Severity::Warning,
            QStringLiteral("log-no-metrics"),
            {},
            0,
            0,
            QStringLiteral("no value was read: %1 rules of these readers looked for their text (%2; `scalelab metrics "
                           "--list-readers` shows each with an example line); %3")
                .arg(rules)
                .arg(families.join(QStringLiteral(", ")),
                     closest.isEmpty()
                         ? QStringLiteral("no line held any reader's fixed text")
                         : QStringLiteral("lines that held a reader's text but no value it reads:") + closest),
            {}};
}

QString LogFindings::quotedLine(const char *begin, const char *end)
{
    const char *e = begin;
    while (e < end && *e != '\n' && *e != '\r' && e - begin < 200)
        ++e;
    return u'\'' + InputLimits::quoted(QString::fromUtf8(begin, e - begin).trimmed()) + u'\'';
}

// MLPerf's time to train: run_stop (status success) minus run_start, both in ms.
void LogFindings::addDerived(LogMetricResult &r)
{
    const LogMetric *start = r.find(QStringLiteral("mlperf_run_start_ms"));
    const LogMetric *stop = r.find(QStringLiteral("mlperf_run_stop_ms"));
    if (!start || !stop || stop->line < start->line || stop->value < start->value)
        return;
    LogMetric m = *stop;
    m.name = QStringLiteral("time_to_train_s");
    m.unit = QStringLiteral("s");
    m.value = (stop->value - start->value) / 1000.0;
    m.count = 1;
    m.values = {m.value};
    m.steps = {std::numeric_limits<double>::quiet_NaN()};
    m.meaning = QStringLiteral("MLPerf time to train: from run_start to a successful run_stop");
    m.formula = QStringLiteral("(run_stop time_ms line %1 - run_start time_ms line %2) / 1000")
                    .arg(stop->line)
                    .arg(start->line);
    r.metrics.append(m);
}

}   // namespace scalelab
