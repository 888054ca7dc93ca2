#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/LiteralNumberMatcher.h"

#include <QByteArrayView>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QVector>

#include <optional>

namespace scalelab {

enum class MetricAggregation { Last, Mean, Max, Min };

// A metric to read from job output: every match of `regex` gives one value.
// The value is capture group `valueGroup`; with `ratio` it is that group
// divided by the next one ("Accuracy: 9800/10000" -> 0.98).
struct MetricPattern {
    QString name;                 // e.g. "test_accuracy"; patterns with one name form one metric
    QString regex;                // PCRE syntax (QRegularExpression)
    QString unit;                 // e.g. "s", "samples/s"; "" for fractions
    MetricAggregation aggregation = MetricAggregation::Last;
    int valueGroup = 1;
    bool ratio = false;
    // Text every matching line contains, checked before the regex runs;
    // empty = derived from the regex (see LogMetricExtractor::literalOf).
    QString literal;
    // Text every matching line contains that several patterns share (it need
    // not be part of `literal`): patterns with the same anchor share one scan
    // of the log. Empty = literal.
    QString anchor;
};

struct LogMetric {
    QString name;
    QString unit;
    MetricAggregation aggregation = MetricAggregation::Last;
    double value = 0;             // the aggregate
    int count = 0;                // matches that gave a value
    qint64 line = 0;              // 1-based line of the chosen match (mean: the last)
    QString sourceLine;           // that line, rank prefix and all
    QVector<double> values;       // every value in log order (first 100000)
};

struct LogMetricResult {
    QList<LogMetric> metrics;     // in the order the patterns were given
    Diagnostics diagnostics;
    qint64 bytes = 0;

    const LogMetric *find(const QString &name) const;
    std::optional<double> value(const QString &name) const;
};

// Reads metrics from training output (Keras/Horovod, PyTorch, Lightning,
// tf_cnn_benchmarks, this project's example) and from user patterns.
// Lines are raw bytes: each anchor literal is searched with memmem over the
// whole log and only lines containing a pattern's literal reach the regex,
// so a 200 MB log costs a few memory scans. With `rank0Only`, lines that a
// launcher prefixed with a non-zero rank (`[1,3]<stdout>:` from horovodrun /
// mpirun --tag-output, `[default1]:` from torchrun --tee) are ignored,
// because every rank prints the same metrics.
class LogMetricExtractor {
public:
    explicit LogMetricExtractor(const QList<MetricPattern> &userPatterns = {}, bool includeBuiltins = true,
                                bool rank0Only = true);

    static QList<MetricPattern> builtinPatterns();
    // Longest run of literal text every match of `regex` must contain; empty
    // when there is none (top-level alternation, case-insensitive flag, ...).
    static QString literalOf(const QString &regex);
    static QString aggregationId(MetricAggregation a);
    static std::optional<MetricAggregation> aggregationFromId(const QString &id);

    // Problems with the user patterns (bad regex, no capture group); those
    // patterns are left out.
    const Diagnostics &patternDiagnostics() const { return m_diagnostics; }
    int patternCount() const { return int(m_patterns.size()); }

    LogMetricResult extract(QByteArrayView log) const;
    LogMetricResult extractFile(const QString &path) const;

private:
    struct Compiled {
        MetricPattern pattern;
        QRegularExpression re;
        QByteArray literal;
        std::optional<LiteralNumberMatcher> fast;   // set when the regex has that simple shape
        QByteArray alsoRequired;      // further text the line must contain (fast form of a builtin)
        int metric = 0;           // index into the result's metrics
    };
    struct Group {
        QByteArray anchor;
        QList<int> patterns;      // indexes into m_patterns
    };
    QList<Compiled> m_patterns;
    QList<Group> m_groups;
    QStringList m_metricNames;
    Diagnostics m_diagnostics;
    bool m_rank0Only = true;
};

} // namespace scalelab
