// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The types of log metric reading: a rule (MetricPattern), a metric read
// (LogMetric) and one log's result (LogMetricResult).

#include "core/base/Diagnostic.h"
#include "core/ingest/RunEndReader.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace scalelab {

// How the values of one metric become one number. PerRankSum: each rank's
// values are averaged, then the ranks' averages are added (throughput every
// rank prints for itself); it needs rank-labelled lines from at least two ranks.
enum class MetricAggregation { Last, Mean, Max, Min, PerRankSum };

// How the matched text becomes the value.
enum class ValueForm {
    Number,   // as printed
    Percent,   // "96%" -> 0.96 (accuracies are fractions in the store)
    Reciprocal,   // tqdm "12.70s/it" -> 1/12.70 it/s
    Duration,   // Hugging Face "0:04:37.12" -> 277.12 s
    Milliseconds,   // Megatron "elapsed time per iteration (ms): 1234.5" -> 1.2345 s
};

// A metric to read from job output: every match of `regex` gives one value.
// The value is capture group `valueGroup`; with `ratio` it is that group
// divided by the next one ("Accuracy: 9800/10000" -> 0.98).
struct MetricPattern {
    QString name;   // e.g. "test_accuracy"; patterns with one name form one metric
    QString regex;   // built-in: PCRE (QRegularExpression); user: RE2 syntax (UserRegex, linear time)
    QString unit;   // e.g. "s", "samples/s"; "" for fractions
    MetricAggregation aggregation = MetricAggregation::Last;
    int valueGroup = 1;
    bool ratio = false;
    // Text every matching line contains, checked before the regex runs;
    // empty = derived from the regex (see RegexLiterals::longest).
    QString literal;
    // Text every matching line contains that several patterns share (it need
    // not be part of `literal`): patterns with the same anchor share one scan
    // of the log. Empty = literal.
    QString anchor;

    // Built-in readers (FrameworkReaders.cpp) also say:
    QString rule;   // stable id, e.g. "hf.dict.eval_loss"; user patterns: "patterns[i]"
    QString meaning;   // one sentence for tooltips and `scalelab metrics`
    ValueForm form = ValueForm::Number;
    int stepGroup = 0;   // capture group holding the step/epoch (0 = none)
    int rankGroup = 0;   // capture group holding the rank (0 = from the line's prefix)
    QString stepLiteral;   // step = the number after this text on the same line
    // When set, the value is the number printed right before this text
    // ("2.21it/s", "212.4 images/sec"), found without a regex so that a long
    // run of digits costs linear time; `regex` then only documents the rule.
    QString numberBefore;
    QStringList excludeIf;   // lines containing any of these are not this rule's
    bool ncclTable = false;   // the nccl-/rccl-tests result table (NcclTestsReader)
    int tqdmCounter = 0;   // tqdm's "n/total [..<.., rate": 1 = n, 2 = total (read by hand, no regex)
    // The line does not say whether the number is one GPU's or the whole
    // job's: its values are never a metric, only a "metric-ambiguous" finding.
    bool ambiguous = false;
    // Printed by one rank only, not always rank 0 (Megatron prints from the
    // last rank): lines labelled with any rank are read.
    bool anyRank = false;
    QString example;   // a line in the framework's format this rule reads (`metrics --list-readers`)
};

struct LogMetric {
    QString name;
    QString unit;
    MetricAggregation aggregation = MetricAggregation::Last;
    double value = 0;   // the aggregate
    int count = 0;   // matches that gave a value
    qint64 line = 0;   // 1-based line of the chosen match (mean: the last)
    QString sourceLine;   // that line, rank prefix and all
    QVector<double> values;   // every value in log order (first kMaxHits)
    QVector<double> steps;   // the step/epoch of each value; NaN = not printed
    // Where it came from.
    QString file;   // the log (extractFile), "" for in-memory text
    QString rule;   // rule of the chosen match
    QString meaning;
    QString formula;   // for derived values: how the number was computed; "" = as printed
    int ranks = 0;   // PerRankSum: ranks added
};

struct LogMetricResult {
    QList<LogMetric> metrics;   // in the order the patterns were given
    QList<RunEnd> runEnds;   // how Slurm says the job or a step ended (RunEndReader)
    Diagnostics diagnostics;
    qint64 bytes = 0;
    QString file;

    const LogMetric *find(const QString &name) const;
    std::optional<double> value(const QString &name) const;
};

}   // namespace scalelab
