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

constexpr int kMaxPerLine = 64;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString formOf(const MetricPattern &p)
{
    switch (p.form) {
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
    return hay.find(std::string_view(needle.constData(), size_t(needle.size()))) != std::string_view::npos;
}

}   // namespace

LogMetric LogMetricExtractor::aggregate(const QList<Hit> &hits, const char *begin, QHash<qint64, qint64> &lineOf) const
{
    const Compiled &first = m_patterns[hits.front().pattern];
    LogMetric m;
    m.name = first.pattern.name;
    m.unit = first.pattern.unit;
    m.aggregation = first.pattern.aggregation;
    m.count = int(hits.size());
    m.values.reserve(hits.size());
    m.steps.reserve(hits.size());
    double sum = 0;
    qsizetype chosen = 0;
    for (qsizetype i = 0; i < hits.size(); ++i) {
        const Hit &h = hits[i];
        m.values.append(h.value);
        m.steps.append(h.step);
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
    m.line = lineOf.value(c.offset);
    m.sourceLine = QString::fromUtf8(begin + c.offset, c.end - c.offset);
    return m;
}

LogMetricResult LogMetricExtractor::extract(QByteArrayView log) const
{
    LogMetricResult result;
    result.bytes = log.size();
    const char *const begin = log.data();
    const char *const end = begin + log.size();
    QList<QList<Hit>> hits(m_metricNames.size());
    QList<bool> tooLongNoted(m_patterns.size(), false);
    std::string buf;
    SegmentMatch found[kMaxPerLine];

    // A log that does not end with a line break was cut while being written
    // (job killed, fetch of a growing file): its last line may hold half a
    // number ("0.98" of "0.9852"), so nothing is read from it.
    qint64 tail = log.size();
    if (!log.isEmpty() && end[-1] != '\n' && end[-1] != '\r') {
        tail = 0;
        for (const char *t = end; t > begin; --t)
            if (t[-1] == '\n' || t[-1] == '\r') {
                tail = t - begin;
                break;
            }
    }
    bool tailSkipped = false;
    auto add = [&](int pattern, qint64 off, qint64 lineEnd, double v, double step, int rank) {
        if (off >= tail) {
            tailSkipped = true;
            return;
        }
        const Compiled &c = m_patterns[pattern];
        if (m_rank0Only && rank > 0 && c.pattern.aggregation != MetricAggregation::PerRankSum)
            return;
        QList<Hit> &list = hits[c.metric];
        if (list.size() < kMaxHits)
            list.append({off, lineEnd, v, step, rank, pattern});
    };

    for (const Group &g : m_groups) {
        const char *p = begin;
        while (p < end) {
            const char *hit = g.anchor.isEmpty()
                                  ? p
                                  : static_cast<const char *>(
                                      memmem(p, size_t(end - p), g.anchor.constData(), size_t(g.anchor.size())));
            if (!hit)
                break;
            // The segment around the hit: '\r' separates progress-bar updates too.
            const char *ls = hit;
            while (ls > begin && ls[-1] != '\n' && ls[-1] != '\r')
                --ls;
            const char *le = hit;
            while (le < end && *le != '\n' && *le != '\r')
                ++le;
            p = le + 1;
            const std::string_view raw(ls, size_t(le - ls));
            const int lineRank = logtext::lineRank(raw);
            const std::string_view line = logtext::withoutAnsi(raw, buf);
            for (int pi : g.patterns) {
                const Compiled &c = m_patterns[pi];
                if (std::any_of(c.exclude.begin(), c.exclude.end(),
                                [&](const QByteArray &x) { return contains(raw, x); }))
                    continue;
                if (!c.literal.isEmpty() && !contains(line, c.literal))
                    continue;
                if (!c.alsoRequired.isEmpty() && !contains(line, c.alsoRequired))
                    continue;
                bool tooLong = false;
                const int n = matchSegment(c, line, found, kMaxPerLine, &tooLong);
                if (tooLong && !tooLongNoted[pi]) {
                    tooLongNoted[pi] = true;
                    result.diagnostics.append(
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
                for (int i = 0; i < n; ++i)
                    add(pi, ls - begin, le - begin, found[i].value, found[i].step,
                        found[i].rank >= 0 ? found[i].rank : lineRank);
            }
        }
    }
    for (int pi = 0; pi < m_patterns.size(); ++pi) {
        if (!m_patterns[pi].pattern.ncclTable)
            continue;
        for (const NcclRow &r : NcclTestsReader::rows(std::string_view(begin, size_t(log.size()))))
            add(pi, r.offset, r.lineEnd, r.busBwGBps, r.bytes,
                logtext::lineRank(std::string_view(begin + r.offset, size_t(r.lineEnd - r.offset))));
    }

    if (tailSkipped) {
        qint64 lastLine = 1;
        for (const char *t = begin; t < begin + tail; ++t)
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
    QList<qint64> offsets;
    for (QList<Hit> &list : hits) {
        std::stable_sort(list.begin(), list.end(), [](const Hit &a, const Hit &b) {
            return a.offset != b.offset ? a.offset < b.offset : a.pattern < b.pattern;
        });
        QList<Hit> kept;
        kept.reserve(list.size());
        for (const Hit &h : list)
            if (kept.isEmpty() || kept.back().offset != h.offset || kept.back().pattern == h.pattern)
                kept.append(h);
        list = kept;
        for (const Hit &h : list)
            offsets.append(h.offset);
    }
    // Line numbers of every hit's line: one newline count up to the furthest.
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    QHash<qint64, qint64> lineOf;
    qint64 lineNo = 1;
    const char *q = begin;
    for (qint64 off : offsets) {
        const char *target = begin + off;
        while (q < target) {
            const void *nl = std::memchr(q, '\n', size_t(target - q));
            if (!nl)
                break;
            ++lineNo;
            q = static_cast<const char *>(nl) + 1;
        }
        q = target;
        lineOf.insert(off, lineNo);
    }

    for (qsizetype i = 0; i < m_metricNames.size(); ++i) {
        if (hits[i].isEmpty())
            continue;
        LogMetric m = aggregate(hits[i], begin, lineOf);
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
    return result;
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
