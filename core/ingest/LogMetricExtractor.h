// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/AnchorScan.h"
#include "core/ingest/LiteralNumberMatcher.h"
#include "core/ingest/RunEndReader.h"
#include "core/ingest/UserRegex.h"

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QVector>

#include <deque>
#include <limits>
#include <optional>
#include <string_view>

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
    // empty = derived from the regex (see LogMetricExtractor::literalOf).
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

// Reads metrics from training output with the per-framework tables of
// FrameworkReaders plus user patterns. Lines are raw bytes: each anchor
// literal is searched with memmem over the whole log and only lines
// containing a pattern's literal reach the regex, so a 200 MB log costs a few
// memory scans. '\r' ends a line too (progress bars), ANSI escape sequences
// are removed before matching. Regexes only see lines up to 64 KB (noted
// when a longer line is skipped), so job output cannot make ingest quadratic.
// With `rank0Only`, lines a launcher labelled with a non-zero rank
// (`[1,3]<stdout>:` mpirun --tag-output, `[default1]:` torchrun --tee,
// ` 3: ` srun --label, `[Rank 3]` DeepSpeed) are ignored, because every rank
// prints the same metrics; PerRankSum metrics read every rank.
// When two rules of one metric match the same line, the first rule wins.
class LogMetricExtractor {
public:
    static constexpr int kMaxPerLine = 64;   // values one pattern may take from one line
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    explicit LogMetricExtractor(const QList<MetricPattern> &userPatterns = {}, bool includeBuiltins = true,
                                bool rank0Only = true);

    static QList<MetricPattern> builtinPatterns();   // FrameworkReaders.cpp
    // Longest run of literal text every match of `regex` must contain; empty
    // when there is none (top-level alternation, case-insensitive flag, ...).
    static QString literalOf(const QString &regex);
    // Every run of literal text (3 characters or more) a match must contain,
    // the longest first; empty when literalOf is.
    static QStringList literalsOf(const QString &regex);
    static QString aggregationId(MetricAggregation a);
    static std::optional<MetricAggregation> aggregationFromId(const QString &id);

    // Problems with the user patterns (bad regex, no capture group); those
    // patterns are left out.
    const Diagnostics &patternDiagnostics() const { return m_diagnostics; }
    int patternCount() const { return int(m_patterns.size()); }

    LogMetricResult extract(QByteArrayView log) const;
    LogMetricResult extractFile(const QString &path) const;

    static constexpr qsizetype kMaxRegexLine = 64 * 1024;
    static constexpr int kMaxHits = 200000;   // values kept per metric
    // User patterns read (each at most UserRegex::kMaxPatternChars long); the
    // rest are refused with one finding, so a pattern file cannot make ingest
    // run a regex over every line a hundred thousand times.
    static constexpr int kMaxUserPatterns = 100;

private:
    struct Compiled {
        MetricPattern pattern;
        QRegularExpression re;   // built-in patterns
        std::optional<UserRegex> user;   // user patterns
        QByteArray literal;
        QByteArray numberBefore;
        QByteArray stepLiteral;
        QList<QByteArray> exclude;
        std::optional<LiteralNumberMatcher> fast;   // set when the regex has that simple shape
        QByteArray alsoRequired;   // further text the line must contain (fast form of a builtin)
        bool literalIsAnchor = false;   // the scan found it already: no second search
        QList<QByteArray> required;   // builtin regex rules: the regex's other fixed texts, checked first
        int metric = 0;   // index into the result's metrics
    };
    struct Group {
        QByteArray anchor;
        QList<int> patterns;   // indexes into m_patterns
    };
    struct SegmentMatch {
        double value;
        double step;
        int rank;   // -1 = the line's
    };
    struct Hit {
        qint64 offset;   // start of the line
        qint64 end;
        double value;
        double step;
        int rank;
        int pattern;
    };
    struct Scan;   // the state of one extract() (LogMetricExtraction.cpp)
    std::optional<Compiled> compile(const MetricPattern &p, bool user, const QString &where);
    void addPattern(Compiled c, bool user, const QString &where, QHash<QByteArray, int> &groupOf);
    static double stepOf(const Compiled &c, std::string_view line);
    static int matchNumberBefore(const Compiled &c, std::string_view line, SegmentMatch *out, int max);
    static int matchRegex(const Compiled &c, std::string_view line, std::optional<QString> &text, SegmentMatch *out,
                          int max);
    int matchSegment(const Compiled &c, std::string_view line, std::optional<QString> &text, SegmentMatch *out, int max,
                     bool *tooLong) const;
    void scanLine(Scan &s, int group, const char *ls, const char *le) const;
    void scanAll(Scan &s) const;
    void report(Scan &s) const;
    void reportUnread(Scan &s, const QHash<qint64, qint64> &lineOf) const;
    LogMetric aggregate(const std::deque<Hit> &hits, const char *begin) const;

    QList<Compiled> m_patterns;
    QList<Group> m_groups;
    std::optional<AnchorScan> m_scan;   // the groups' anchors, then RunEndReader's
    QList<int> m_unanchored;   // groups with no anchor: every line
    QStringList m_metricNames;
    Diagnostics m_diagnostics;
    bool m_rank0Only = true;
};

}   // namespace scalelab
