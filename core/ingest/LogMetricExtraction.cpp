// SPDX-License-Identifier: GPL-3.0-or-later
// LogMetricExtractor::extract: the scan over the log and the aggregation
// (the pattern compilation is in LogMetricExtractor.cpp).
#include "core/ingest/LogMetricExtractor.h"

#include "core/base/InputLimits.h"
#include "core/ingest/LogLineText.h"
#include "core/ingest/NcclTestsReader.h"

#include <QFile>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace scalelab {

namespace {

QString formOf(const MetricPattern &p)
{
    switch (p.form) {
    case ValueForm::Milliseconds:
        return QStringLiteral("printed milliseconds / 1000");
    case ValueForm::Percent:
        return QStringLiteral("printed percent / 100");
    case ValueForm::Reciprocal:
        return QStringLiteral("1 / printed seconds per iteration");
    case ValueForm::Duration:
        return QStringLiteral("printed H:MM:SS.ff in seconds");
    case ValueForm::Number:
        break;
    }
    return p.ratio ? QStringLiteral("printed numerator / denominator") : QString();
}

bool contains(std::string_view hay, const QByteArray &needle)
{
    return logtext::contains(hay, std::string_view(needle.constData(), size_t(needle.size())));
}

}   // namespace

LogMetric LogMetricExtractor::aggregate(const std::deque<Hit> &hits, const char *begin) const
{
    const Compiled &first = m_patterns[hits.front().pattern];
    LogMetric m;
    m.name = first.pattern.name;
    m.unit = first.pattern.unit;
    m.aggregation = first.pattern.aggregation;
    m.count = int(hits.size());
    m.values.resize(qsizetype(hits.size()));
    m.steps.resize(qsizetype(hits.size()));
    double *values = m.values.data();
    double *steps = m.steps.data();
    double sum = 0;
    size_t chosen = 0;
    for (size_t i = 0; i < hits.size(); ++i) {
        const Hit &h = hits[i];
        values[i] = h.value;
        steps[i] = h.step;
        sum += h.value;
        switch (m.aggregation) {
        case MetricAggregation::Max:
            if (h.value > hits[chosen].value)
                chosen = i;
            break;
        case MetricAggregation::Min:
            if (h.value < hits[chosen].value)
                chosen = i;
            break;
        default:
            chosen = i;
            break;
        }
    }
    const Hit &c = hits[chosen];
    const MetricPattern &rule = m_patterns[c.pattern].pattern;
    m.rule = rule.rule;
    m.meaning = rule.meaning;
    QStringList formula;
    if (const QString f = formOf(rule); !f.isEmpty())
        formula << f;
    switch (m.aggregation) {
    case MetricAggregation::Last:
        m.value = c.value;
        break;
    case MetricAggregation::Mean:
        m.value = sum / double(hits.size());
        formula << QStringLiteral("mean of %1 values").arg(hits.size());
        break;
    case MetricAggregation::Max:
        m.value = c.value;
        formula << QStringLiteral("maximum of %1 values").arg(hits.size());
        break;
    case MetricAggregation::Min:
        m.value = c.value;
        formula << QStringLiteral("minimum of %1 values").arg(hits.size());
        break;
    case MetricAggregation::PerRankSum: {
        QMap<int, std::pair<double, int>> perRank;
        for (const Hit &h : hits)
            if (h.rank >= 0) {
                perRank[h.rank].first += h.value;
                perRank[h.rank].second += 1;
            }
        m.ranks = int(perRank.size());
        m.value = 0;
        for (const auto &[s, n] : perRank)
            m.value += s / n;
        formula
            << QStringLiteral("sum over %1 ranks of each rank's mean (%2 values)").arg(perRank.size()).arg(hits.size());
        break;
    }
    }
    m.formula = formula.join(QStringLiteral("; "));
    m.line = c.offset;   // an offset until report() counts lines
    m.sourceLine = QString::fromUtf8(begin + c.offset, c.end - c.offset);
    return m;
}

struct LogMetricExtractor::Scan {
    const char *begin = nullptr;
    const char *end = nullptr;
    qint64 tail = 0;   // values at or after this offset are on a cut last line
    bool tailSkipped = false;
    LogMetricResult result;
    // Per metric; blocks, not one array: no copying as it grows to 10^5 hits.
    std::vector<std::deque<Hit>> hits;
    QList<Hit> ambiguous;   // values of ambiguous rules
    QList<bool> tooLongNoted;
    QList<const char *> doneUntil;   // per group: lines before this were read
    QList<qint64> nearMisses;   // line starts where an anchor was found but no rule read a value
    std::string buf;
    // The line the previous anchor was in, kept for the next anchors in it.
    const char *lineStart = nullptr;
    const char *lineEnd = nullptr;
    std::string_view line;
    int lineRank = -1;
    std::optional<QString> text;
};

