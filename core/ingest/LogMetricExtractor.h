// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/base/Diagnostic.h"
#include "core/ingest/MetricPattern.h"

#include <QByteArrayView>
#include <QList>
#include <QString>

#include <limits>
#include <memory>
#include <optional>

namespace scalelab {

class LogRuleSet;

// Reads metrics from training output with the per-framework tables of
// FrameworkReaders plus user patterns (LogRuleSet), in one LogScan. Lines are
// raw bytes: one AnchorScan pass finds every rule's anchor text and only lines
// holding a rule's texts reach its regex, so a 200 MB log costs a few memory
// scans; a file is read in pieces through one buffer. '\r' ends a line too
// (progress bars), ANSI escape sequences are removed before matching. Regexes
// only see lines up to 64 KB (noted when a longer line is skipped), so job
// output cannot make ingest quadratic. With `rank0Only`, lines a launcher
// labelled with a non-zero rank (`[1,3]<stdout>:` mpirun --tag-output,
// `[default1]:` torchrun --tee, ` 3: ` srun --label, `[Rank 3]` DeepSpeed) are
// ignored, because every rank prints the same metrics; PerRankSum metrics read
// every rank. When two rules of one metric match the same line, the first rule
// wins.
class LogMetricExtractor {
public:
    static constexpr int kMaxPerLine = 64;   // values one pattern may take from one line
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    explicit LogMetricExtractor(const QList<MetricPattern> &userPatterns = {}, bool includeBuiltins = true,
                                bool rank0Only = true);

    // The built-in readers, one table (FrameworkReaders.cpp, StackReaders.cpp).
    static QList<MetricPattern> builtinPatterns();
    static QString aggregationId(MetricAggregation a);
    static std::optional<MetricAggregation> aggregationFromId(const QString &id);

    // Problems with the user patterns (bad regex, no capture group); those
    // patterns are left out.
    const Diagnostics &patternDiagnostics() const;
    int patternCount() const;

    LogMetricResult extract(QByteArrayView log) const;
    // The file read in pieces of `pieceBytes` (a line longer than that
    // grows the buffer), never mapped nor held whole.
    LogMetricResult extractFile(const QString &path, qsizetype pieceBytes = kReadBytes) const;

    static constexpr qsizetype kReadBytes = 256 * 1024;
    static constexpr qsizetype kMaxRegexLine = 64 * 1024;
    static constexpr int kMaxHits = 200000;   // values kept per metric
    // User patterns read (each at most UserRegex::kMaxPatternChars long); the
    // rest are refused with one finding, so a pattern file cannot make ingest
    // run a regex over every line a hundred thousand times.
    static constexpr int kMaxUserPatterns = 100;

private:
    std::shared_ptr<const LogRuleSet> m_rules;
    bool m_rank0Only = true;
};

}   // namespace scalelab
