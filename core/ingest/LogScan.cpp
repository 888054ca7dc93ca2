// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/ingest/LogScan.h"

#include "core/ingest/LogFindings.h"
#include "core/ingest/LogLineText.h"
#include "core/ingest/LogMetricExtractor.h"
#include "core/ingest/RunEndReader.h"

#include <algorithm>
#include <utility>

namespace scalelab {

namespace {

// The misses kept per list: three, and one more where the first of the rules
// without anchor may repeat the last of the anchored ones.
constexpr qsizetype kMisses = 3;

// The line's rank before it is read (lineRank gives -1 for none).
constexpr int kRankUnread = -2;

}   // namespace

LogScan::LogScan(const LogRuleSet &rules, bool rank0Only)
    : m_rules(rules)
    , m_rank0Only(rank0Only)
{
    const QList<CompiledRule> &all = rules.rules();
    for (int i = 0; i < int(all.size()); ++i)
        if (all[i].pattern.ncclTable)
            m_ncclRules.push_back(i);
    m_doneUntil.resize(size_t(rules.groups().size()));
    m_textStamp.assign(size_t(rules.texts().size()), 0);
    m_textFound.assign(size_t(rules.texts().size()), 0);
    m_firstRule.assign(size_t(rules.metricNames().size()), -1);
    m_metrics.resize(size_t(rules.metricNames().size()));
    m_taken.assign(size_t(rules.metricNames().size()), 0);
    m_tooLongNoted.assign(size_t(all.size()), false);
}

void LogScan::prepare(std::string_view sample)
{
    m_plan = m_rules.anchorScan().plan(sample.substr(0, AnchorScan::kSampleBytes));
}

void LogScan::feed(std::string_view piece, bool last)
{
    if (!m_plan)
        prepare(piece);
    m_begin = piece.data();
    m_end = m_begin + piece.size();
    m_bytes += qint64(piece.size());
    // A log that does not end with a line break was cut while being written
    // (job killed, fetch of a growing file): its last line may hold half a
    // number ("0.98" of "0.9852"), so nothing is read from it.
    if (last && !piece.empty() && piece.back() != '\n' && piece.back() != '\r') {
        const size_t cut = piece.find_last_of("\n\r");
        const size_t tail = cut == std::string_view::npos ? 0 : cut + 1;
        m_tail = m_base + qint64(tail);
        m_tailLine = m_lines + logtext::countNewlines(m_begin, m_begin + tail) + 1;
    }
    std::fill(m_doneUntil.begin(), m_doneUntil.end(), m_begin);
    m_lineStart = m_lineEnd = nullptr;
    m_valuesStart = m_valuesEnd = nullptr;
    m_unanchoredAt = m_begin;
    if (!piece.empty())
        scanPiece();
    endLine();
    ncclRows(piece);
    countLines();
    m_base += qint64(piece.size());
}

// One pass finds every anchor; each line holding one is read once per group.
void LogScan::scanPiece()
{
    const char *const begin = m_begin;
    const char *const end = m_end;
    auto bounds = [&](const char *at, const char **ls, const char **le) {
        if (m_lineStart && at >= m_lineStart && at < m_lineEnd) {
            *ls = m_lineStart;
            *le = m_lineEnd;
            return;
        }
        // The segment around the hit: '\r' separates progress-bar updates too.
        *ls = logtext::lineStart(begin, at);
        *le = logtext::lineEnd(at, end);
    };
    const int groups = int(m_rules.groups().size());
    const bool unanchored = !m_rules.unanchored().isEmpty();
    m_rules.anchorScan().scan(*m_plan, std::string_view(begin, size_t(end - begin)), [&](int anchor, size_t offset) {
        const char *at = begin + offset;
        if (anchor < groups && at < m_doneUntil[size_t(anchor)])
            return true;
        const char *ls = nullptr;
        const char *le = nullptr;
        bounds(at, &ls, &le);
        if (anchor >= groups) {
            runEnd(ls, le);
            return true;
        }
        if (unanchored)
            unanchoredThrough(ls);
        m_doneUntil[size_t(anchor)] = le;
        scanLine(anchor, ls, le, false);
        return true;
    });
    if (unanchored)
        unanchoredThrough(end);
}

// The rules without anchor read every line, up to and with the one at `through`.
void LogScan::unanchoredThrough(const char *through)
{
    const int group = m_rules.unanchored().front();   // one group: the empty anchor
    while (m_unanchoredAt < m_end && m_unanchoredAt <= through) {
        const char *ls = m_unanchoredAt;
        const char *le = logtext::lineEnd(ls, m_end);
        scanLine(group, ls, le, true);
        m_unanchoredAt = le + 1;
    }
}

void LogScan::runEnd(const char *ls, const char *le)
{
    const qint64 offset = m_base + (ls - m_begin);
    if (offset >= m_tail || m_runEnds.size() >= RunEndReader::kMaxEnds)
        return;
    auto e = RunEndReader::readLine(std::string_view(ls, size_t(le - ls)));
    if (!e || (!m_runEnds.isEmpty() && m_runEnds.back().text == e->text))
        return;
    e->line = offset;   // an offset until countLines()
    m_runEnds.append(*e);
}

void LogScan::startLine(const char *ls, const char *le)
{
    m_lineStart = ls;
    m_lineEnd = le;
    m_raw = std::string_view(ls, size_t(le - ls));
    m_lineRank = kRankUnread;
    m_line.reset(logtext::withoutAnsi(m_raw, m_ansiFree));
    ++m_lineStamp;
}

// Whether the line holds one of the rule set's texts; asked once per line.
bool LogScan::lineHas(int text)
{
    if (m_textStamp[size_t(text)] != m_lineStamp) {
        const LogRuleSet::Text &t = m_rules.texts()[text];
        m_textStamp[size_t(text)] = m_lineStamp;
        m_textFound[size_t(text)] = logtext::contains(t.raw ? m_raw : m_line.text,
                                                      std::string_view(t.bytes.constData(), size_t(t.bytes.size())));
    }
    return m_textFound[size_t(text)] != 0;
}

void LogScan::scanLine(int group, const char *ls, const char *le, bool unanchored)
{
    if (ls != m_lineStart || le != m_lineEnd)
        startLine(ls, le);
    if (ls != m_valuesStart) {
        endLine();
        m_valuesStart = ls;
        m_valuesEnd = le;
    }
    const QList<CompiledRule> &rules = m_rules.rules();
    RuleValue found[LogMetricExtractor::kMaxPerLine];
    bool any = false;
    bool anchorsFound = false;
    for (int ri : m_rules.groups()[group].rules) {
        const CompiledRule &c = rules[ri];
        if (!unanchored && settled(c, ri, ls))
            continue;
        if (std::any_of(c.excludeTexts.begin(), c.excludeTexts.end(), [&](int t) { return lineHas(t); })
            || !std::all_of(c.neededTexts.begin(), c.neededTexts.end(), [&](int t) { return lineHas(t); }))
            continue;
        if (c.anchorInLiteral >= 0) {
            if (!anchorsFound)
                findAnchors(m_rules.groups()[group].anchor);
            anchorsFound = true;
            if (!literalAtAnchor(c))
                continue;
        }
        bool tooLong = false;
        const int n = c.match(m_line, found, LogMetricExtractor::kMaxPerLine, &tooLong);
        if (tooLong && !m_tooLongNoted[size_t(ri)]) {
            m_tooLongNoted[size_t(ri)] = true;
            (unanchored ? m_unanchoredDiagnostics : m_diagnostics)
                .append(LogFindings::lineTooLong(qint64(m_raw.size()), c.pattern));
        }
        any = any || n > 0;
        keep(c, ri, found, n, m_base + (ls - m_begin));
    }
    if (!any)
        noteMiss(ls, unanchored);
}

// Every position of the group's anchor in the line (ANSI sequences removed).
void LogScan::findAnchors(const QByteArray &anchor)
{
    m_anchorAt.clear();
    const std::string_view a(anchor.constData(), size_t(anchor.size()));
    for (size_t at = m_line.text.find(a); at != std::string_view::npos; at = m_line.text.find(a, at + 1))
        m_anchorAt.push_back(at);
}

// Whether the rule's literal is in the line: only where it would hold the anchor.
bool LogScan::literalAtAnchor(const CompiledRule &c) const
{
    const std::string_view literal(c.literal.constData(), size_t(c.literal.size()));
    const size_t before = size_t(c.anchorInLiteral);
    for (size_t at : m_anchorAt)
        if (at >= before && m_line.text.substr(at - before, literal.size()) == literal)
            return true;
    return false;
}

// Whether reading the rule on the line can change nothing: its metric holds
// all the values it keeps, three lines without values are noted, the line is
// not the cut last one and not one too long to note.
bool LogScan::settled(const CompiledRule &c, int index, const char *ls) const
{
    return !c.pattern.ambiguous && m_taken[size_t(c.metric)] >= LogMetricExtractor::kMaxHits
           && m_misses.size() >= kMisses && m_base + (ls - m_begin) < m_tail
           && (m_tooLongNoted[size_t(index)] || qsizetype(m_line.text.size()) <= LogMetricExtractor::kMaxRegexLine);
}

// A rule's values on the line: skipped on a cut last line and for other
// ranks; an ambiguous rule's only counted; the others wait for the line's end.
void LogScan::keep(const CompiledRule &c, int index, const RuleValue *found, int n, qint64 offset)
{
    for (int i = 0; i < n; ++i) {
        if (offset >= m_tail) {
            m_tailSkipped = true;
            continue;
        }
        if (found[i].rank < 0 && m_lineRank == kRankUnread)   // read once, for the lines that give a value
            m_lineRank = logtext::lineRank(m_raw);
        const int rank = found[i].rank >= 0 ? found[i].rank : m_lineRank;
        if (m_rank0Only && rank > 0 && !c.pattern.anyRank && c.pattern.aggregation != MetricAggregation::PerRankSum)
            continue;
        if (c.pattern.ambiguous) {
            if (m_ambiguousValues >= LogMetricExtractor::kMaxHits)
                continue;
            ++m_ambiguousValues;
            Ambiguous &a = m_ambiguous[index];
            if (a.count++ == 0) {
                a.offset = offset;
                a.first = found[i].value;
            }
        } else if (m_taken[size_t(c.metric)] < LogMetricExtractor::kMaxHits) {
            ++m_taken[size_t(c.metric)];
            m_lineValues.push_back({index, c.metric, {found[i].value, found[i].step, rank}});
        }
    }
}

void LogScan::noteMiss(const char *ls, bool unanchored)
{
    QList<Miss> &list = unanchored ? m_unanchoredMisses : m_misses;
    const qint64 offset = m_base + (ls - m_begin);
    if (list.size() >= (unanchored ? kMisses + 1 : kMisses) || (!list.isEmpty() && list.back().offset == offset))
        return;
    list.append({offset, -1, LogFindings::quotedLine(ls, m_end)});
}

// The line's values go to their metrics: per metric, those of the first rule that read it.
void LogScan::endLine()
{
    if (m_lineValues.empty())
        return;
    for (const LineValue &v : m_lineValues) {
        int &first = m_firstRule[size_t(v.metric)];
        if (first < 0 || v.rule < first)
            first = v.rule;
    }
    const qint64 offset = m_base + (m_valuesStart - m_begin);
    const QList<CompiledRule> &rules = m_rules.rules();
    for (const LineValue &v : m_lineValues)
        if (v.rule == m_firstRule[size_t(v.metric)])
            m_metrics[size_t(v.metric)].add(
                {v.read, v.rule, rules[v.rule].pattern.aggregation, offset, m_valuesStart, m_valuesEnd});
    for (const LineValue &v : m_lineValues)
        m_firstRule[size_t(v.metric)] = -1;
    m_lineValues.clear();
}

// The nccl-/rccl-tests result table: its own reader over the whole piece.
void LogScan::ncclRows(std::string_view piece)
{
    if (m_ncclRules.empty() || piece.empty())
        return;
    QList<NcclRow> rows;
    m_nccl.read(piece, m_base, rows);
    const QList<CompiledRule> &rules = m_rules.rules();
    for (int ri : m_ncclRules) {
        const CompiledRule &c = rules[ri];
        for (const NcclRow &r : rows) {
            const char *ls = m_begin + (r.offset - m_base);
            const char *le = m_begin + (r.lineEnd - m_base);
            const int rank = logtext::lineRank(std::string_view(ls, size_t(le - ls)));
            if (r.offset >= m_tail) {
                m_tailSkipped = true;
            } else if (!(m_rank0Only && rank > 0) && m_taken[size_t(c.metric)] < LogMetricExtractor::kMaxHits) {
                ++m_taken[size_t(c.metric)];
                m_metrics[size_t(c.metric)].add(
                    {{r.busBwGBps, r.bytes, rank}, ri, c.pattern.aggregation, r.offset, ls, le});
            }
        }
    }
}

// Line numbers for what needs one (the values chosen so far, run ends,
// ambiguous values, misses), with the chosen values' lines copied: one count
// of the piece's line breaks.
void LogScan::countLines()
{
    std::vector<std::pair<qint64, qint64 *>> wanted;
    for (MetricAccumulator &m : m_metrics)
        if (const qint64 offset = m.keepChosenLine(); offset >= 0)
            wanted.emplace_back(offset, m.chosenLineNumber());
    for (; m_runEndsCounted < m_runEnds.size(); ++m_runEndsCounted)
        wanted.emplace_back(m_runEnds[m_runEndsCounted].line, &m_runEnds[m_runEndsCounted].line);
    for (Ambiguous &a : m_ambiguous)
        if (a.line < 0)
            wanted.emplace_back(a.offset, &a.line);
    for (QList<Miss> *list : {&m_misses, &m_unanchoredMisses})
        for (Miss &miss : *list)
            if (miss.line < 0)
                wanted.emplace_back(miss.offset, &miss.line);
    std::sort(wanted.begin(), wanted.end());
    const char *at = m_begin;
    qint64 lines = m_lines;
    for (const auto &[offset, line] : wanted) {
        const char *p = m_begin + (offset - m_base);
        lines += logtext::countNewlines(at, p);
        at = p;
        *line = lines + 1;
    }
    m_lines = lines + logtext::countNewlines(at, m_end);
}

LogMetricResult LogScan::finish()
{
    LogMetricResult result;
    result.bytes = m_bytes;
    result.diagnostics = m_diagnostics + m_unanchoredDiagnostics;
    result.runEnds = m_runEnds;
    if (m_tailSkipped)
        result.diagnostics.append(LogFindings::truncatedLine(m_tailLine));
    for (const MetricAccumulator &acc : m_metrics) {
        if (acc.count() == 0)
            continue;
        const LogMetric m = acc.result(m_rules.rules());
        if (m.aggregation == MetricAggregation::PerRankSum && m.ranks < 2)
            result.diagnostics.append(LogFindings::perRankUnlabelled(m));
        else
            result.metrics.append(m);
    }
    LogFindings::addDerived(result);
    reportUnread(result);
    return result;
}

// The misses as one list: the anchored ones, then those of the rules without anchor.
QList<LogScan::Miss> LogScan::misses() const
{
    QList<Miss> all = m_misses;
    for (const Miss &m : m_unanchoredMisses)
        if (all.size() < kMisses && (all.isEmpty() || all.back().offset != m.offset))
            all.append(m);
    return all;
}

// Values whose scope the line does not say, and a log that gave nothing.
void LogScan::reportUnread(LogMetricResult &result) const
{
    const QList<CompiledRule> &rules = m_rules.rules();
    for (auto it = m_ambiguous.cbegin(); it != m_ambiguous.cend(); ++it)
        result.diagnostics.append(LogFindings::ambiguous(rules[it.key()].pattern, it->line, it->count, it->first));
    if (!result.metrics.isEmpty() || m_bytes == 0)
        return;
    QStringList families;
    for (const CompiledRule &c : rules) {
        const QString family = c.pattern.rule.section(u'.', 0, 0);
        if (!families.contains(family))
            families << family;
    }
    QString closest;
    for (const Miss &m : misses())
        closest += QStringLiteral("\n  line %1: %2").arg(m.line).arg(m.quoted);
    result.diagnostics.append(LogFindings::noMetrics(rules.size(), families, closest));
}

}   // namespace scalelab