void LogMetricExtractor::scanLine(Scan &s, int group, const char *ls, const char *le) const
{
    if (ls != s.lineStart || le != s.lineEnd) {
        s.lineStart = ls;
        s.lineEnd = le;
        const std::string_view raw(ls, size_t(le - ls));
        s.lineRank = logtext::lineRank(raw);
        s.line = logtext::withoutAnsi(raw, s.buf);
        s.text.reset();
    }
    const std::string_view raw(ls, size_t(le - ls));
    SegmentMatch found[kMaxPerLine];
    bool any = false;
    for (int pi : m_groups[group].patterns) {
        const Compiled &c = m_patterns[pi];
        if (std::any_of(c.exclude.begin(), c.exclude.end(), [&](const QByteArray &x) { return contains(raw, x); }))
            continue;
        if ((!c.literal.isEmpty() && !c.literalIsAnchor && !contains(s.line, c.literal))
            || (!c.alsoRequired.isEmpty() && !contains(s.line, c.alsoRequired))
            || std::any_of(c.required.begin(), c.required.end(),
                           [&](const QByteArray &t) { return !contains(s.line, t); }))
            continue;
        bool tooLong = false;
        const int n = matchSegment(c, s.line, s.text, found, kMaxPerLine, &tooLong);
        if (tooLong && !s.tooLongNoted[pi]) {
            s.tooLongNoted[pi] = true;
            s.result.diagnostics.append(
                {Severity::Info,
                 QStringLiteral("log-line-too-long"),
                 c.pattern.rule,
                 0,
                 0,
                 QStringLiteral("a line of %1 bytes is longer than %2 KB; rule %3 (%4) was not applied to it")
                     .arg(raw.size())
                     .arg(kMaxRegexLine / 1024)
                     .arg(c.pattern.rule, c.pattern.name),
                 {}});
        }
        any = any || n > 0;
        const qint64 off = ls - s.begin;
        for (int i = 0; i < n; ++i) {
            if (off >= s.tail) {
                s.tailSkipped = true;
                continue;
            }
            const int rank = found[i].rank >= 0 ? found[i].rank : s.lineRank;
            if (m_rank0Only && rank > 0 && !c.pattern.anyRank && c.pattern.aggregation != MetricAggregation::PerRankSum)
                continue;
            const Hit h{off, le - s.begin, found[i].value, found[i].step, rank, pi};
            if (c.pattern.ambiguous) {
                if (s.ambiguous.size() < kMaxHits)
                    s.ambiguous.append(h);
            } else if (s.hits[c.metric].size() < size_t(kMaxHits)) {
                s.hits[c.metric].push_back(h);
            }
        }
    }
    if (!any && s.nearMisses.size() < 3 && (s.nearMisses.isEmpty() || s.nearMisses.back() != ls - s.begin))
        s.nearMisses.append(ls - s.begin);
}

// One pass finds every anchor; each line holding one is read once per group.
void LogMetricExtractor::scanAll(Scan &s) const
{
    const char *const begin = s.begin;
    const char *const end = s.end;
    auto bounds = [&](const char *at, const char **ls, const char **le) {
        if (at >= s.lineStart && at < s.lineEnd && s.lineStart) {
            *ls = s.lineStart;
            *le = s.lineEnd;
            return;
        }
        // The segment around the hit: '\r' separates progress-bar updates too.
        const char *a = at;
        while (a > begin && a[-1] != '\n' && a[-1] != '\r')
            --a;
        const char *b = at;
        while (b < end && *b != '\n' && *b != '\r')
            ++b;
        *ls = a;
        *le = b;
    };
    const int groups = int(m_groups.size());
    m_scan->scan(std::string_view(begin, size_t(end - begin)), [&](int anchor, size_t offset) {
        const char *at = begin + offset;
        if (anchor < groups && at < s.doneUntil[anchor])
            return true;
        const char *ls = nullptr;
        const char *le = nullptr;
        bounds(at, &ls, &le);
        if (anchor < groups) {
            s.doneUntil[anchor] = le;
            scanLine(s, anchor, ls, le);
        } else if (auto e = RunEndReader::readLine(std::string_view(ls, size_t(le - ls)));
                   e && ls - begin < s.tail && s.result.runEnds.size() < RunEndReader::kMaxEnds
                   && (s.result.runEnds.isEmpty() || s.result.runEnds.back().text != e->text)) {
            e->line = ls - begin;   // an offset until report() counts lines
            s.result.runEnds.append(*e);
        }
        return true;
    });
    for (int g : m_unanchored)
        for (const char *ls = begin; ls < end;) {
            const char *le = ls;
            while (le < end && *le != '\n' && *le != '\r')
                ++le;
            scanLine(s, g, ls, le);
            ls = le + 1;
        }
}

