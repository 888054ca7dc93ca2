// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/CompiledRule.h"
#include "core/ingest/MetricPattern.h"

#include <QMap>
#include <QVector>

#include <string>
#include <utility>

namespace scalelab {

// One metric of a log scan, built as its values arrive in log order (one
// rule per line already chosen): the values and steps, the running sum, the
// value the aggregation chooses with its line, and per-rank sums. Nothing is
// kept per value but the two numbers, so a log of any length costs no more.
class MetricAccumulator {
public:
    struct Value {
        RuleValue read;
        int rule = 0;   // index into the rule set's rules
        MetricAggregation aggregation = MetricAggregation::Last;   // the rule's
        qint64 offset = 0;   // of the line in the log
        const char *lineBegin = nullptr;   // the line, valid until keepChosenLine()
        const char *lineEnd = nullptr;
    };

    void add(const Value &v);
    int count() const { return int(m_values.size()); }

    // The chosen value's line, copied while the text it was read from is
    // still there; its offset in the log, or -1 when it is kept already.
    qint64 keepChosenLine();
    // Where that line's number goes once it is counted.
    qint64 *chosenLineNumber() { return &m_chosenLine; }

    // The metric as reported (rule, meaning and formula from the chosen
    // value's rule); line = the chosen value's line number.
    LogMetric result(const QList<CompiledRule> &rules) const;

private:
    QVector<double> m_values;
    QVector<double> m_steps;
    double m_sum = 0;
    Value m_chosen;
    bool m_chosenLineKept = true;
    std::string m_chosenText;
    qint64 m_chosenLine = 0;
    QMap<int, std::pair<double, int>> m_perRank;   // rank -> (sum, values)
    // The first value's rule names the metric and says how its values combine.
    int m_firstRule = 0;
    MetricAggregation m_aggregation = MetricAggregation::Last;
};

}   // namespace scalelab
