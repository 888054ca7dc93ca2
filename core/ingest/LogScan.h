// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ingest/AnchorScan.h"
#include "core/ingest/CompiledRule.h"
#include "core/ingest/LogRuleSet.h"
#include "core/ingest/MetricAccumulator.h"
#include "core/ingest/NcclTestsReader.h"

#include <QMap>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scalelab {

// One read of one log with a rule set, fed piece by piece (a file is read
// through one reused buffer, never mapped or held whole). Per piece: one
// AnchorScan pass finds every anchor; each line holding one is read once per
// group of rules sharing it; a line's values wait until the line is done, so
// that for each metric the first rule that read the line wins; then they go
// straight into the metrics' accumulators. Line numbers are counted once per
// piece for the few values that need one. Memory does not grow with the log.
class LogScan {
public:
    LogScan(const LogRuleSet &rules, bool rank0Only);

    // The anchor scan's tables, chosen on the log's start (feed() chooses them
    // on its first piece when this was not called).
    void prepare(std::string_view sample);
    // The next piece: whole lines ending with '\n', but for the last piece.
    void feed(std::string_view piece, bool last);
    LogMetricResult finish();

private:
    struct LineValue {
        int rule;
        int metric;
        RuleValue read;   // rank resolved
    };
    struct Ambiguous {
        int count = 0;
        qint64 offset = 0;
        qint64 line = -1;   // -1 until counted
        double first = 0;
    };
    struct Miss {
        qint64 offset;
        qint64 line;   // -1 until counted
        QString quoted;
    };

    void scanPiece();
    void scanLine(int group, const char *ls, const char *le, bool unanchored);
    void startLine(const char *ls, const char *le);
    bool lineHas(int text);
    bool settled(const CompiledRule &rule, int index, const char *ls) const;
    void findAnchors(const QByteArray &anchor);
    bool literalAtAnchor(const CompiledRule &rule) const;
    void keep(const CompiledRule &rule, int index, const RuleValue *found, int n, qint64 offset);
    void noteMiss(const char *ls, bool unanchored);
    void runEnd(const char *ls, const char *le);
    void unanchoredThrough(const char *ls);
    void endLine();
    void ncclRows(std::string_view piece);
    void countLines();
    QList<Miss> misses() const;
    void reportUnread(LogMetricResult &result) const;

    const LogRuleSet &m_rules;
    const bool m_rank0Only;
    std::unique_ptr<AnchorScan::Plan> m_plan;
    std::vector<int> m_ncclRules;
    NcclTestsReader m_nccl;

    // The piece being read.
    const char *m_begin = nullptr;
    const char *m_end = nullptr;
    qint64 m_base = 0;   // its offset in the log
    qint64 m_tail = std::numeric_limits<qint64>::max();   // values at or after this offset are on a cut last line
    std::vector<const char *> m_doneUntil;   // per group: lines before this were read
    const char *m_unanchoredAt = nullptr;   // next line the rules without anchor read

    // The line the previous anchor was in, kept for the next anchors in it.
    const char *m_lineStart = nullptr;
    const char *m_lineEnd = nullptr;
    std::string_view m_raw;
    int m_lineRank = -1;
    RuleLine m_line;
    std::string m_ansiFree;
    uint32_t m_lineStamp = 0;
    std::vector<uint32_t> m_textStamp;   // per LogRuleSet::texts(): the line its answer is for
    std::vector<char> m_textFound;
    std::vector<size_t> m_anchorAt;   // positions of the anchor of the group being read
    // The values read on that line, kept until it is done.
    std::vector<LineValue> m_lineValues;
    const char *m_valuesStart = nullptr;
    const char *m_valuesEnd = nullptr;
    std::vector<int> m_firstRule;   // per metric, while a line ends: the rule that wins

    // What the log gave so far.
    std::vector<MetricAccumulator> m_metrics;
    std::vector<int> m_taken;   // per metric: values taken (before the one-rule-per-line choice)
    QMap<int, Ambiguous> m_ambiguous;   // per rule
    int m_ambiguousValues = 0;
    QList<RunEnd> m_runEnds;
    qsizetype m_runEndsCounted = 0;
    QList<Miss> m_misses;   // lines with an anchor but no value (first three)
    QList<Miss> m_unanchoredMisses;   // the same for the rules without anchor
    Diagnostics m_diagnostics;
    Diagnostics m_unanchoredDiagnostics;
    std::vector<bool> m_tooLongNoted;
    bool m_tailSkipped = false;
    qint64 m_tailLine = 0;
    qint64 m_lines = 0;   // line breaks before the piece
    qint64 m_bytes = 0;
};

}   // namespace scalelab