LogMetricResult LogMetricExtractor::extract(QByteArrayView log) const
{
    Scan s;
    s.result.bytes = log.size();
    s.begin = log.data();
    s.end = s.begin + log.size();
    s.hits.resize(size_t(m_metricNames.size()));
    s.tooLongNoted.fill(false, m_patterns.size());
    s.doneUntil.fill(s.begin, m_groups.size());

    // A log that does not end with a line break was cut while being written
    // (job killed, fetch of a growing file): its last line may hold half a
    // number ("0.98" of "0.9852"), so nothing is read from it.
    s.tail = log.size();
    if (!log.isEmpty() && s.end[-1] != '\n' && s.end[-1] != '\r') {
        s.tail = 0;
        for (const char *t = s.end; t > s.begin; --t)
            if (t[-1] == '\n' || t[-1] == '\r') {
                s.tail = t - s.begin;
                break;
            }
    }
    if (!log.isEmpty())
        scanAll(s);
    for (int pi = 0; pi < m_patterns.size(); ++pi) {
        if (!m_patterns[pi].pattern.ncclTable)
            continue;
        for (const NcclRow &r : NcclTestsReader::rows(std::string_view(s.begin, size_t(log.size())))) {
            const int rank = logtext::lineRank(std::string_view(s.begin + r.offset, size_t(r.lineEnd - r.offset)));
            if (r.offset >= s.tail)
                s.tailSkipped = true;
            else if (!(m_rank0Only && rank > 0) && s.hits[m_patterns[pi].metric].size() < size_t(kMaxHits))
                s.hits[m_patterns[pi].metric].push_back({r.offset, r.lineEnd, r.busBwGBps, r.bytes, rank, pi});
        }
    }
    report(s);
    return s.result;
}

namespace {

// Line numbers of the given offsets: one newline count up to the furthest.
QHash<qint64, qint64> lineNumbers(const char *begin, QList<qint64> offsets)
{
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    QHash<qint64, qint64> lineOf;
    qint64 lineNo = 1;
    const char *q = begin;
    for (qint64 off : offsets) {
        lineNo += logtext::countNewlines(q, begin + off);
        q = begin + off;
        lineOf.insert(off, lineNo);
    }
    return lineOf;
}

QString quotedLine(const char *begin, qint64 offset, const char *end)
{
    const char *e = begin + offset;
    while (e < end && *e != '\n' && *e != '\r' && e - (begin + offset) < 200)
        ++e;
    return u'\'' + InputLimits::quoted(QString::fromUtf8(begin + offset, e - (begin + offset)).trimmed()) + u'\'';
}

// MLPerf's time to train: run_stop (status success) minus run_start, both in ms.
void addDerived(LogMetricResult &r)
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

}   // namespace

void LogMetricExtractor::report(Scan &s) const
{
    LogMetricResult &result = s.result;
    if (s.tailSkipped) {
        qint64 lastLine = 1;
        for (const char *t = s.begin; t < s.begin + s.tail; ++t)
            lastLine += *t == '\n' ? 1 : 0;
        result.diagnostics.append({Severity::Info,
                                   QStringLiteral("log-truncated-line"),
                                   {},
                                   int(lastLine),
                                   0,
                                   QStringLiteral("line %1: the log ends without a line break, so its last line may be "
                                                  "cut off; values on it were not read")
                                       .arg(lastLine),
                                   {}});
    }
    // One line, one rule per metric: the first rule that matched it wins.
    const auto byOffset = [](const Hit &x, const Hit &y) {
        return x.offset != y.offset ? x.offset < y.offset : x.pattern < y.pattern;
    };
    QList<LogMetric> read;
    QList<qint64> offsets;
    for (std::deque<Hit> &list : s.hits) {
        if (list.empty())
            continue;
        if (!std::is_sorted(list.begin(), list.end(), byOffset))
            std::stable_sort(list.begin(), list.end(), byOffset);
        size_t kept = 0;
        for (size_t i = 0; i < list.size(); ++i)
            if (kept == 0 || list[kept - 1].offset != list[i].offset || list[kept - 1].pattern == list[i].pattern)
                list[kept++] = list[i];
        list.resize(kept);
        read.append(aggregate(list, s.begin));
        offsets.append(read.back().line);
    }
    for (const Hit &h : s.ambiguous)
        offsets.append(h.offset);
    for (const RunEnd &e : result.runEnds)
        offsets.append(e.line);
    offsets.append(s.nearMisses);
    const QHash<qint64, qint64> lineOf = lineNumbers(s.begin, offsets);
    for (RunEnd &e : result.runEnds)
        e.line = lineOf.value(e.line);
    for (LogMetric &m : read) {
        m.line = lineOf.value(m.line);
        if (m.aggregation == MetricAggregation::PerRankSum && m.ranks < 2) {
            result.diagnostics.append(
                {Severity::Info,
                 QStringLiteral("metric-per-rank-unlabelled"),
                 m.name,
                 int(m.line),
                 0,
                 QStringLiteral("%1 value(s) but lines labelled with %2 rank(s); a per-rank sum needs labels "
                                "from every rank (srun --label, torchrun --tee 3); not reported")
                     .arg(m.count)
                     .arg(m.ranks),
                 {}});
            continue;
        }
        result.metrics.append(m);
    }
    addDerived(result);
    reportUnread(s, lineOf);
}

// Values whose scope the line does not say, and a log that gave nothing.
void LogMetricExtractor::reportUnread(Scan &s, const QHash<qint64, qint64> &lineOf) const
{
    LogMetricResult &result = s.result;
    QMap<int, QList<const Hit *>> byRule;
    for (const Hit &h : s.ambiguous)
        byRule[h.pattern].append(&h);
    for (auto it = byRule.cbegin(); it != byRule.cend(); ++it) {
        const MetricPattern &p = m_patterns[it.key()].pattern;
        const Hit &first = *it.value().front();
        const qint64 line = lineOf.value(first.offset);
        result.diagnostics.append(
            {Severity::Warning,
             QStringLiteral("metric-ambiguous"),
             p.rule,
             int(line),
             0,
             QStringLiteral("line %1: %2 value(s) like %3 %4 (rule %5: %6), but the line does not say whether it is "
                            "one GPU's or the whole job's, so it is not reported; add a pattern (--patterns) naming "
                            "the metric you know it is")
                 .arg(line)
                 .arg(it.value().size())
                 .arg(first.value, 0, 'g', 8)
                 .arg(p.unit, p.rule, p.meaning),
             {}});
    }
    if (!result.metrics.isEmpty() || s.begin == s.end)
        return;
    QStringList families;
    for (const Compiled &c : m_patterns) {
        const QString family = c.pattern.rule.section(u'.', 0, 0);
        if (!families.contains(family))
            families << family;
    }
    QString closest;
    for (qint64 off : s.nearMisses)
        closest += QStringLiteral("\n  line %1: %2").arg(lineOf.value(off)).arg(quotedLine(s.begin, off, s.end));
    result.diagnostics.append(
        {Severity::Warning,
         QStringLiteral("log-no-metrics"),
         {},
         0,
         0,
         QStringLiteral("no value was read: %1 rules of these readers looked for their text (%2; `scalelab metrics "
                        "--list-readers` shows each with an example line); %3")
             .arg(m_patterns.size())
             .arg(families.join(QStringLiteral(", ")),
                  closest.isEmpty()
                      ? QStringLiteral("no line held any reader's fixed text")
                      : QStringLiteral("lines that held a reader's text but no value it reads:") + closest),
         {}});
}

LogMetricResult LogMetricExtractor::extractFile(const QString &path) const
{
    auto unreadable = [&](const QString &message) {
        LogMetricResult r;
        r.file = path;
        r.diagnostics.append({Severity::Error, QStringLiteral("log-unreadable"), {}, 0, 0, message, {}});
        return r;
    };
    auto opened = InputLimits::openFile(path, QStringLiteral("job output"));
    if (!opened)
        return unreadable(opened.errorText());
    QFile &f = **opened;
    LogMetricResult r;
    QByteArray bytes;
    QByteArrayView view;
    if (f.size() > 0) {
        // Mapping avoids copying a 200 MB log.
        if (uchar *p = f.map(0, f.size()))
            view = QByteArrayView(reinterpret_cast<const char *>(p), f.size());
        else
            view = bytes = f.readAll();
    }
    if (auto bad = InputLimits::encodingProblem(view, path, QStringLiteral("job output"), InputLimits::Content::Log))
        return unreadable(bad->message);
    r = extract(view);
    r.file = path;
    for (LogMetric &m : r.metrics)
        m.file = path;
    return r;
}

}   // namespace scalelab
